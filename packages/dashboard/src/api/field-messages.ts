import { fieldErrorsOf } from './api-error.ts';

/**
 * The API's messages for a field and for the parts of it: a list or a record reports each
 * entry at its own dotted path (`include.2`, `headers.X-Token`), shown beside the one control.
 */
export function fieldMessages(error: unknown, name: string): string[] {
  const fieldErrors = fieldErrorsOf(error);
  return Object.entries(fieldErrors)
    .filter(([path]) => path === name || path.startsWith(`${name}.`))
    .flatMap(([path, messages]) => (path === name ? messages : messages.map((message) => `${path.slice(name.length + 1)}: ${message}`)));
}
