import { LoupeError, errorCodes, type ErrorCode } from '@loupe/contract';

/**
 * A failed answer of the dashboard's own endpoints (`/api/session`, `/api/setup`, which are
 * not SDK methods) as the LoupeError the SDK throws for everything else, so one ErrorMessage
 * and one FormField render both.
 */
export async function errorFromResponse(response: Response): Promise<LoupeError> {
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  const { error, code, details, ...extra } = body ?? {};
  const known = errorCodes.includes(code as ErrorCode) ? (code as ErrorCode) : response.status >= 500 ? 'internal_error' : 'validation_failed';
  const failure = new LoupeError(known, {
    message: typeof error === 'string' ? error : `The server answered ${response.status}.`,
    details: details as LoupeError['details'],
    extra,
  });
  return Object.assign(failure, { status: response.status });
}

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
