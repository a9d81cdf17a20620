import { createHash, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'loupe_';
const PREFIX_LENGTH = SECRET_PREFIX.length + 6;

/** A new API key secret: `loupe_` and 32 random bytes in base64url. */
export function generateKeySecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/** Only this hash is stored (DESIGN.md §5). The secret has 256 bits, so no salt or slow hash is needed. */
export function hashKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The visible start of a secret, to tell keys apart in lists. */
export function keyPrefix(secret: string): string {
  return secret.slice(0, PREFIX_LENGTH);
}
