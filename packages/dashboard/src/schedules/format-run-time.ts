const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "in 3 hours", "2 days ago": how far an instant is from `now`, in its largest whole unit. */
export function fromNow(instant: string, now = Date.now()): string {
  const difference = Date.parse(instant) - now;
  for (const [unit, size] of units) {
    if (Math.abs(difference) >= size) return relative.format(Math.round(difference / size), unit);
  }
  return relative.format(Math.round(difference / 1000), 'second');
}

/**
 * An instant as a clock in `timeZone` reads it ("Tue, 4 Jun 2024, 03:00"): a schedule's runs
 * are written in its zone, so that is where they read naturally.
 */
export function inZone(instant: string, timeZone: string): string {
  try {
    const format = new Intl.DateTimeFormat(undefined, {
      weekday: 'short',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone,
    });
    return format.format(new Date(instant));
  } catch {
    // A zone this browser's ICU does not know: the viewer's own zone, still a true instant.
    return new Date(instant).toLocaleString();
  }
}
