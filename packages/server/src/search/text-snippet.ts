import type { SearchQuery } from '@loupe/contract';
import { stemmer } from 'stemmer';
import { foldedWord } from './search-words.ts';
import { MARK_END, MARK_START } from './snippet-html.ts';
import { TokenReader, tokensOf } from './unicode61-tokens.ts';

/**
 * Snippets made here from a page's text rather than by FTS5's snippet(), which tokenizes the
 * page and scores fragments for every match inside SQLite: 0.1 to 0.3 ms a page, most of a
 * query's time once its ranking is read from the word lists. The matching is FTS5's own: the
 * tokens of unicode61 (letters, digits and private-use characters; diacritics removed) under
 * the Porter stemmer, which `stemmer` implements as SQLite does (it stemmed the 18,512 words of
 * the PostgreSQL manual alike).
 */

/** Tokens a snippet holds, as snippet(…, 30) was asked for. */
const SNIPPET_TOKENS = 30;
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
  /** The stems' sure prefixes, by which a token is stemmed or passed over (prefixesByFirst). */
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
  return { phrases, groupOf, groups, prefixes: prefixesByFirst(phrases) };
}

interface Match {
  /** The first and past-the-last token of the match. */
  from: number;
  to: number;
  phrase: number;
}

const lower = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

/**
 * What the stem of a word is sure to start with: the Porter stemmer rewrites only a word's end,
 * and keeps all but the last two letters of the stem it makes, and always its first (ties →
 * ti, relational → relat, sensibility → sensibl, says → sai). Checked on the 22,092 words of
 * the package documentation here and on 250,463 words made of every suffix Porter knows; a
 * token that does not start so is not stemmed.
 */
const surePrefix = (stem: string) => stem.slice(0, Math.max(1, stem.length - 2));

/** The wanted stems' sure prefixes by their first character (ASCII); `any`: a prefix not in ASCII makes every token a candidate. */
interface Prefixes {
  byFirst: (string[] | undefined)[];
  any: boolean;
}

function prefixesByFirst(phrases: StemmedPhrase[]): Prefixes {
  const byFirst: (string[] | undefined)[] = new Array(128);
  let any = false;
  for (const stem of phrases.flat()) {
    const prefix = surePrefix(stem);
    const first = prefix.charCodeAt(0);
    if (!(first < 128) || /[^\0-\x7f]/.test(prefix)) any = true;
    else (byFirst[first] ??= []).push(prefix);
  }
  return { byFirst, any };
}

/** Whether the token may stem to a wanted stem: it starts with one's sure prefix, or has letters beyond ASCII there (folding decides). */
function mayMatch(text: string, start: number, end: number, byFirst: (string[] | undefined)[]): boolean {
  const first = text.charCodeAt(start);
  if (first >= 128) return true;
  const prefixes = byFirst[lower(first)];
  if (!prefixes) return false;
  next: for (const prefix of prefixes) {
    if (end - start < prefix.length) continue;
    for (let k = 1; k < prefix.length; k++) {
      const code = text.charCodeAt(start + k);
      if (code >= 128) return true;
      if (lower(code) !== prefix.charCodeAt(k)) continue next;
    }
    return true;
  }
  return false;
}

/**
 * Where the phrases stand in the tokens, found token by token as they are read. Only a token
 * that may stem to a wanted stem is stemmed (mayMatch), so a page costs one pass over its
 * characters and a few stems.
 */
class PhraseMatcher {
  readonly matches: Match[] = [];
  /** Tokens looked at so far. */
  matched = 0;
  readonly #tokens: TokenReader;
  readonly #wanted: WantedPhrases;
  readonly #stems = new Map<number, string>();
  /** The latest start of a match of each group, −1 before its first. */
  readonly #lastStart: Int32Array;

  constructor(tokens: TokenReader, wanted: WantedPhrases) {
    this.#tokens = tokens;
    this.#wanted = wanted;
    this.#lastStart = new Int32Array(wanted.groups).fill(-1);
  }

