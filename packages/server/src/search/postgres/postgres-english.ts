import { stem as porter2 } from 'porter2';
import type { LexemePhrase } from '../postings/positional-ranking.ts';
import { cachedStemmer } from '../snippets/text-snippet.ts';

/**
 * PostgreSQL's english text search configuration, computed in this process where it is sure to
 * agree: a word's lexeme, its stop words, and what phraseto_tsquery makes of a term of plain
 * words. The english configuration reads a word of letters through the english_stem dictionary:
 * in lower case, nothing if a stop word, else its Snowball English (Porter2) stem, which `porter2`
 * (MIT, no dependencies) computes as PostgreSQL 15 does. The search reads terms here only once
 * the database's own reading of englishSample() agreed (postgres-query-terms.ts), so a server
 * whose configuration differs is asked.
 */

/** The lexeme PostgreSQL's english configuration makes of a word that is not a stop word (a stop word has none: STOP_WORDS). */
export const lexemeOf = cachedStemmer((word) => porter2(word.toLowerCase()));

/** PostgreSQL's english stop words (share/tsearch_data/english.stop): they have no lexeme. */
const STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their ' +
    'theirs themselves what which who whom this that these those am is are was were be been being have has had having do does did doing a an the ' +
    'and but if or because as until while of at by for with about against between into through during before after above below to from up down in ' +
    'out on off over under again further then once here there when where why how all any both each few more most other some such no nor not only own ' +
    'same so than too very s t can will just don should now'
  ).split(' '),
);

const isStopWord = (word: string) => STOP_WORDS.has(word.toLowerCase());

/**
 * A term PostgreSQL's parser reads as words of ASCII letters alone (asciiword tokens), one or
 * more spaces between them: nothing else it reads (hyphens, digits, apostrophes, host names,
 * letters beyond ASCII) is to be computed here.
 */
const PLAIN_TERM = /^[A-Za-z]+(?: +[A-Za-z]+)*$/;

/**
 * What phraseto_tsquery('english', term) reads a term of plain words as: the lexemes of its words
 * that are not stop words, each at its word's distance from the first (a stop word between two
 * keeps its place: "lamp of oil" is 'lamp' <2> 'oil'); null when they are all stop words;
 * undefined when the term is not plain words.
 */
export function plainTermReading(term: string): LexemePhrase | null | undefined {
  if (!PLAIN_TERM.test(term)) return undefined;
  const lexemes: string[] = [];
  const offsets: number[] = [];
  let first: number | undefined;
  term.split(/ +/).forEach((word, position) => {
    if (isStopWord(word)) return;
    first ??= position;
    lexemes.push(lexemeOf(word));
    offsets.push(position - first);
  });
  return lexemes.length === 0 ? null : { lexemes, offsets };
}

/**
 * Words that take every path of the english_stem dictionary: every stop word and other common
 * words a longer stop list would hold, stems under every suffix Porter2 rewrites, its
 * exceptions, and a word of 256 letters (the longest a search term can hold). What the database
 * reads them as tells whether its english configuration is the one computed here.
 */
export function englishSample(): string[] {
  const stems = [
    'connect',
    'relat',
    'general',
    'happi',
    'hop',
    'run',
    'condition',
    'nation',
    'ration',
    'sens',
    'form',
    'electr',
    'activ',
    'adjust',
    'depend',
    'commun',
    'arsen',
    'lamp',
    'oil',
    'cri',
    'sky',
    'ski',
    'news',
    'bias',
  ];
  const endings = [
    '',
    's',
    'es',
    'ed',
    'ing',
    'ly',
    'y',
    'ies',
    'ied',
    'ness',
    'ful',
    'fulness',
    'ation',
    'ational',
    'izer',
    'ization',
    'ously',
    'iveness',
    'icity',
    'ical',
    'ement',
    'ment',
    'ent',
    'ism',
    'ate',
    'ity',
    'ous',
    'ive',
    'ize',
    'eed',
    'eedly',
    'ingly',
    'edly',
    'er',
    'est',
    'ance',
    'ence',
    'able',
    'ible',
    'ant',
    'al',
    'ic',
    'li',
    'alli',
    'entli',
    'logi',
  ];
  const exceptions = [
    'skis',
    'skies',
    'dying',
    'lying',
    'tying',
    'idly',
    'gently',
    'ugly',
    'early',
    'only',
    'singly',
    'news',
    'howe',
    'atlas',
    'cosmos',
    'bias',
    'andes',
    'inning',
    'outing',
    'canning',
    'herring',
    'earring',
    'proceed',
    'exceed',
    'succeed',
    'generously',
    'yelled',
    'consigned',
    'Running',
    'COMMUNITY',
  ];
  const common = [
    'also',
    'would',
    'could',
    'may',
    'might',
    'must',
    'shall',
    'us',
    'yet',
    'ever',
    'however',
    'although',
    'upon',
    'within',
    'without',
    'among',
    'whether',
    'one',
    'two',
    'like',
    'get',
    'go',
    'made',
    'many',
    'much',
    'well',
    'even',
    'back',
    'still',
    'way',
    'new',
    'said',
    'see',
    'since',
    'every',
    'never',
    'always',
    'let',
    'say',
    'via',
    'per',
    'thus',
    'hence',
    'therefore',
    'unto',
    'whose',
    'whom',
    'y',
    'll',
    're',
    've',
    'd',
    'm',
    'o',
    'ain',
    'aren',
    'couldn',
    'didn',
    'doesn',
    'hadn',
    'hasn',
    'haven',
    'isn',
    'ma',
    'mightn',
    'mustn',
    'needn',
    'shan',
    'shouldn',
    'wasn',
    'weren',
    'won',
    'wouldn',
  ];
  return [
    ...new Set([
      ...STOP_WORDS,
      ...common,
      ...stems.flatMap((stem) => endings.map((ending) => stem + ending)),
      ...exceptions,
      'lantern'.repeat(37).slice(0, 256),
    ]),
  ];
}
