/** The current time as the ISO 8601 UTC text we store and answer (DESIGN.md §4). */
export function now(): string {
  return new Date().toISOString();
}
