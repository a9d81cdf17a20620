import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { SearchQuery } from '@loupe/contract';
import { readerProcedure } from '../../database/reader-procedure.ts';
import { statementsOf } from '../../database/statement-cache.ts';
import { decodeSharedList, encodeOrdinals, encodeScores, type PostingList, postingList } from '../postings/posting-list.ts';
import { bestDocuments } from '../postings/postings-ranking.ts';
import { rankedWindow } from '../ranked-window.ts';
import type { RankedWindow } from '../search-engine.ts';
import { markedSnippet } from '../snippets/text-snippet.ts';
import { fts5Expression } from './fts5-expression.ts';
import { wordKeysOf } from './search-words.ts';
import type { SharedLists } from './shared-word-lists.ts';
import { wantedPhrases } from './sqlite-snippet.ts';

/**
 * The reads of SQLite's search engine, as reader procedures (database/reader-procedure.ts): each
 * runs whole on a reader thread, in one read transaction (one snapshot of the index however
 * many statements), so a query's ranking, the lists it adds up and its snippets cost the event
 * loop one message.
 */

/** A generation's rowids are its number times this, plus its ordinals (migration 0014). */
export const SPAN = 4294967296;

/** One hit window, made for `limit` hits. */
export interface SearchWindow {
  offset: number;
  limit: number;
}

export interface ListSearchInput {
  projectId: string;
  query: SearchQuery;
  /** The query's words by key (search-words.ts): every term is one word. */
  words: { required: string[][]; excluded: string[] };
  window: SearchWindow;
  /** The lists of the query's words the event loop keeps (SharedWordLists), of whatever build they are. */
  lists: SharedLists;
}

/**
 * Answered from the lists; or the project has no ready build; or the lists cannot answer (FTS5
 * ranks). `read`: the lists read from the database, to keep.
 */
export type ListSearchResult =
  | { kind: 'answer'; window: RankedWindow; read: SharedLists }
  | { kind: 'not-built' }
  | { kind: 'fts5'; read: SharedLists };

export const SEARCH_BY_LISTS = readerProcedure<ListSearchInput, ListSearchResult>(import.meta.url, 'searchByLists');
export const SEARCH_BY_FTS5 = readerProcedure<{ projectId: string; query: SearchQuery; window: SearchWindow }, RankedWindow | undefined>(
  import.meta.url,
  'searchByFts5',
);
export const RANK_WORD = readerProcedure<{ base: number; word: string }, { matches: number; ordinals: Uint8Array; scores: Uint8Array }>(
  import.meta.url,
  'rankWord',
);
export const GENERATION = readerProcedure<{ buildId: string }, { base: number; documents: number } | undefined>(
  import.meta.url,
  'generation',
);
export const CANDIDATE_WORDS = readerProcedure<{ base: number; documents: number; threshold: number; sampled: number }, string[]>(
  import.meta.url,
  'candidateWords',
);

const prepared = (database: DatabaseSync, text: string) => statementsOf(database).get(text);

/** node:sqlite binds a JavaScript number as a real, and FTS5 compares its rowid with a real wrongly (`rowid = 2.0` matched rowid 1). */
const rowid = (value: number) => BigInt(value);

function inOneSnapshot<T>(database: DatabaseSync, read: () => T): T {
  database.exec('BEGIN');
  try {
    return read();
  } finally {
    database.exec('COMMIT');
  }
}

/** A word's matches in the generation, ranked by FTS5 (with their bm25 scores) or not. */
function matchesOf(database: DatabaseSync, base: number, word: string, ranked: boolean): PostingList {
  const rows = prepared(
    database,
    `SELECT rowid - ? AS ordinal, ${ranked ? '-rank' : '0'} AS score FROM search_documents
     WHERE search_documents MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rowid`,
  ).all(rowid(base), `"${word}"`, rowid(base), rowid(base + SPAN - 1)) as { ordinal: number; score: number }[];
  return postingList(
    Uint32Array.from(rows, (row) => row.ordinal),
    Float32Array.from(rows, (row) => row.score),
  );
}

