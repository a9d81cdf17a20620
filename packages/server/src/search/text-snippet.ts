import type { SearchQuery } from '@loupe/contract';
import { stemmer } from 'stemmer';
import { foldedWord } from './search-words.ts';
import { MARK_END, MARK_START } from './snippet-html.ts';
import { snippetWindow } from './snippet-window.ts';
import { isTokenCharacter, nextTokenStart, previousTokenEnd, tokenEnd, tokensOf, tokenStart } from './unicode61-tokens.ts';

/**
 * Snippets made here from a page's text rather than by FTS5's snippet(), which tokenizes the
 * page and scores fragments for every match inside SQLite: 0.1 to 0.3 ms a page, most of a
 * query's time once its ranking is read from the word lists. The matching is FTS5's own: the
 * tokens of unicode61 (letters, digits and private-use characters; diacritics removed) under
 * the Porter stemmer, which `stemmer` implements as SQLite does (it stemmed the 18,512 words of
 * the PostgreSQL manual alike).
 */

const ELLIPSIS = '…';

/** A term as FTS5 matches it: the stems of its words in order (one for a word, more for a phrase). */
export type StemmedPhrase = string[];

/** Stems of words met lately: a page says its common words many times, and pages share them. */
const stems = new Map<string, string>();
const STEMS_KEPT = 50_000;

/** The stem FTS5 indexes a word under. */
export function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= STEMS_KEPT) stems.clear();
    stem = stemmer(foldedWord(word));
    stems.set(word, stem);
  }
  return stem;
}

/** What a query's snippets mark, made once for all its hits. */
export interface WantedPhrases {
  phrases: StemmedPhrase[];
  /**
   * The required group of each phrase, numbered among the groups that can match (−1: a phrase
   * of no token): a window showing a phrase of every group is as good as a snippet gets.
   */
  groupOf: number[];
  groups: number;
  /** The distinct stems of every phrase. */
  stems: Set<string>;
  /** The stems' sure prefixes, by which a token is stemmed or passed over (surePrefixes). */
  prefixes: Prefixes;
}

/** What a snippet marks: the wanted terms of the query (an excluded one is in no hit). */
export function wantedPhrases(query: SearchQuery): WantedPhrases {
  const phrases: StemmedPhrase[] = [];
  const groupOf: number[] = [];
  let groups = 0;
  for (const group of query.required) {
    let matchable = false;
    for (const term of group) {
      const tokens = tokensOf(term.text);
      phrases.push(Array.from({ length: tokens.count }, (_, i) => stemOf(term.text.slice(tokens.starts[i], tokens.ends[i]))));
      groupOf.push(tokens.count > 0 ? groups : -1);
      matchable ||= tokens.count > 0;
    }
    if (matchable) groups++;
  }
  return { phrases, groupOf, groups, stems: new Set(phrases.flat()), prefixes: surePrefixes(phrases) };
}

/**
 * What the stem of a word is sure to start with: the Porter stemmer rewrites only a word's end,
 * and keeps all but the last two letters of the stem it makes, and always its first (ties →
 * ti, relational → relat, sensibility → sensibl, says → sai). Checked on the 22,092 words of
 * the package documentation here and on 250,463 words made of every suffix Porter knows; a
 * token that does not start so is not stemmed.
 */
const surePrefix = (stem: string) => stem.slice(0, Math.max(1, stem.length - 2));

/** The wanted stems' distinct sure prefixes; `any`: one is not ASCII, which makes every token a candidate. */
interface Prefixes {
  list: string[];
  any: boolean;
}

function surePrefixes(phrases: StemmedPhrase[]): Prefixes {
  const list = [...new Set(phrases.flat().map(surePrefix))];
  return { list, any: !list.every(isAscii) };
}

/**
 * Whether every character of the text is ASCII: its UTF-8 takes a byte a character (any other
 * takes two or more). Most pages are, and are then not searched for NON_ASCII_TOKEN_CHARACTERS:
 * 0.6 µs for a page of 4.4 KB, where the search takes 2.6.
 */
const isAscii = (text: string) => Buffer.byteLength(text, 'utf8') === text.length;

