import type { SearchQuery } from '@loupe/contract';
import { stemmer } from 'stemmer';
import { foldedWord } from './search-words.ts';
import { MARK_END, MARK_START } from './snippet-html.ts';
import { isTokenCharacter, nextTokenStart, previousTokenEnd, tokenEnd, tokensOf, tokenStart } from './unicode61-tokens.ts';

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
  return { list, any: list.some((prefix) => /[^\0-\x7f]/.test(prefix)) };
}

/** Token characters beyond ASCII: a token holding one is stemmed whatever it starts with (folding decides). */
const NON_ASCII_TOKEN_CHARACTERS = /[[\p{L}\p{N}\p{Co}\p{M}]--[\0-\x7f]]/gv;

/** The text in lower case, each character where it stands (toLowerCase lengthens a few, İ for one: then ASCII's alone). */
function lowerCased(text: string): string {
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** A token of the text that stems to a wanted stem. */
interface StemHit {
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
    NON_ASCII_TOKEN_CHARACTERS.lastIndex = 0;
    for (let found = NON_ASCII_TOKEN_CHARACTERS.exec(text); found; found = NON_ASCII_TOKEN_CHARACTERS.exec(text)) {
      starts.push(tokenStart(text, found.index));
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
interface Match {
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
 * Where the stem hits stand in tokens, counted from the first hit: exactly while they are
 * within a snippet's length of each other, and as a snippet's length apart beyond (no window
 * holds both; the tokens between are not counted). Worked out as far as asked, from the start.
 */
class HitPlaces {
  readonly #text: string;
  readonly #hits: StemHit[];
  readonly #places: number[] = [];

  constructor(text: string, hits: StemHit[]) {
    this.#text = text;
    this.#hits = hits;
  }

  of(hit: number): number {
    const places = this.#places;
    for (let i = places.length; i <= hit; i++) {
      places.push(i === 0 ? 0 : places[i - 1] + 1 + this.#tokensBetween(this.#hits[i - 1].end, this.#hits[i].start));
    }
    return places[hit];
  }

  /** The tokens starting in [from, to), or SNIPPET_TOKENS when there are that many or more. */
  #tokensBetween(from: number, to: number): number {
    let count = 0;
    for (let at = nextTokenStart(this.#text, from); at < to && count < SNIPPET_TOKENS; at = nextTokenStart(this.#text, tokenEnd(this.#text, at))) count++;
    return count;
  }
}

/** A run of tokens: where its first starts and its last ends, and how many it holds. */
interface Span {
  start: number;
  end: number;
  tokens: number;
}

/** The span of matches first … last. */
function spanOf(hits: StemHit[], places: HitPlaces, first: Match, last: Match): Span {
  return { start: hits[first.first].start, end: hits[last.last].end, tokens: places.of(last.last) + 1 - places.of(first.first) };
}

/**
 * The first span within SNIPPET_TOKENS tokens showing a phrase of every required group, the
 * matches taken in the order they end; undefined when the text has none.
 */
function firstCoveringSpan(matches: Match[], hits: StemHit[], places: HitPlaces, { groupOf, groups }: WantedPhrases): Span | undefined {
  const byEnd = [...matches].sort((a, b) => a.last - b.last || a.first - b.first);
  const latest: (Match | undefined)[] = new Array(groups);
  for (const match of byEnd) {
    const group = groupOf[match.phrase];
    if ((latest[group]?.first ?? -1) <= match.first) latest[group] = match;
    let earliest: Match | undefined = match;
    for (const shown of latest) {
      if (!shown) {
        earliest = undefined;
        break;
      }
      if (shown.first < earliest.first) earliest = shown;
    }
    if (earliest && places.of(match.last) + 1 - places.of(earliest.first) <= SNIPPET_TOKENS) return spanOf(hits, places, earliest, match);
  }
  return undefined;
}

/**
 * Where no span shows every group: the SNIPPET_TOKENS tokens with the most distinct phrases,
 * then the most matches, then the earliest.
 */
function bestSpan(matches: Match[], hits: StemHit[], places: HitPlaces): Span {
  let best = { score: -1, first: 0, last: 0 };
  const counts = new Map<number, number>();
  let end = 0;
  for (let first = 0; first < matches.length; first++) {
    const limit = places.of(matches[first].first) + SNIPPET_TOKENS;
    while (end < matches.length && places.of(matches[end].last) + 1 <= limit) {
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
  return spanOf(hits, places, matches[best.first], matches[Math.max(best.first, best.last)]);
}

/** Tokens walked from a span's start backwards: where the earliest reached starts, and how many there were (fewer at the text's start). */
function walkBack(text: string, from: number, tokens: number): { at: number; walked: number } {
  let at = from;
  let walked = 0;
  for (; walked < tokens; walked++) {
    const end = previousTokenEnd(text, at);
    if (end === 0) break;
    at = tokenStart(text, end - 1);
  }
  return { at, walked };
}

/** Tokens walked from a span's end onwards: where the last reached ends, and how many there were (fewer at the text's end). */
function walkOn(text: string, from: number, tokens: number): { at: number; walked: number } {
  let at = from;
  let walked = 0;
  for (; walked < tokens; walked++) {
    const start = nextTokenStart(text, at);
    if (start === text.length) break;
    at = tokenEnd(text, start);
  }
  return { at, walked };
}

/** SNIPPET_TOKENS tokens with the span centred in them, as far as the text allows: where they start and end. */
function centred(text: string, span: Span): { start: number; end: number } {
  const room = Math.max(0, SNIPPET_TOKENS - span.tokens);
  const before = walkBack(text, span.start, Math.floor(room / 2));
  const after = walkOn(text, span.end, room - before.walked);
  const more = walkBack(text, before.at, room - before.walked - after.walked);
  return { start: more.at, end: after.at };
}

/**
 * About SNIPPET_TOKENS tokens of the text around its best matches, the matches between
 * MARK_START and MARK_END. The best is the first window showing a phrase of every required
 * group; in a text with no such window, the one with the most (bestSpan); in a text with no
 * match (a page found by its title), its first tokens.
 */
export function markedSnippet(text: string, wanted: WantedPhrases): string {
  const hits = stemHits(text, wanted);
  const matches = matchesOf(text, hits, wanted);
  const places = new HitPlaces(text, hits);
  let window: { start: number; end: number };
  if (matches.length > 0) window = centred(text, firstCoveringSpan(matches, hits, places, wanted) ?? bestSpan(matches, hits, places));
  else {
    const start = nextTokenStart(text, 0);
    if (start === text.length) return '';
    window = { start, end: walkOn(text, start, SNIPPET_TOKENS).at };
  }
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