  /**
   * Looks at the next token (read already); the span of the matches it ends that shows a phrase
   * of every group within SNIPPET_TOKENS tokens, if there is one now.
   */
  next(): { from: number; to: number } | undefined {
    const at = this.matched++;
    const text = this.#tokens.text;
    const start = this.#tokens.starts[at];
    const end = this.#tokens.ends[at];
    const { phrases, groupOf, prefixes } = this.#wanted;
    if (!prefixes.any && !mayMatch(text, start, end, prefixes.byFirst)) return undefined;
    const stem = stemOf(text.slice(start, end));
    this.#stems.set(at, stem);
    let ended = false;
    for (let p = 0; p < phrases.length; p++) {
      const phrase = phrases[p];
      const from = at - phrase.length + 1;
      if (phrase.length === 0 || from < 0 || phrase[phrase.length - 1] !== stem) continue;
      if (!phrase.every((wanted, k) => this.#stems.get(from + k) === wanted)) continue;
      this.matches.push({ from, to: at + 1, phrase: p });
      this.#lastStart[groupOf[p]] = Math.max(this.#lastStart[groupOf[p]], from);
      ended = true;
    }
    if (!ended) return undefined;
    let earliest = at;
    for (const start of this.#lastStart) earliest = Math.min(earliest, start);
    return earliest >= 0 && at + 1 - earliest <= SNIPPET_TOKENS ? { from: earliest, to: at + 1 } : undefined;
  }

  /** The matches in the order they start. */
  inOrder(): Match[] {
    return this.matches.sort((a, b) => a.from - b.from || a.phrase - b.phrase);
  }
}

/** SNIPPET_TOKENS tokens with the span centred in them, as far as the text allows. */
function centred(span: { from: number; to: number }, tokenCount: number): { from: number; to: number } {
  const from = Math.max(0, Math.min(span.from - Math.floor((SNIPPET_TOKENS - (span.to - span.from)) / 2), tokenCount - SNIPPET_TOKENS));
  return { from, to: Math.min(tokenCount, from + SNIPPET_TOKENS) };
}

/**
 * The best window of SNIPPET_TOKENS tokens of a text where no window shows every group: the
 * most distinct phrases, then the most matches, then the earliest; its matches centred in it.
 */
function bestWindow(matches: Match[], tokenCount: number): { from: number; to: number } {
  if (matches.length === 0) return { from: 0, to: Math.min(tokenCount, SNIPPET_TOKENS) };
  let best = { score: -1, first: 0, last: 0 };
  const counts = new Map<number, number>();
  let end = 0;
  for (let first = 0; first < matches.length; first++) {
    while (end < matches.length && matches[end].to <= matches[first].from + SNIPPET_TOKENS) {
      counts.set(matches[end].phrase, (counts.get(matches[end].phrase) ?? 0) + 1);
      end++;
    }
    const score = counts.size * 1000 + (end - first);
    if (score > best.score) best = { score, first, last: end - 1 };
    const leaving = matches[first].phrase;
    const left = (counts.get(leaving) ?? 1) - 1;
    if (left === 0) counts.delete(leaving);
    else counts.set(leaving, left);
  }
  const from = matches[best.first].from;
  return centred({ from, to: Math.max(matches[best.last].to, from + 1) }, tokenCount);
}

/**
 * About SNIPPET_TOKENS tokens of the text around its best matches, the matches between
 * MARK_START and MARK_END. The best is the first window showing a phrase of every required
 * group (the reading stops there, a window's length on); a text with no such window is read to
 * its end for the window with the most (bestWindow).
 */
export function markedSnippet(text: string, wanted: WantedPhrases): string {
  const tokens = new TokenReader(text, 256);
  const matcher = new PhraseMatcher(tokens, wanted);
  let window: { from: number; to: number } | undefined;
  while (tokens.readUpTo(matcher.matched + 1)) {
    const span = matcher.next();
    if (span) {
      // One token past the window tells whether the text goes on after it.
      tokens.readUpTo(span.from + SNIPPET_TOKENS + 1);
      window = centred(span, tokens.count);
      while (matcher.matched < window.to) matcher.next();
      break;
    }
  }
  if (tokens.count === 0) return '';
  const matches = matcher.inOrder();
  window ??= bestWindow(matches, tokens.count);
  const { starts, ends } = tokens;
  let out = window.from > 0 ? ELLIPSIS : '';
  let at = starts[window.from];
  for (const match of matches) {
    if (match.from < window.from || match.to > window.to || starts[match.from] < at) continue;
    out += text.slice(at, starts[match.from]) + MARK_START + text.slice(starts[match.from], ends[match.to - 1]) + MARK_END;
    at = ends[match.to - 1];
  }
  out += text.slice(at, ends[window.to - 1]);
  return window.to < tokens.count ? out + ELLIPSIS : out;
}
