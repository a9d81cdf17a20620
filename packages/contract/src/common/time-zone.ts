import { z } from 'zod';

/**
 * An IANA time zone, kept as given but for letter case (`europe/berlin` → `Europe/Berlin`).
 * Node's ICU resolves some current names to older ones (`Asia/Kolkata` → `Asia/Calcutta`), so
 * the resolved name replaces the given one only when they differ in case alone.
 */
export const TimeZone = z
  .string()
  .min(1)
  .max(100)
  .refine((zone) => timeZoneName(zone) !== undefined, 'Must be an IANA time zone such as Europe/Berlin.')
  .transform((zone) => timeZoneName(zone) as string);

function timeZoneName(zone: string): string | undefined {
  try {
    const resolved = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
  } catch {
    return undefined;
  }
}
