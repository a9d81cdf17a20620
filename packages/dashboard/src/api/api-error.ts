import { LoupeError } from '@loupe/contract';

/** Any thrown value as something with a message to show. */
export function asLoupeError(error: unknown): LoupeError {
  if (error instanceof LoupeError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // fetch rejects with a TypeError when the server cannot be reached at all.
  return new LoupeError('internal_error', { message: `Could not reach the server: ${message}` });
}

/** The API's `details.fieldErrors` (DESIGN.md §4), for FormField to show beside each control. */
export function fieldErrorsOf(error: unknown): Record<string, string[]> {
  return error instanceof LoupeError ? (error.details?.fieldErrors ?? {}) : {};
}

/** Whether the error is about fields a form shows, so it need not be repeated above the form. */
export function onlyFieldErrors(error: unknown, fields: readonly string[]): boolean {
  if (!(error instanceof LoupeError) || !error.details) return false;
  const { fieldErrors, formErrors } = error.details;
  const named = Object.keys(fieldErrors);
  return formErrors.length === 0 && named.length > 0 && named.every((name) => fields.includes(name));
}
