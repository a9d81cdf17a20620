import type { Match, StemHit, WantedPhrases } from './text-snippet.ts';
import { nextTokenStart, previousTokenEnd, tokenEnd, tokenStart } from './unicode61-tokens.ts';

/**
 * Which stretch of a page its snippet shows, given where the query's phrases stand
 * (text-snippet.ts): SNIPPET_TOKENS tokens around the first window showing a phrase of every
 * required group; in a text with no such window, around the one with the most; in a text with no
 * match (a page found by its title), its first tokens. Tokens are counted only near the matches
 * and walked only around the window: a page is never tokenized whole.
 */

/** Tokens a snippet holds, as FTS5's snippet(…, 30) was asked for. */
export const SNIPPET_TOKENS = 30;

/** Where the window starts and ends in the text; undefined for a text without a token. */
export function snippetWindow(
  text: string,
  hits: StemHit[],
  matches: Match[],
  wanted: WantedPhrases,
): { start: number; end: number } | undefined {
  if (matches.length > 0) {
    const places = new HitPlaces(text, hits);
    return centred(text, firstCoveringSpan(matches, hits, places, wanted) ?? bestSpan(matches, hits, places));
  }
  const start = nextTokenStart(text, 0);
  return start === text.length ? undefined : { start, end: walkOn(text, start, SNIPPET_TOKENS).at };
}

/**
 * Where the stem hits stand in tokens, counted from the first hit: exactly while they are
 * within a snippet's length of each other, and a snippet's length apart or more beyond (no
 * window holds both, so the count between them stops there). Worked out as far as asked.
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
    for (
      let at = nextTokenStart(this.#text, from);
      at < to && count < SNIPPET_TOKENS;
      at = nextTokenStart(this.#text, tokenEnd(this.#text, at))
    )
      count++;
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
