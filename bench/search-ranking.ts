/**
 * Search ranking and snippets alone, over the word lists of an index the search bench kept: the
 * µs a query the ranking takes on the thread that runs it (a SQLite reader thread, PostgreSQL's
 * event loop or a ranking thread), every list already in memory, no HTTP; then the µs the
 * snippets of its hits take, their texts already read. What a change to either saves, measured
 * without the noise of twenty clients sharing two cores with the server. Run by hand,
 * once `BENCH_KEEP_DIR=dir node_modules/.bin/node bench/search.ts` has kept an index:
 *
 *   BENCH_KEEP_DIR=dir node_modules/.bin/node bench/search-ranking.ts
 *
 *   BENCH_DIALECTS  sqlite, postgres or both (default both; each needs its kept index)
 *   BENCH_QUERIES   queries in the mix (default 2000)
 *   BENCH_ROUNDS    timed rounds of the whole mix (default 4, after one untimed)
 *
 * The mix: words of the index's lists, by rank of frequency spread evenly over its logarithm
 * from 50 to 10,000 as the search bench draws them, alone (40%), two (35%), three (12%), one
 * less another (8%), two ORed (5%); only queries every list of which is stored. Each round
 * prints its µs a query and a checksum of the answers (for snippets, of their text): a change
 * that keeps the answers keeps it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import { parseSearchQuery, type SearchQuery } from '../packages/contract/src/index.ts';
import { openPostgresDatabase } from '../packages/server/src/database/postgres-database.ts';
import { excludedPhrases, PostgresQueryTerms, requiredPhrases } from '../packages/server/src/search/postgres/postgres-query-terms.ts';
import { wantedLexemes } from '../packages/server/src/search/postgres/postgres-snippet.ts';
import { PostgresWordPostings } from '../packages/server/src/search/postgres/postgres-word-postings.ts';
import type { PositionalList } from '../packages/server/src/search/postings/positional-list.ts';
import { bestMatches, type PositionalQuery } from '../packages/server/src/search/postings/positional-ranking.ts';
import { decodeOrdinals, decodeScores, type PostingList, postingList } from '../packages/server/src/search/postings/posting-list.ts';
import { bestDocuments, type ListQuery } from '../packages/server/src/search/postings/postings-ranking.ts';
import { MARK_START, withAngleBrackets } from '../packages/server/src/search/snippets/snippet-html.ts';
import { markedSnippet } from '../packages/server/src/search/snippets/text-snippet.ts';
import { wordKey } from '../packages/server/src/search/sqlite/search-words.ts';
import { SPAN } from '../packages/server/src/search/sqlite/sqlite-search-reads.ts';
import { wantedPhrases } from '../packages/server/src/search/sqlite/sqlite-snippet.ts';
import { mulberry32 } from '../packages/server/src/testing/seeded-random.ts';
import { runBench, wholeNumberSetting } from './bench-kit.ts';

const SETTINGS = {
  keepDir: process.env.BENCH_KEEP_DIR,
  dialects: (process.env.BENCH_DIALECTS || 'sqlite,postgres').split(',').map((d) => d.trim()),
  queries: wholeNumberSetting('BENCH_QUERIES', 2000, 10, 100_000),
  rounds: wholeNumberSetting('BENCH_ROUNDS', 4, 1, 100),
};
/** Hits a query ranks: a page of ten, and one more to tell whether more follow (as search does). */
const COUNT = 11;

/** Query texts over `words` (most frequent first). */
function queryTexts(words: string[]): string[] {
  const random = mulberry32(7);
  const [low, high] = [Math.log(50), Math.log(Math.min(10_000, words.length))];
  const pick = () => words[Math.min(words.length - 1, Math.floor(Math.exp(low + random() * (high - low))))];
  return Array.from({ length: SETTINGS.queries }, () => {
    const r = random();
    if (r < 0.4) return pick();
    if (r < 0.75) return `${pick()} ${pick()}`;
    if (r < 0.87) return `${pick()} ${pick()} ${pick()}`;
    return r < 0.95 ? `${pick()} -${pick()}` : `${pick()} OR ${pick()}`;
  });
}

function parsed(text: string): SearchQuery {
  const answer = parseSearchQuery(text);
  if (!answer.ok) throw new Error(`${text}: ${answer.message}`);
  return answer.query;
}

/** Times `answer` over every query, round after round, with the checksum `sum` makes of its answers. */
function timeRounds<Q, A>(what: string, queries: Q[], answer: (query: Q) => A, sum: (answer: A) => number): void {
  for (let round = 0; round <= SETTINGS.rounds; round++) {
    const t0 = performance.now();
    let checksum = 0;
    for (const query of queries) checksum += sum(answer(query));
    const us = ((performance.now() - t0) * 1000) / queries.length;
    if (round > 0) console.log(`${what}: ${us.toFixed(1)} µs a query over ${queries.length} queries (answers ${checksum.toFixed(4)})`);
  }
}

const sumOfHits = (hits: { ordinal: number; score: number }[]) => hits.reduce((sum, hit) => sum + hit.ordinal + hit.score, 0);
const sumOfSnippets = (snippets: string[]) => snippets.reduce((sum, snippet) => sum + snippet.length + snippet.split(MARK_START).length, 0);

