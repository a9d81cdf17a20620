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

/** How many invalid fields the message names; `details` has them all. */
const NAMED_FIELDS = 3;

/** `The request is not valid (name, tags.0).`: the fields at fault, for a reader of the message alone. */
export function validationMessage(details: ValidationDetails): string {
  const fields = Object.keys(details.fieldErrors);
  if (fields.length === 0) return 'The request is not valid.';
  const more = fields.length > NAMED_FIELDS ? ` and ${fields.length - NAMED_FIELDS} more` : '';
  return `The request is not valid (${fields.slice(0, NAMED_FIELDS).join(', ')}${more}).`;
}

/** Parses `value` with `schema`, throwing a `validation_failed` LoupeError on failure. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = validationDetails(result.error, prefix);
  throw new LoupeError('validation_failed', { message: validationMessage(details), details });
}
