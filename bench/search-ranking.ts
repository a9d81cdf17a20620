/**
 * Search ranking alone, over the word lists of an index the search bench kept: the µs a query
 * the ranking takes on the thread that runs it (a SQLite reader thread, PostgreSQL's event
 * loop), every list already in memory, no HTTP, no snippet. What a change to the ranking saves,
 * measured without the noise of twenty clients sharing two cores with the server. Run by hand,
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
 * prints its µs a query and a checksum of the answers: a change that keeps the answers keeps it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import { parseSearchQuery, type SearchQuery } from '../packages/contract/src/index.ts';
import { openPostgresDatabase } from '../packages/server/src/database/postgres-database.ts';
import type { PositionalList } from '../packages/server/src/search/positional-list.ts';
import { bestMatches, type PositionalQuery } from '../packages/server/src/search/positional-ranking.ts';
import { decodeOrdinals, decodeScores, postingList, type PostingList } from '../packages/server/src/search/posting-list.ts';
import { bestDocuments, type ListQuery } from '../packages/server/src/search/postings-ranking.ts';
import { excludedPhrases, PostgresQueryTerms, requiredPhrases } from '../packages/server/src/search/postgres-query-terms.ts';
import { PostgresWordPostings } from '../packages/server/src/search/postgres-word-postings.ts';
import { wordKey } from '../packages/server/src/search/search-words.ts';
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

/** Times `rank` over every query, round after round, with a checksum of the ordinals and scores it answers. */
function timeRounds<Q>(dialect: string, queries: Q[], rank: (query: Q) => { ordinal: number; score: number }[]): void {
  for (let round = 0; round <= SETTINGS.rounds; round++) {
    const t0 = performance.now();
    let checksum = 0;
    for (const query of queries) for (const hit of rank(query)) checksum += hit.ordinal + hit.score;
    const us = ((performance.now() - t0) * 1000) / queries.length;
    if (round > 0) console.log(`${dialect}: ${us.toFixed(1)} µs a query over ${queries.length} queries (answers ${checksum.toFixed(4)})`);
  }
}

function sqliteRanking(dataDir: string): void {
  const database = new DatabaseSync(join(dataDir, 'loupe.db'), { readOnly: true });
  const rows = database.prepare(
    `SELECT p.word, p.matches, p.ordinals, p.scores FROM search_word_postings p JOIN search_builds b ON b.id = p.build_id WHERE b.state = 'ready'`,
  ).all() as { word: string; matches: number; ordinals: Uint8Array; scores: Uint8Array }[];
  database.close();
  const lists = new Map<string, PostingList>(
    rows.map((row) => [row.word, postingList(decodeOrdinals(row.ordinals, row.matches), decodeScores(Uint8Array.from(row.scores), row.matches))]),
  );
  const words = rows.sort((a, b) => b.matches - a.matches).map((row) => row.word);
  const listOf = (text: string) => lists.get(wordKey(text) ?? '');
  const queries: ListQuery[] = [];
  for (const text of queryTexts(words)) {
    const query = parsed(text);
    const groups = query.required.map((group) => group.map((term) => listOf(term.text)));
    const excluded = query.excluded.map((term) => listOf(term.text));
    if (groups.flat().includes(undefined) || excluded.includes(undefined)) continue;
    queries.push({ groups: groups as PostingList[][], excluded: (excluded as PostingList[]).map((list) => list.ordinals) });
  }
  timeRounds('sqlite', queries, (query) => bestDocuments(query, COUNT));
}

async function postgresRanking(dataDir: string): Promise<void> {
  const { databaseUrl } = JSON.parse(readFileSync(join(dataDir, 'loupe-bench.json'), 'utf8')) as { databaseUrl: string };
  const database = openPostgresDatabase({ url: databaseUrl });
  const queries: { query: PositionalQuery; lists: Map<string, PositionalList> }[] = [];
  let stats;
  try {
    const db = database.db;
    const { rows: builds } = await sql<{ id: string }>`SELECT id FROM search_builds WHERE state = 'ready'`.execute(db);
    const buildId = builds[0].id;
    // Room for every list: the ranking, not the reading, is timed.
    const postings = new PostgresWordPostings(database, { cacheBytes: 2 ** 32 });
    const terms = new PostgresQueryTerms(database);
    stats = (await postings.lists(buildId))?.stats;
    if (!stats) throw new Error('the kept PostgreSQL index has no word lists');
    const { rows } = await sql<{ word: string }>`
      SELECT word FROM search_word_postings WHERE build_id = ${buildId} GROUP BY word ORDER BY sum(matches) DESC`.execute(db);
    for (const text of queryTexts(rows.map((row) => row.word))) {
      const query = parsed(text);
      const readings = await terms.read([...query.required.flat(), ...query.excluded]);
      if ([...readings.values()].some((reading) => typeof reading !== 'object')) continue;
      const positional = { groups: requiredPhrases(query, readings), excluded: excludedPhrases(query, readings) };
      const found = await postings.listsOf(buildId, [...new Set([...positional.groups.flat(), ...positional.excluded].flatMap((term) => term.lexemes))]);
      if ([...found.values()].includes(undefined)) continue;
      queries.push({ query: positional, lists: found as Map<string, PositionalList> });
    }
  } finally {
    await database.close();
  }
  const generation = stats;
  timeRounds('postgres', queries, ({ query, lists }) => bestMatches(query, lists, generation, COUNT));
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