/** Token characters beyond ASCII: a token holding one is stemmed whatever it starts with (folding decides). */
const NON_ASCII_TOKEN_CHARACTERS = /[[\p{L}\p{N}\p{Co}\p{M}]--[\0-\x7f]]/gv;

/** The text in lower case, each character where it stands (toLowerCase lengthens a few, İ for one: then ASCII's alone). */
function lowerCased(text: string): string {
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** A token of the text that stems to a wanted stem. */
export interface StemHit {
  start: number;
  end: number;
  stem: string;
}

/**
 * The tokens stemming to a wanted stem, in order. Only a token that starts with a wanted stem's
 * sure prefix (found by indexOf in the lower-cased text, a fraction of a nanosecond a
 * character) or holds a letter beyond ASCII is stemmed; the rest of the text is never read a
 * character at a time.
 */
function stemHits(text: string, { stems, prefixes }: WantedPhrases): StemHit[] {
  const starts: number[] = [];
  if (prefixes.any) {
    for (let at = nextTokenStart(text, 0); at < text.length; at = nextTokenStart(text, tokenEnd(text, at))) starts.push(at);
  } else {
    const lower = lowerCased(text);
    for (const prefix of prefixes.list) {
      for (let at = lower.indexOf(prefix); at >= 0; at = lower.indexOf(prefix, at + 1)) {
        if (at === 0 || !isTokenCharacter(text, at - 1)) starts.push(at);
      }
    }
    if (!isAscii(text)) {
      NON_ASCII_TOKEN_CHARACTERS.lastIndex = 0;
      for (let found = NON_ASCII_TOKEN_CHARACTERS.exec(text); found; found = NON_ASCII_TOKEN_CHARACTERS.exec(text)) {
        starts.push(tokenStart(text, found.index));
      }
    }
    starts.sort((a, b) => a - b);
  }
  const hits: StemHit[] = [];
  for (let i = 0; i < starts.length; i++) {
    if (i > 0 && starts[i] === starts[i - 1]) continue;
    const end = tokenEnd(text, starts[i]);
    const stem = stemOf(text.slice(starts[i], end));
    if (stems.has(stem)) hits.push({ start: starts[i], end, stem });
  }
  return hits;
}

/** A phrase where it stands: its first and last stem hits. */
export interface Match {
  first: number;
  last: number;
  phrase: number;
}

/** Each phrase wherever its stems stand one after another, in the order they start. */
function matchesOf(text: string, hits: StemHit[], { phrases }: WantedPhrases): Match[] {
  const matches: Match[] = [];
  for (let first = 0; first < hits.length; first++) {
    phrases: for (let p = 0; p < phrases.length; p++) {
      const phrase = phrases[p];
      if (phrase.length === 0 || phrase[0] !== hits[first].stem) continue;
      for (let k = 1; k < phrase.length; k++) {
        const hit = hits[first + k];
        if (!hit || hit.stem !== phrase[k] || hit.start !== nextTokenStart(text, hits[first + k - 1].end)) continue phrases;
      }
      matches.push({ first, last: first + phrase.length - 1, phrase: p });
    }
  }
  return matches;
}

/**
 * About SNIPPET_TOKENS tokens of the text around its best matches (snippet-window.ts), the
 * matches between MARK_START and MARK_END.
 */
export function markedSnippet(text: string, wanted: WantedPhrases): string {
  const hits = stemHits(text, wanted);
  const matches = matchesOf(text, hits, wanted);
  const window = snippetWindow(text, hits, matches, wanted);
  if (!window) return '';
  let out = previousTokenEnd(text, window.start) > 0 ? ELLIPSIS : '';
  let at = window.start;
  for (const match of matches) {
    const from = hits[match.first].start;
    const to = hits[match.last].end;
    if (from < at || to > window.end) continue;
    out += text.slice(at, from) + MARK_START + text.slice(from, to) + MARK_END;
    at = to;
  }
  out += text.slice(at, window.end);
  return nextTokenStart(text, window.end) < text.length ? out + ELLIPSIS : out;
}