/**
 * The window's hits, with their text made into snippets of the query's terms. Their columns are
 * read where the FTS5 table keeps them, its content table (search_documents_content: the rowid
 * as id, then the columns as c0, c1, … in their order, FTS5's documented layout), skipping the
 * virtual table's overhead.
 */
function hitsOf(database: DatabaseSync, query: SearchQuery, base: number, ranked: { ordinal: number; score: number }[]) {
  const rows = prepared(
    database,
    `SELECT hit.key AS n, d.c2 AS page_id, d.c3 AS url, d.c0 AS title, d.c1 AS body
     FROM json_each(?) AS hit CROSS JOIN search_documents_content d WHERE d.id = hit.value ORDER BY hit.key`,
  ).all(JSON.stringify(ranked.map((hit) => base + hit.ordinal))) as { page_id: string; url: string; title: string | null; body: string }[];
  const phrases = wantedPhrases(query);
  return rows.map((row, i) => ({
    pageId: row.page_id,
    url: row.url,
    title: row.title,
    markedSnippet: markedSnippet(row.body, phrases),
    score: ranked[i].score,
  }));
}

/** A word's stored list in a build's generation, decoded in shared memory; undefined when it has none (fewer pages than the threshold). */
function storedList(database: DatabaseSync, buildId: string, word: string): PostingList | undefined {
  const row = prepared(database, 'SELECT matches, ordinals, scores FROM search_word_postings WHERE build_id = ? AND word = ?').get(
    buildId,
    word,
  ) as { matches: number; ordinals: Uint8Array; scores: Uint8Array } | undefined;
  return row && decodeSharedList(row.ordinals, row.scores, row.matches);
}

export function searchByLists(database: DatabaseSync, input: ListSearchInput): ListSearchResult {
  const { projectId, query, words, window } = input;
  return inOneSnapshot(database, () => {
    const current = prepared(
      database,
      `SELECT b.id, b.report_id, g.number, l.threshold
       FROM search_builds b JOIN search_generations g ON g.build_id = b.id LEFT JOIN search_word_lists l ON l.build_id = b.id
       WHERE b.project_id = ? AND b.state = 'ready'`,
    ).get(projectId) as { id: string; report_id: string; number: number; threshold: number | null } | undefined;
    if (!current) return { kind: 'not-built' };
    if (current.threshold === null) return { kind: 'fts5', read: {} };
    const base = current.number * SPAN;
    const stored = new Map<string, PostingList>();
    const read: SharedLists = {};
    for (const word of new Set([...words.required.flat(), ...words.excluded])) {
      const lent = input.lists[word];
      const list = lent?.buildId === current.id ? lent.list : storedList(database, current.id, word);
      if (!list) continue;
      stored.set(word, list);
      if (list !== lent?.list) read[word] = { buildId: current.id, list };
    }
    // A group of words without lists is rarer than the threshold: FTS5 ranks its few matches.
    if (!words.required.every((group) => group.some((word) => stored.has(word)))) return { kind: 'fts5', read };
    const groups = words.required.map((group) => group.map((word) => stored.get(word) ?? matchesOf(database, base, word, true)));
    const excluded = words.excluded.map((word) => stored.get(word)?.ordinals ?? matchesOf(database, base, word, false).ordinals);
    const best = bestDocuments({ groups, excluded }, window.offset + window.limit + 1);
    const hits = hitsOf(database, query, base, best.slice(window.offset, window.offset + window.limit));
    return {
      kind: 'answer',
      window: { buildId: current.id, reportId: current.report_id, hits, more: best.length > window.offset + window.limit },
      read,
    };
  });
}

/**
 * FTS5 ranks the query's matches in the project's ready generation, one more than the window
 * to tell whether more follow; only the window's hits are read again, for their text. CROSS
 * JOIN keeps SQLite from turning either join around: FTS5 gets the generation's rowid range as
 * bounds to seek by (with a plain JOIN it reads the matches of every project's generation, then
 * drops the others'), and the second read seeks by rowid. The first row names the build.
 */
