import { z } from 'zod';

/**
 * Characters no name or label may hold (issue #22), by Unicode general category so the
 * runtime's Unicode data decides rather than a table of ours:
 * - Cc: C0 controls, DEL and C1 controls, which terminals and log viewers obey;
 * - Cf: invisible format characters, among them the bidi embeddings, overrides and isolates
 *   (U+202A–U+202E, U+2066–U+2069) that reorder what a reader sees ("Trojan Source",
 *   CVE-2021-42574), zero-width spaces and word joiners that make two names look alike;
 * - Zl, Zp: U+2028 and U+2029, which break a line like a newline does;
 * - Cs: lone surrogates, which are not text and cannot be stored as UTF-8.
 */
const unsafe = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
/**
 * The Cf characters real text needs: ZWNJ and ZWJ (Persian and Indic spelling, emoji
 * sequences such as 👩‍💻) and the tag characters that spell subdivision flags (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
 */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: one character is tested at a time, so ZWJ joins nothing here.
const needed = /^[\u200c\u200d\u{e0020}-\u{e007f}]$/u;
const lineBreaks = /^[\n\t]$/;

/** `U+202E`, as Unicode writes a code point. */
export function codePointName(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Calls `found` for each character of `text` no name may hold (tab and newline are allowed
 * when `multiline`), with its index, and returns the text with each replaced by what it returns.
 */
export function replaceUnsafeCharacters(
  text: string,
  found: (character: string, index: number) => string,
  options: { multiline?: boolean } = {},
): string {
  return text.replace(unsafe, (character, index: number) =>
    needed.test(character) || (options.multiline && lineBreaks.test(character)) ? character : found(character, index),
  );
}

/** The first character of `text` no name may hold, with its index, or undefined. */
export function firstUnsafeCharacter(
  text: string,
  options: { multiline?: boolean } = {},
): { character: string; index: number } | undefined {
  let first: { character: string; index: number } | undefined;
  replaceUnsafeCharacters(
    text,
    (character, index) => {
      first ??= { character, index };
      return character;
    },
    options,
  );
  return first;
}

export interface FreeTextOptions {
  max: number;
  /** Fewest characters (after trimming); 1 unless `multiline`, 0 then. */
  min?: number;
  /** Tabs and newlines allowed, and the text kept as written; otherwise it is trimmed. */
  multiline?: boolean;
}

const isSafeLine = (text: string) => firstUnsafeCharacter(text) === undefined;
const isSafeText = (text: string) => firstUnsafeCharacter(text, { multiline: true }) === undefined;

function unsafeMessage(input: unknown, multiline: boolean): string {
  const text = String(input);
  const found = firstUnsafeCharacter(text, { multiline });
  // Counted as a person counts characters: 👩‍💻 is one, though three code points.
  const before = found ? [...new Intl.Segmenter().segment(text.slice(0, found.index))].length : 0;
  const at = found ? ` (${codePointName(found.character)} at character ${before + 1})` : '';
  return `Must not contain control characters or invisible formatting characters such as bidi overrides${at}.`;
}

/**
 * The schema of every free-text name and label a client sends (workspace, user, project,
 * key and rule pack names, tags, alt text, rule titles…): one rule for all, so a name shown
 * in the dashboard, an email, a log or a terminal can never reorder or hide what is around it.
 */
export function freeText(options: FreeTextOptions): z.ZodString {
  const { max, multiline = false, min = multiline ? 0 : 1 } = options;
  const base = multiline ? z.string() : z.string().trim();
  return base
    .min(min)
    .max(max)
    .refine(multiline ? isSafeText : isSafeLine, { error: (issue) => unsafeMessage(issue.input, multiline) });
}

/** Whether `schema` was made by `freeText` (and how), found by its check, which clones keep. */
export function freeTextKind(schema: z.ZodType): { multiline: boolean } | undefined {
  for (const check of schema._zod.def.checks ?? []) {
    const predicate = (check._zod.def as { fn?: unknown }).fn;
    if (predicate === isSafeLine) return { multiline: false };
    if (predicate === isSafeText) return { multiline: true };
  }
  return undefined;
}
