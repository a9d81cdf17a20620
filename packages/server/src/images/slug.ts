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

/** Every slug projectSlug makes, and nothing else. */
const SLUG = new RegExp(`^(?=.{1,${MAX_BASE_LENGTH + 7}}$)[a-z0-9]+(?:-[a-z0-9]+)*$`);

/**
 * Whether `text` could be a slug: one that could not names no project, and is not looked up
 * (PostgreSQL refuses a NUL in a text parameter with an error, not an empty answer).
 */
export function isProjectSlug(text: string): boolean {
  return SLUG.test(text);
}