export function searchByFts5(
  database: DatabaseSync,
  input: { projectId: string; query: SearchQuery; window: SearchWindow },
): RankedWindow | undefined {
  const { projectId, query, window } = input;
  const parameters: SQLInputValue[] = [projectId, fts5Expression(query), window.limit + 1, window.offset, window.limit];
  const rows = prepared(
    database,
    `WITH current AS (
       SELECT b.id, b.report_id, g.number * ${SPAN} AS low, g.number * ${SPAN} + ${SPAN - 1} AS high
       FROM search_builds b JOIN search_generations g ON g.build_id = b.id
       WHERE b.project_id = ? AND b.state = 'ready'
     ),
     top AS (
       SELECT d.rowid AS rid, d.rank AS rank
       FROM current CROSS JOIN search_documents d
       WHERE d.search_documents MATCH ? AND d.rowid >= current.low AND d.rowid <= current.high
       ORDER BY d.rank, d.rowid
       LIMIT ? OFFSET ?
     ),
     numbered AS (SELECT rid, rank, row_number() OVER (ORDER BY rank, rid) AS n FROM top)
     SELECT 0 AS n, current.id AS build_id, current.report_id, NULL AS page_id, NULL AS url, NULL AS title, NULL AS body, NULL AS score
     FROM current
     UNION ALL
     SELECT numbered.n, NULL, NULL, d.page_id, d.url, d.title, CASE WHEN numbered.n <= ? THEN d.body END, -numbered.rank
     FROM numbered CROSS JOIN search_documents d WHERE d.rowid = numbered.rid
     ORDER BY 1`,
  ).all(...parameters) as {
    build_id: string | null;
    report_id: string | null;
    page_id: string;
    url: string;
    title: string | null;
    body: string | null;
    score: number;
  }[];
  const phrases = wantedPhrases(query);
  return rankedWindow(rows, window.limit, (row) => ({
    pageId: row.page_id,
    url: row.url,
    title: row.title,
    markedSnippet: markedSnippet(row.body ?? '', phrases),
    score: row.score,
  }));
}

/** A build's generation: its first rowid, and how many documents it holds (its ordinals run from 0 to that − 1). */
export function generation(database: DatabaseSync, input: { buildId: string }): { base: number; documents: number } | undefined {
  const row = prepared(database, 'SELECT number FROM search_generations WHERE build_id = ?').get(input.buildId) as
    | { number: number }
    | undefined;
  if (!row) return undefined;
  const base = row.number * SPAN;
  const { last } = prepared(database, 'SELECT max(rowid) AS last FROM search_documents WHERE rowid BETWEEN ? AND ?').get(
    rowid(base),
    rowid(base + SPAN - 1),
  ) as {
    last: number | null;
  };
  return { base, documents: last === null ? 0 : last - base + 1 };
}

/** A word's list for a build to store: its matches in the generation with FTS5's bm25, encoded. */
export function rankWord(database: DatabaseSync, input: { base: number; word: string }) {
  const { ordinals, scores } = matchesOf(database, input.base, input.word, true);
  return { matches: ordinals.length, ordinals: encodeOrdinals(ordinals), scores: encodeScores(scores) };
}

/**
 * The words likely on `threshold` documents or more, from the words of `sampled` documents
 * spread evenly over the generation: those seen on half the threshold's share of them or more.
 */
export function candidateWords(
  database: DatabaseSync,
  input: { base: number; documents: number; threshold: number; sampled: number },
): string[] {
  const { base, documents, threshold } = input;
  if (documents < threshold) return [];
  const step = Math.max(1, Math.floor(documents / input.sampled));
  const read = prepared(database, 'SELECT title, body FROM search_documents WHERE rowid = ?');
  const seen = new Map<string, number>();
  let sampled = 0;
  for (let ordinal = 0; ordinal < documents; ordinal += step) {
    const row = read.get(rowid(base + ordinal)) as { title: string | null; body: string } | undefined;
    if (!row) continue;
    sampled++;
    for (const word of wordKeysOf(`${row.title ?? ''} ${row.body}`)) seen.set(word, (seen.get(word) ?? 0) + 1);
  }
  const least = (threshold / documents) * sampled * 0.5;
  return [...seen]
    .filter(([, count]) => count >= least)
    .map(([word]) => word)
    .sort();
}
