import { randomBytes } from 'node:crypto';

const SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const MAX_BASE_LENGTH = 40;

/**
 * A CDN slug: the name in lower-case ASCII words joined by hyphens, then a 6-character
 * random suffix (36^6 ≈ 2·10⁹) so that two projects of the same name never meet.
 */
export function projectSlug(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_BASE_LENGTH)
    .replace(/-+$/, '');
  const suffix = Array.from(randomBytes(6), (byte) => SUFFIX_ALPHABET[byte % SUFFIX_ALPHABET.length]).join('');
  return base ? `${base}-${suffix}` : suffix;
}
