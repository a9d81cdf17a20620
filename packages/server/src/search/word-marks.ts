import { WORD_MARK_SPAN } from '../database/migrations/0021-search-word-marks.ts';

/**
 * Where every WORD_MARK_SPAN-th word of a text starts, as PostgreSQL reads the text (migration
 * 0021): its words as string_to_array(text, ' ') splits them (every space ends one, so two
 * spaces make an empty one between), their places in characters counted from 1 as substr
 * counts them (a character beyond the Basic Multilingual Plane is one, not JavaScript's two).
 */
export function wordMarks(text: string): number[] {
  const marks = [1];
  let word = 1;
  let character = 1;
  for (let i = 0; i < text.length; i++, character++) {
    const code = text.charCodeAt(i);
    if (code === 0x20 && ++word % WORD_MARK_SPAN === 1) marks.push(character + 1);
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return marks;
}
