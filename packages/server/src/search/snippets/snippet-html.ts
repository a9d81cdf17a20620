import { HTML_ENTITIES } from '../../reports/html-escape.ts';

/**
 * The engines mark matches with characters of Unicode's private use area, which no page text
 * keeps (`indexedText` removes them): the snippet is escaped as a whole, the marks alone becoming
 * tags, so nothing of a page's text can ever become markup.
 */
export const MARK_START = '\uE000';
export const MARK_END = '\uE001';
/**
 * Stand-ins for `<` and `>`, for an engine whose parser drops what looks like a tag
 * (PostgreSQL's would lose the words of "<script>" written in a page).
 */
export const LESS_THAN = '\uE002';
export const GREATER_THAN = '\uE003';

const RESERVED = /[\uE000-\uE003]/g;

/** Page text as indexed: the marker characters taken out. */
export function indexedText(text: string): string {
  return text.replace(RESERVED, ' ');
}

/** Text with `<` and `>` swapped for their stand-ins, and back. */
export function withoutAngleBrackets(text: string): string {
  return text.replaceAll('<', LESS_THAN).replaceAll('>', GREATER_THAN);
}
export function withAngleBrackets(text: string): string {
  return text.replaceAll(LESS_THAN, '<').replaceAll(GREATER_THAN, '>');
}

/** What each character of a marked snippet that is not itself becomes in its HTML: a stand-in escaped as the bracket it stands for. */
const SNIPPET_HTML: Readonly<Record<string, string>> = {
  ...HTML_ENTITIES,
  [LESS_THAN]: HTML_ENTITIES['<'],
  [GREATER_THAN]: HTML_ENTITIES['>'],
  [MARK_START]: '<mark>',
  [MARK_END]: '</mark>',
};
const SNIPPET_SPECIALS = new RegExp(`[${Object.keys(SNIPPET_HTML).join('')}]`, 'g');

/**
 * An engine's marked snippet as HTML: everything escaped, the marks as `<mark>` elements, in one
 * pass and one string rather than one a step.
 */
export function snippetHtml(marked: string): string {
  return marked.replace(SNIPPET_SPECIALS, (char) => SNIPPET_HTML[char]!);
}
