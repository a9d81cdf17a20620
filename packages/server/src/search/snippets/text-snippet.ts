import { MARK_END, MARK_START } from './snippet-html.ts';
import { snippetWindow } from './snippet-window.ts';
import { isTokenCharacter, nextTokenStart, previousTokenEnd, tokenEnd, tokenStart } from './unicode61-tokens.ts';

/**
 * Snippets made here from a page's text rather than by the database (FTS5's snippet(),
 * ts_headline), which tokenizes the page and scores fragments for every match, most of a
 * query's time once its ranking is read from the word lists. The matching is the index's own:
 * the tokens of unicode61 (unicode61-tokens.ts) under the stems the engine gives
 * (`WantedPhrases.stem`): FTS5's Porter stems (sqlite/sqlite-snippet.ts), PostgreSQL's english
 * lexemes (postgres/postgres-snippet.ts).
 */

const ELLIPSIS = '…';

/** A term as the index matches it: the stems of its words in order (one for a word, more for a phrase). */
export type StemmedPhrase = string[];

/**
 * A stemmer whose stems of words met lately are kept: a page says its common words many times,
 * and pages share them.
 */
export function cachedStemmer(stem: (word: string) => string, capacity = 50_000): (word: string) => string {
  const stems = new Map<string, string>();
  return (word) => {
    let found = stems.get(word);
    if (found === undefined) {
      if (stems.size >= capacity) stems.clear();
      found = stem(word);
      stems.set(word, found);
    }
    return found;
  };
}

/** What a snippet marks, made once for all its hits. */
export interface WantedPhrases {
  phrases: StemmedPhrase[];
  /**
   * Where each stem of a phrase stands, in tokens from its first: 0, 1, 2… as FTS5 reads a
   * phrase; PostgreSQL's leave a gap for a stop word (postgres/postgres-snippet.ts).
   */
  offsets: number[][];
  /**
   * The required group of each phrase, numbered among the groups that can match (−1: a phrase
   * of no token): a window showing a phrase of every group is as good as a snippet gets.
   */
  groupOf: number[];
  groups: number;
  /** The distinct stems of every phrase. */
  stems: Set<string>;
  /** The stems' sure prefixes, by which a token is stemmed or passed over (prefixesOfWordsStemmedTo). */
  prefixes: Prefixes;
  /** The stem of a token of the text, as the index stems words. */
  stem: (token: string) => string;
  /**
   * Stems found as text rather than as a token's stem, in lower case: more than one token to
   * this tokenizer, as PostgreSQL's parser reads a host name or a number with a point.
   */
  literals: string[];
}

/** A term to mark: its stems, and where each stands in tokens from the first. */
export interface PhraseStems {
  stems: string[];
  offsets: number[];
}

/**
 * What a snippet marks, from each required group's terms: `stem` stems the text's tokens as the
 * index did the terms'; a term without a stem is in no window.
 */
export function wantedPhrasesFromStems(
  groupsOfTerms: PhraseStems[][],
  stem: (token: string) => string,
  literals: string[] = [],
): WantedPhrases {
  const phrases: StemmedPhrase[] = [];
  const offsets: number[][] = [];
  const groupOf: number[] = [];
  let groups = 0;
  for (const terms of groupsOfTerms) {
    let matchable = false;
    for (const term of terms) {
      phrases.push(term.stems);
      offsets.push(term.offsets);
      groupOf.push(term.stems.length > 0 ? groups : -1);
      matchable ||= term.stems.length > 0;
    }
    if (matchable) groups++;
  }
  const tokenStems = phrases.flat().filter((stem) => !literals.includes(stem));
  return { phrases, offsets, groupOf, groups, stems: new Set(tokenStems), prefixes: prefixesOf(tokenStems), stem, literals };
}

/**
 * What a word stemming to `stem` is sure to start with, in lower case: the stem but its last
 * letter. Both stemmers rewrite only a word's end, and never more of the stem they keep than its
 * last letter (happy → happi, sensibility → sensibl, says → sai); Porter2 (PostgreSQL's) has three
 * exceptions, dying, lying and tying (→ die, lie, tie). Checked on 2.4 million words made of every
 * suffix either knows on two- to four-letter roots (text-snippet.test.ts checks a share of them),
 * and Porter2's against PostgreSQL's (postgres/postgres-english.test.ts). A token starting with none of
 * them is not stemmed: the shorter the prefix, the more tokens are, and the slower a snippet.
 */
