import { replaceUnsafeCharacters } from '@loupe/contract';

const hex = (code: number, width: number) => code.toString(16).padStart(width, '0');

/** `\x1b`, `\x85`, `\u202e`, `\u{e0001}`: the character's escape, which a terminal prints rather than obeys. */
function escaped(character: string): string {
  const code = character.codePointAt(0)!;
  if (code <= 0xff) return `\\x${hex(code, 2)}`;
  return code <= 0xffff ? `\\u${hex(code, 4)}` : `\\u{${hex(code, 0)}}`;
}

/**
 * Text that came from a server (names, page titles and URLs of crawled sites, messages) made
 * safe to print: control characters (an escape sequence can move the cursor, retitle the window
 * or hide what follows) and invisible format characters (a bidi override reverses what is
 * printed after it) are shown as escapes. The same characters names refuse (contract's
 * free-text.ts); newlines and tabs stay in multi-line text, where they add lines but rewrite none.
 */
export function terminalText(text: string, options: { multiline?: boolean } = {}): string {
  return replaceUnsafeCharacters(text, escaped, options);
}

/** Every string of a server's answer (keys too) through `terminalText`, for a formatter to lay out. */
export function terminalValue<T>(value: T): T {
  if (typeof value === 'string') return terminalText(value, { multiline: true }) as T;
  if (Array.isArray(value)) return value.map((item) => terminalValue(item)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [terminalText(key), terminalValue(item)])) as T;
  }
  return value;
}

/** `\u202e`: one character as JSON writes it, in UTF-16 units. */
function jsonEscaped(character: string): string {
  return [...Array(character.length).keys()].map((unit) => `\\u${hex(character.charCodeAt(unit), 4)}`).join('');
}

/**
 * JSON as safe to print as to parse: JSON.stringify escapes C0 controls and lone surrogates but
 * leaves DEL, C1 controls and bidi overrides raw; they can only stand inside strings, where a
 * `\u` escape is the same value to any parser.
 */
export function terminalJson(json: string): string {
  return replaceUnsafeCharacters(json, jsonEscaped, { multiline: true });
}