function sqliteRanking(dataDir: string): void {
  const database = new DatabaseSync(join(dataDir, 'loupe.db'), { readOnly: true });
  const rows = database
    .prepare(
      `SELECT p.word, p.matches, p.ordinals, p.scores FROM search_word_postings p JOIN search_builds b ON b.id = p.build_id WHERE b.state = 'ready'`,
    )
    .all() as { word: string; matches: number; ordinals: Uint8Array; scores: Uint8Array }[];
  const { number } = database
    .prepare(`SELECT g.number FROM search_generations g JOIN search_builds b ON b.id = g.build_id WHERE b.state = 'ready'`)
    .get() as { number: number };
  const base = number * SPAN;
  const readBodies = database.prepare(
    'SELECT d.c1 AS body FROM json_each(?) AS hit CROSS JOIN search_documents_content d WHERE d.id = hit.value ORDER BY hit.key',
  );
  const lists = new Map<string, PostingList>(
    rows.map((row) => [
      row.word,
      postingList(decodeOrdinals(row.ordinals, row.matches), decodeScores(Uint8Array.from(row.scores), row.matches)),
    ]),
  );
  const words = rows.sort((a, b) => b.matches - a.matches).map((row) => row.word);
  const listOf = (text: string) => lists.get(wordKey(text) ?? '');
  const queries: { text: string; ranked: ListQuery }[] = [];
  for (const text of queryTexts(words)) {
    const query = parsed(text);
    const groups = query.required.map((group) => group.map((term) => listOf(term.text)));
    const excluded = query.excluded.map((term) => listOf(term.text));
    if (groups.flat().includes(undefined) || excluded.includes(undefined)) continue;
    queries.push({
      text,
      ranked: { groups: groups as PostingList[][], excluded: (excluded as PostingList[]).map((list) => list.ordinals) },
    });
  }
  timeRounds('sqlite ranking', queries, ({ ranked }) => bestDocuments(ranked, COUNT), sumOfHits);
  const shown = queries.map(({ text, ranked }) => {
    const window = bestDocuments(ranked, COUNT).slice(0, COUNT - 1);
    const bodies = readBodies.all(JSON.stringify(window.map((hit) => base + hit.ordinal))) as { body: string }[];
    return { text, bodies: bodies.map((row) => row.body) };
  });
  database.close();
  timeRounds(
    'sqlite snippets',
    shown,
    ({ text, bodies }) => {
      const wanted = wantedPhrases(parsed(text));
      return bodies.map((body) => markedSnippet(body, wanted));
    },
    sumOfSnippets,
  );
}

async function postgresRanking(dataDir: string): Promise<void> {
  const { databaseUrl } = JSON.parse(readFileSync(join(dataDir, 'loupe-bench.json'), 'utf8')) as { databaseUrl: string };
  const database = openPostgresDatabase({ url: databaseUrl });
  const queries: { query: PositionalQuery; lists: Map<string, PositionalList> }[] = [];
  const shown: { query: PositionalQuery; bodies: string[] }[] = [];
  try {
    const db = database.db;
    const { rows: builds } = await sql<{ id: string }>`SELECT id FROM search_builds WHERE state = 'ready'`.execute(db);
    const buildId = builds[0].id;
    // Room for every list: the ranking, not the reading, is timed.
    const postings = new PostgresWordPostings(database, { cacheBytes: 2 ** 32 });
    const terms = new PostgresQueryTerms(database);
    const stats = (await postings.lists(buildId))?.stats;
    if (!stats) throw new Error('the kept PostgreSQL index has no word lists');
    const { rows } = await sql<{ word: string }>`
      SELECT word FROM search_word_postings WHERE build_id = ${buildId} GROUP BY word ORDER BY sum(matches) DESC`.execute(db);
    for (const text of queryTexts(rows.map((row) => row.word))) {
      const query = parsed(text);
      const readings = await terms.read([...query.required.flat(), ...query.excluded]);
      if ([...readings.values()].some((reading) => typeof reading !== 'object')) continue;
      const positional = { groups: requiredPhrases(query, readings), excluded: excludedPhrases(query, readings) };
      const found = await postings.listsOf(buildId, [
        ...new Set([...positional.groups.flat(), ...positional.excluded].flatMap((term) => term.lexemes)),
      ]);
      if ([...found.values()].includes(undefined)) continue;
      const lists = found as Map<string, PositionalList>;
      queries.push({ query: positional, lists });
      const window = bestMatches(positional, lists, stats, COUNT).slice(0, COUNT - 1);
      const { rows: texts } = await sql<{ body: string }>`
        SELECT d.body FROM unnest(${window.map((hit) => hit.ordinal)}::int[]) WITH ORDINALITY AS h(ordinal, n)
        JOIN search_documents d ON d.build_id = ${buildId} AND d.ordinal = h.ordinal ORDER BY h.n`.execute(db);
      shown.push({ query: positional, bodies: texts.map((row) => withAngleBrackets(row.body)) });
    }
    timeRounds('postgres ranking', queries, ({ query, lists }) => bestMatches(query, lists, stats, COUNT), sumOfHits);
  } finally {
    await database.close();
  }
  timeRounds(
    'postgres snippets',
    shown,
    ({ query, bodies }) => {
      const wanted = wantedLexemes(query.groups);
      return bodies.map((body) => markedSnippet(body, wanted));
    },
    sumOfSnippets,
  );
}

async function main(): Promise<void> {
  if (!SETTINGS.keepDir) throw new Error('Set BENCH_KEEP_DIR to the directory the search bench kept its data in.');
  for (const dialect of SETTINGS.dialects) {
    const dataDir = join(SETTINGS.keepDir, dialect);
    if (dialect === 'sqlite') sqliteRanking(dataDir);
    else if (dialect === 'postgres') await postgresRanking(dataDir);
    else throw new Error(`BENCH_DIALECTS: ${dialect}?`);
  }
}

await runBench(main);