export function prefixesOfWordsStemmedTo(stem: string): string[] {
  const prefix = stem.slice(0, Math.max(1, stem.length - 1));
  return PORTER2_EXCEPTIONS.has(stem) ? [prefix, `${stem[0]}y`] : [prefix];
}

const PORTER2_EXCEPTIONS = new Set(['die', 'lie', 'tie']);

/** The wanted stems' distinct prefixes (prefixesOfWordsStemmedTo); `any`: one is not ASCII, which makes every token a candidate. */
interface Prefixes {
  list: string[];
  any: boolean;
}

function prefixesOf(stems: string[]): Prefixes {
  const list = [...new Set(stems.flatMap(prefixesOfWordsStemmedTo))];
  return { list, any: !list.every(isAscii) };
}

/**
 * Whether every character of the text is ASCII: its UTF-8 takes a byte a character (any other
 * takes two or more). Most pages are, and are then not searched for NON_ASCII_TOKEN_CHARACTERS,
 * a few times slower than this test.
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
 * The tokens stemming to a wanted stem, and the literals where they stand as whole tokens, in
 * order. Only a token that starts with a wanted stem's sure prefix (found by indexOf in the
 * lower-cased text, far faster than a walk) or holds a letter beyond ASCII is stemmed; the
 * rest of the text is never read a character at a time.
 */
function stemHits(text: string, { stems, prefixes, stem: stemOfToken, literals }: WantedPhrases): StemHit[] {
  const starts: number[] = [];
  let lower: string | undefined;
  if (prefixes.any) {
    for (let at = nextTokenStart(text, 0); at < text.length; at = nextTokenStart(text, tokenEnd(text, at))) starts.push(at);
  } else {
    lower = lowerCased(text);
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
    const stem = stemOfToken(text.slice(starts[i], end));
    if (stems.has(stem)) hits.push({ start: starts[i], end, stem });
  }
  if (literals.length === 0) return hits;
  lower ??= lowerCased(text);
  for (const literal of literals) {
    for (let at = lower.indexOf(literal); at >= 0; at = lower.indexOf(literal, at + 1)) {
      const end = at + literal.length;
      if ((at === 0 || !isTokenCharacter(text, at - 1)) && (end === text.length || !isTokenCharacter(text, end)))
        hits.push({ start: at, end, stem: literal });
    }
  }
  return hits.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** A phrase where it stands: its first and last stem hits. */
export interface Match {
  first: number;
  last: number;
  phrase: number;
}

/** Where the `count`-th token starting at or after `from` starts (count ≥ 1); the text's length past its last. */
function tokenStartAfter(text: string, from: number, count: number): number {
  let start = nextTokenStart(text, from);
  for (let walked = 1; walked < count && start < text.length; walked++) start = nextTokenStart(text, tokenEnd(text, start));
  return start;
}

/** Each phrase wherever its stems stand at their distances, in the order they start. */
function matchesOf(text: string, hits: StemHit[], { phrases, offsets }: WantedPhrases): Match[] {
  const matches: Match[] = [];
  for (let first = 0; first < hits.length; first++) {
    nextPhrase: for (let p = 0; p < phrases.length; p++) {
      const phrase = phrases[p];
      if (phrase.length === 0 || phrase[0] !== hits[first].stem) continue;
      let last = first;
      for (let k = 1; k < phrase.length; k++) {
        const start = tokenStartAfter(text, hits[last].end, offsets[p][k] - offsets[p][k - 1]);
        let next = last + 1;
        while (next < hits.length && (hits[next].start < start || (hits[next].start === start && hits[next].stem !== phrase[k]))) next++;
        if (next === hits.length || hits[next].start !== start) continue nextPhrase;
        last = next;
      }
      matches.push({ first, last, phrase: p });
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
