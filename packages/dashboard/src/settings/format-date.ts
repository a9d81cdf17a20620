const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** An API timestamp (ISO 8601 UTC) in the reader's own time zone and language, to the minute. */
export function formatDateTime(timestamp: string): string {
  return dateTime.format(new Date(timestamp));
}

/** An API timestamp as a day in the reader's time zone. */
export function formatDay(timestamp: string): string {
  return dateOnly.format(new Date(timestamp));
}

/** Whether an optional expiry has passed. */
export function hasExpired(expiresAt: string | null, now = Date.now()): boolean {
  return expiresAt !== null && Date.parse(expiresAt) <= now;
}
