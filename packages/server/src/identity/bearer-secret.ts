import { timingSafeEqual } from 'node:crypto';

/** The secret of an `Authorization: Bearer <secret>` header; undefined when it sends none. */
export function bearerSecret(authorization: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
}

/** Whether `given` is the `expected` secret, compared in constant time (no answer tells how much of it matched). */
export function sameSecret(given: string, expected: string): boolean {
  const actual = Buffer.from(given);
  const wanted = Buffer.from(expected);
  return actual.length === wanted.length && timingSafeEqual(actual, wanted);
}
