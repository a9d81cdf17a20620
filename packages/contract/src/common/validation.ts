import type { z } from 'zod';
import { LoupeError, type ValidationDetails } from './errors.ts';

/**
 * Adds a message under a field. Field names come from callers (`__proto__`, `constructor`…),
 * so they are defined as own properties, never looked up through the prototype.
 */
export function addFieldError(details: ValidationDetails, field: string, message: string): void {
  const existing = Object.hasOwn(details.fieldErrors, field) ? details.fieldErrors[field] : undefined;
  if (existing) existing.push(message);
  else Object.defineProperty(details.fieldErrors, field, { value: [message], enumerable: true, writable: true, configurable: true });
}

/**
 * Flattens zod issues into DESIGN.md §4's `{ fieldErrors, formErrors }`, keying nested
 * fields by their dotted path (`transforms.width`) so a caller sees exactly which one failed.
 */
export function validationDetails(error: z.ZodError, prefix?: string): ValidationDetails {
  const details: ValidationDetails = { fieldErrors: {}, formErrors: [] };
  for (const issue of error.issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => (path ? `${path}.${key}` : key)) : [path];
    for (const key of keys) {
      const message = issue.code === 'unrecognized_keys' ? 'Unknown field.' : issue.message;
      if (key) addFieldError(details, key, message);
      else details.formErrors.push(message);
    }
  }
  return details;
}

/** Parses `value` with `schema`, throwing a `validation_failed` LoupeError on failure. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new LoupeError('validation_failed', { details: validationDetails(result.error, prefix) });
}
