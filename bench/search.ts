/**
 * Project search: index build time for a large crawl, and query latency under concurrent load,
 * on SQLite and on PostgreSQL. Run by hand: `node_modules/.bin/node bench/search.ts` (Node 24).
 * Aim (the search issue): p99 under 20 ms at 20 concurrent queries.
 *
 *   BENCH_PAGES     pages of the crawl the index is built from (default 50000)
 *   BENCH_CLIENTS   clients querying at once, each sending its next query when answered (default 20)
 *   BENCH_SECONDS   how long the clients query (default 30)
 *   BENCH_LIMIT     hits per query, as a search page shows them (default 10)
 *   BENCH_WARM_SET  distinct queries the warm mix draws from (default 20000)
 *   BENCH_DIALECTS  sqlite, postgres or both (default both; postgres needs DATABASE_URL)
 *   DATABASE_URL    a PostgreSQL server the bench may create a database on (and drop it after),
 *                   e.g. postgres://postgres@127.0.0.1:5432/test
 *   LOUPE_SEARCH_LIST_MIN_PAGES, LOUPE_SEARCH_LIST_CACHE_BYTES, LOUPE_SEARCH_CACHE_BYTES
 *                   passed on to the server (its defaults unset)
 *   BENCH_KEEP_DIR  keep each dialect's data (data dir, PostgreSQL database) under this directory,
 *                   and on a later run with the same BENCH_PAGES query it again rather than seed and
 *                   build (the build figures printed are the kept run's); remove the directory (and
 *                   drop the database named in its loupe-bench.json) to start afresh
 *   BENCH_NODE_FLAGS  Node flags for the server beside the start script's, e.g.
 *                   `--cpu-prof --cpu-prof-dir=/tmp/prof` (bench/profile-window.ts reads a run's part)
 *   BENCH_SERVER_LOG  a file the server's output is appended to, e.g. with BENCH_NODE_FLAGS=--trace-gc
 *                   (its times are milliseconds of the server's life; the ranking threads' isolates
 *                   print there too)
 *
 * For each dialect: a fresh data dir (SQLite) or a fresh database (PostgreSQL: created beside
 * DATABASE_URL's, so the server's migrations, job queue schema and all are the bench's own);
 * `loupe init`, then `loupe serve` as `npm start` runs it, in a child process. A project is
 * created over the API; the crawl is written straight into its tables (crawl_urls rows with a
 * page summary, crawl_page_bodies with zstd text, a report filing it under the project) rather
 * than crawled: the crawl bench measures crawling. Build time runs from POST …/search-index
 * (202) to the state answering ready, polled every 100 ms; the server's own startedAt → builtAt
 * is printed too.
 *
 * Pages: a title of 3–6 words and 300–1,500 words of text drawn from a 20,000-word vocabulary
 * by a Zipf law (s = 1.05), the way words of real text are spread: its 30 most frequent words
 * are English stop words, the rest made-up words of two to four syllables. Query words have
 * ranks spread evenly over their logarithm from 50 to 10,000 (as many queries for words on
 * most pages as for words on a few hundred; neither stop words nor hapaxes): one word (35%),
 * two (30%), three (10%), a quoted two-word phrase taken from a page (10%), a word minus
 * another (10%), two words ORed (5%). Drawn that way and with repeats dropped, they make the
 * list of distinct queries both mixes below take from. Each client sends
 * `GET /api/v1/projects/{id}/search?q=…&limit=BENCH_LIMIT` over keep-alive and times the
 * answer in full (undici's Pool, a keep-alive connection per client, each answer read whole by a
 * dispatch handler); answers other than 200 are counted as errors. The clients' own collector pauses
 * are counted too, with the p99 of the queries out during none of them: a pause of the clients is
 * timed as the server's.
 *
 * The server keeps recent answers (keyed by the index build that answered), so two mixes:
 *   cold  every query text sent once in the server's life: what a query costs the database;
 *   warm  queries drawn from the first BENCH_WARM_SET distinct ones by a Zipf law (s = 1), as
 *         searches repeat in a search log, after a pass of the same draw to fill the cache; the
 *         share of queries the server had seen before is printed.
 * Cold takes the distinct queries in order, so it holds fewer single common words than the
 * drawn mix (each is sent once): the table prints n by band.
 *
 * Runs after a 3 s warm-up (queries of its own, never sent again): cold with one client alone
 * (a query's own time) and with BENCH_CLIENTS clients (the aim's figure), the same warm, then
 * the same clients on GET …/search-index, the index's state: what any authenticated request
 * costs under that load, the floor under the search figures. Latencies are printed for all
 * queries and by band of word frequency; for each run, the CPU of the server, of its event loop
 * (and how often a query the loop was preempted: switched out while it could run), of this
 * machine's postgres processes, and of the clients.
 */
import { statSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { Pool } from 'undici';
import { mulberry32 } from '../packages/server/src/testing/seeded-random.ts';
import {
  cpuByProcess,
  cpuOf,
  cpuUsedSince,
  loadAverage,
  memoryOf,
  note,
  notes,
  printTable,
  quantile,
  runBench,
  sleep,
  threadOf,
  wholeNumberSetting,
} from './bench-kit.ts';
import { type Loupe, loupeApi, recordKept, startLoupe } from './loupe-server.ts';
import { seedCrawl } from './seed-crawl.ts';

const AIM_P99_MS = 20;

const SETTINGS = {
  pages: wholeNumberSetting('BENCH_PAGES', 50_000, 100, 500_000),
  clients: wholeNumberSetting('BENCH_CLIENTS', 20, 1, 200),
  seconds: wholeNumberSetting('BENCH_SECONDS', 30, 1, 3600),
  limit: wholeNumberSetting('BENCH_LIMIT', 10, 1, 100),
  warmSet: wholeNumberSetting('BENCH_WARM_SET', 20_000, 100, 100_000),
  dialects: (process.env.BENCH_DIALECTS || 'sqlite,postgres').split(',').map((d) => d.trim()),
  databaseUrl: process.env.DATABASE_URL || undefined,
  /** The server's own settings the bench passes on (an operator's others are left out: bench/loupe-server.ts). */
  serverEnv: Object.fromEntries(
    ['LOUPE_SEARCH_LIST_MIN_PAGES', 'LOUPE_SEARCH_LIST_CACHE_BYTES', 'LOUPE_SEARCH_CACHE_BYTES']
      .filter((name) => process.env[name])
      .map((name) => [name, process.env[name] as string]),
  ),
  nodeFlags: (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean),
  serverLog: process.env.BENCH_SERVER_LOG || undefined,
  keepDir: process.env.BENCH_KEEP_DIR || undefined,
};

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const mb = (kilobytes: number | undefined) => (kilobytes !== undefined && Number.isFinite(kilobytes) ? (kilobytes / 1024).toFixed(0) : '–');

// ---------------------------------------------------------------------------------------
// Words, pages and queries.

const STOP_WORDS =
  'the of and to a in is it that for was on are with as be at by this have from or an but not were all they which one had'.split(' ');
const SYLLABLES =
  'ka lo mi re tu sa ne po ri da ve no li ma te gu ro si pa de fo ni ba le co mu ta vi ge su ra ko be lu na pi do se mo'.split(' ');
const VOCABULARY_SIZE = 20_000;

/** Word of rank `rank`: the stop words first, then made-up words, all distinct. */
function wordOf(rank: number): string {
  if (rank < STOP_WORDS.length) return STOP_WORDS[rank]!;
  let n = rank - STOP_WORDS.length;
  const parts = [SYLLABLES[n % SYLLABLES.length]!];
  n = Math.floor(n / SYLLABLES.length);
  parts.push(SYLLABLES[n % SYLLABLES.length]!);
  n = Math.floor(n / SYLLABLES.length);
  while (n > 0) {
    parts.push(SYLLABLES[(n - 1) % SYLLABLES.length]!);
    n = Math.floor((n - 1) / SYLLABLES.length);
  }
  return parts.join('');
}
const WORDS = Array.from({ length: VOCABULARY_SIZE }, (_, rank) => wordOf(rank));

/** Draws ranks from [from, to) by a Zipf law. */
function zipf(random: () => number, from = 0, to = VOCABULARY_SIZE, s = 1.05): () => number {
  const cumulative = new Float64Array(to - from);
  let total = 0;
  for (let i = 0; i < cumulative.length; i++) cumulative[i] = total += 1 / (i + 1) ** s;
  return () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return from + low;
  };
}

interface GeneratedPage {
  title: string;
  text: string;
}

function pageGenerator(seed: number): (n: number) => GeneratedPage {
  const random = mulberry32(seed);
  const rank = zipf(random);
  const titleRank = zipf(random, 30, 3000);
  return () => {
    const titleWords = Array.from({ length: 3 + Math.floor(random() * 4) }, () => WORDS[titleRank()]!);
    const title = titleWords.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
    const count = 300 + Math.floor(random() * 1200);
    const sentences: string[] = [];
    let sentence: string[] = [];
    for (let i = 0; i < count; i++) {
      sentence.push(WORDS[rank()]!);
      if (sentence.length >= 8 + Math.floor(random() * 12) || i === count - 1) {
        sentences.push(`${sentence[0]![0]!.toUpperCase()}${sentence.join(' ').slice(1)}.`);
        sentence = [];
      }
    }
    return { title, text: `${title}\n${sentences.join(' ')}` };
  };
}

/** Frequency bands of a query, by the rank of the word that bounds its matches. */
const BANDS = [
  { name: 'common (rank < 300)', below: 300 },
  { name: 'middle (300–3,000)', below: 3000 },
  { name: 'rare (≥ 3,000)', below: Number.POSITIVE_INFINITY },
];
const RANK_OF = new Map(WORDS.map((word, rank) => [word, rank]));

interface BenchQuery {
  q: string;
  band: string;
}

/**
 * Query words spread evenly over the log of their rank from 50 to 10,000: as many queries for
 * words of each decade of frequency, from words on most pages to words on a few hundred.
 */
function queryPool(size: number, samplePage: GeneratedPage): BenchQuery[] {
  const random = mulberry32(7);
  const rank = () => Math.floor(50 * (10_000 / 50) ** random());
  const bandOf = (bound: number) => BANDS.find((band) => bound < band.below)!.name;
  const pageWords = samplePage.text
    .toLowerCase()
    .replace(/[^a-z ]/g, ' ')
    .split(/\s+/)
    .filter((w) => (RANK_OF.get(w) ?? 0) >= 30);
  const queries: BenchQuery[] = [];
  for (let i = 0; i < size; i++) {
    const roll = random();
    const [a, b, c] = [rank(), rank(), rank()];
    // AND: the rarest word bounds the matches; OR: the commonest.
    if (roll < 0.35) queries.push({ q: WORDS[a]!, band: bandOf(a) });
    else if (roll < 0.65) queries.push({ q: `${WORDS[a]} ${WORDS[b]}`, band: bandOf(Math.max(a, b)) });
    else if (roll < 0.75) queries.push({ q: `${WORDS[a]} ${WORDS[b]} ${WORDS[c]}`, band: bandOf(Math.max(a, b, c)) });
    else if (roll < 0.85) {
      const at = Math.floor(random() * (pageWords.length - 1));
      const [first, second] = [pageWords[at]!, pageWords[at + 1]!];
      queries.push({ q: `"${first} ${second}"`, band: bandOf(Math.max(RANK_OF.get(first)!, RANK_OF.get(second)!)) });
    } else if (roll < 0.95) queries.push({ q: `${WORDS[a]} -${WORDS[b]}`, band: bandOf(a) });
    else queries.push({ q: `${WORDS[a]} OR ${WORDS[b]}`, band: bandOf(Math.min(a, b)) });
  }
  return queries;
}

/** The pool's queries with repeats dropped, in the order they were drawn. */
function distinctQueries(size: number, samplePage: GeneratedPage): BenchQuery[] {
  const byText = new Map<string, BenchQuery>();
  for (const query of queryPool(size, samplePage)) if (!byText.has(query.q)) byText.set(query.q, query);
  return [...byText.values()];
}

/** The next query of a mix. */
type QuerySource = () => BenchQuery;

/** Each query of `queries` once, in order, across every run that shares the source. */
function eachOnce(queries: BenchQuery[]): QuerySource & { used: () => number } {
  let next = 0;
  return Object.assign(() => queries[next++ % queries.length]!, { used: () => next });
}

/** Queries drawn from the first `size` of `queries` by a Zipf law (s = 1): a few often, most rarely. */
function drawn(queries: BenchQuery[], size: number, seed: number): QuerySource {
  const pick = zipf(mulberry32(seed), 0, Math.min(size, queries.length), 1);
  return () => queries[pick()]!;
}

// ---------------------------------------------------------------------------------------
// The server and its data.

/** The crawl the index is built from: its pages' text, written straight into the tables (bench/seed-crawl.ts). */
async function writeCrawl(loupe: Loupe, projectId: string, pages: number, generate: (n: number) => GeneratedPage): Promise<number> {
  let textBytes = 0;
  await seedCrawl(loupe, {
    projectId,
    site: 'https://shop.example',
    pages,
    report: 'stub',
    page: (n) => {
      const page = generate(n);
      textBytes += page.text.length;
      return { path: `/page/${n}`, title: page.title, text: page.text };
    },
  });
  return textBytes;
}

// ---------------------------------------------------------------------------------------
// The measures.

interface Sample {
  ms: number;
  band: string;
  /** Whether this process paused for its garbage collector while the query was out. */
  clientPaused: boolean;
}

/** What a hit of the answer's JSON holds once: the hits are counted in its bytes, never decoded. */
const HIT_KEY = Buffer.from('"pageId":');

function hitsIn(body: Buffer): number {
  let count = 0;
  for (let at = body.indexOf(HIT_KEY); at >= 0; at = body.indexOf(HIT_KEY, at + HIT_KEY.length)) count++;
  return count;
}

/**
 * A GET over the pool, its answer read whole by a dispatch handler of undici's: a response
 * stream and a body iterator a request, kept past a collection or two, made the clients'
 * collector copy some 13 MB at each of its pauses.
 */
function get(pool: Pool, path: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    let status = 0;
    const chunks: Buffer[] = [];
    pool.dispatch(
      { method: 'GET', path, headers },
      {
        onRequestStart: () => {},
        onResponseStart: (_controller, statusCode) => {
          status = statusCode;
        },
        onResponseData: (_controller, chunk) => {
          chunks.push(chunk);
        },
        onResponseEnd: () => resolve({ status, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) }),
        onResponseError: (_controller, error) => reject(error),
      },
    );
  });
}

/**
 * This process's garbage-collection pauses while `during` runs. The clients share one event
 * loop: a pause holds up every answer that arrives meanwhile, and is timed as the server's.
 */
async function withClientPauses(during: () => Promise<unknown>): Promise<[number, number][]> {
  const pauses: [number, number][] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push([entry.startTime, entry.startTime + entry.duration]);
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    await during();
    return pauses;
  } finally {
    observer.disconnect();
  }
}

interface Run {
  mix: 'cold' | 'warm' | 'floor';
  clients: number;
  samples: Sample[];
  errors: number;
  hits: number;
  seconds: number;
  /** The server's CPU time over the run, per second of it (1 = one core busy). */
  serverCpu: number;
  /** The same for this process, the clients: they share the machine's cores with the server. */
  clientCpu: number;
  /**
   * The server's event loop (its main thread): its share of the run on a core, and how often a
   * query it was switched out while it could have run, the core given to a thread or process
   * it woke (a postgres backend, a ranking thread, a client).
   */
  eventLoop: { cpu: number; preemptedPerQuery: number };
  /** The CPU of this machine's postgres processes per second of the run (the database's share, where it runs here). */
  postgresCpu: number;
  /** Queries whose text the server had been sent before (its cache may hold the answer). */
  repeats: number;
  /** This process's garbage-collection pauses during the run: how many, and their ms in all and at most. */
  clientPauses: { count: number; ms: number; longestMs: number };
}

interface Figures {
  dialect: string;
  buildSeconds: number;
  serverBuildSeconds: number;
  pages: number;
  runs: Run[];
  /** GET …/search-index (the index's state: two small queries) under the same load. */
  floor: Run;
  rss?: number;
}

/** SQLite: the word lists the build stored (search/sqlite-word-postings.ts), and the database file's size. */
function wordListsOf(loupe: Loupe): string {
  const file = join(loupe.dataDir, 'loupe.db');
  const database = new DatabaseSync(file, { readOnly: true });
  try {
    const lists = database
      .prepare(
        'SELECT count(*) AS words, coalesce(sum(matches), 0) AS matches, coalesce(sum(length(ordinals) + length(scores)), 0) AS bytes FROM search_word_postings',
      )
      .get() as { words: number; matches: number; bytes: number };
    return `word lists: ${lists.words} words, ${lists.matches} matches, ${fixed(lists.bytes / 1024 / 1024, 0)} MB; database file ${fixed(statSync(file).size / 1024 / 1024, 0)} MB`;
  } finally {
    database.close();
  }
}

async function buildIndex(loupe: Loupe, projectId: string) {
  const t0 = performance.now();
  const started = await loupeApi(loupe, 'POST', `/api/v1/projects/${projectId}/search-index`);
  for (;;) {
    const state = await loupeApi(loupe, 'GET', `/api/v1/projects/${projectId}/search-index`);
    if (state.state === 'ready' && state.building === null) {
      return {
        seconds: (performance.now() - t0) / 1000,
        serverSeconds: (Date.parse(state.builtAt) - Date.parse(started.building.startedAt)) / 1000,
        pages: state.pages as number,
      };
    }
    if (state.state === 'failed') throw new Error(`the build failed: ${JSON.stringify(state)}`);
    await sleep(100);
  }
}

/**
 * `clients` clients, each sending the source's next query as soon as it has its answer, for
 * `seconds`; with `path`, that request instead (the floor: what any authenticated request costs).
 * `sent` holds every query text the server was sent, across runs.
 */
async function load(
  loupe: Loupe,
  projectId: string,
  run: { mix: Run['mix']; next: QuerySource; sent: Set<string>; clients: number; seconds: number; path?: string },
): Promise<Run> {
  const { next, sent, clients, seconds, path } = run;
  const samples: Sample[] = [];
  let errors = 0;
  let hits = 0;
  let repeats = 0;
  const end = performance.now() + seconds * 1000;
  const cpuBefore = await cpuOf(loupe.pid);
  const eventLoopBefore = await threadOf(loupe.pid);
  const postgresCpuBefore = await cpuByProcess('postgres');
  // undici's own client rather than fetch: the clients share the server's two cores here, and
  // fetch spends some three times the CPU a request.
  const pool = new Pool(loupe.url, { connections: clients });
  const clientCpuBefore = process.cpuUsage();
  const headers = { authorization: `Bearer ${loupe.key}`, 'x-service-team': loupe.workspaceId };
  const t0 = performance.now();
  const monotonicStart = process.hrtime.bigint() / 1000n;
  // The clients' own collector pauses hold up every answer arriving meanwhile (withClientPauses):
  // answers read through response streams, then decoded and parsed, paused them some 30 times in
  // 20 s of cold queries, 10–30 ms each, and made the p99 of all queries 23.7 ms where that of
  // the queries out during no pause was 18.9. So each answer is read whole by `get` and its hits
  // counted in its bytes.
  const spans: { started: number; ended: number; band: string }[] = [];
  const client = async () => {
    while (performance.now() < end) {
      const query = next();
      if (!path) {
        if (sent.has(query.q)) repeats++;
        else sent.add(query.q);
      }
      const started = performance.now();
      const answer = await get(
        pool,
        path ?? `/api/v1/projects/${projectId}/search?q=${encodeURIComponent(query.q)}&limit=${SETTINGS.limit}`,
        headers,
      );
      spans.push({ started, ended: performance.now(), band: query.band });
      if (answer.status === 200) hits += path ? 0 : hitsIn(answer.body);
      else errors++;
    }
  };
  const pauses = await withClientPauses(() => Promise.all(Array.from({ length: clients }, client)));
  await pool.close();
  const paused = (span: { started: number; ended: number }) => pauses.some(([from, to]) => from < span.ended && to > span.started);
  for (const span of spans) samples.push({ ms: span.ended - span.started, band: span.band, clientPaused: paused(span) });
  // A profile's timestamps are this machine's monotonic clock in µs, as hrtime's: the run's part of it.
  if (SETTINGS.nodeFlags.length > 0)
    console.log(`  ${run.mix}, ${clients} clients: monotonic µs ${monotonicStart}–${process.hrtime.bigint() / 1000n}`);
  const elapsed = (performance.now() - t0) / 1000;
  const cpuMs = (await cpuOf(loupe.pid)) - cpuBefore;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const eventLoop = await threadOf(loupe.pid);
  const postgresCpuMs = await cpuUsedSince('postgres', postgresCpuBefore);
  return {
    mix: run.mix,
    clients,
    samples,
    errors,
    hits,
    seconds: elapsed,
    serverCpu: cpuMs / 1000 / elapsed,
    clientCpu: (clientCpu.user + clientCpu.system) / 1e6 / elapsed,
    repeats,
    eventLoop: {
      cpu: (eventLoop.cpuMs - eventLoopBefore.cpuMs) / 1000 / elapsed,
      preemptedPerQuery: (eventLoop.preempted - eventLoopBefore.preempted) / Math.max(1, samples.length),
    },
    postgresCpu: postgresCpuMs / 1000 / elapsed,
    clientPauses: {
      count: pauses.length,
      ms: pauses.reduce((sum, [from, to]) => sum + to - from, 0),
      longestMs: Math.max(0, ...pauses.map(([from, to]) => to - from)),
    },
  };
}

/** A kept data dir's project and how its index was built (BENCH_KEEP_DIR). */
interface KeptIndex {
  project: { id: string };
  built: { seconds: number; serverSeconds: number; pages: number };
}

/** A project with the crawl of SETTINGS.pages pages, and its index built. */
async function seedAndBuild(loupe: Loupe): Promise<KeptIndex> {
  if (loupe.kept) {
    // A kept dir without the record of its index: a run stopped while seeding or building.
    const projects = (await loupeApi(loupe, 'GET', '/api/v1/projects')) as unknown[];
    if (projects.length > 0) throw new Error(`${loupe.dataDir} holds the data of a bench stopped before its index was built: remove it`);
    console.log(`  keeping the data in ${loupe.dataDir}`);
  }
  const project = (await loupeApi(loupe, 'POST', '/api/v1/projects', { name: 'Bench', siteUrl: 'https://shop.example/' })) as {
    id: string;
  };
  const generate = pageGenerator(42);
  const t0 = performance.now();
  const textBytes = await writeCrawl(loupe, project.id, SETTINGS.pages, generate);
  console.log(
    `  crawl written in ${fixed((performance.now() - t0) / 1000, 1)} s (${fixed(textBytes / 1024 / 1024, 0)} MB of text, ${fixed(textBytes / SETTINGS.pages / 1024, 1)} KB a page)`,
  );
  const built = await buildIndex(loupe, project.id);
  console.log(`  index built: ${fixed(built.seconds, 1)} s (server: ${fixed(built.serverSeconds, 1)} s), ${built.pages} pages`);
  return { project: { id: project.id }, built };
}

async function benchDialect(dialect: string): Promise<Figures> {
  console.log(`\n== ${dialect}: ${SETTINGS.pages} pages`);
  const env = SETTINGS.serverEnv;
  const loupe = await startLoupe({
    label: 'search',
    dialect: dialect as 'sqlite' | 'postgres',
    databaseUrl: SETTINGS.databaseUrl,
    env,
    nodeFlags: SETTINGS.nodeFlags,
    logFile: SETTINGS.serverLog,
    keepDir: SETTINGS.keepDir && join(SETTINGS.keepDir, dialect),
  });
  const { project, built } = (loupe.kept?.bench as KeptIndex | undefined) ?? (await seedAndBuild(loupe));
  if (loupe.kept?.bench) {
    if (built.pages !== SETTINGS.pages)
      throw new Error(`${loupe.dataDir} keeps ${built.pages} pages, not BENCH_PAGES=${SETTINGS.pages}: use another BENCH_KEEP_DIR`);
    console.log(`  querying the index kept in ${loupe.dataDir} (built in ${fixed(built.seconds, 1)} s when made)`);
  } else if (loupe.kept) recordKept(loupe, { project, built } satisfies KeptIndex);
  if (dialect === 'sqlite') console.log(`  ${wordListsOf(loupe)}`);
  // Far more distinct queries than the cold runs send; the warm mix draws from the first ones.
  const queries = distinctQueries(200_000, pageGenerator(42)(0));
  const sent = new Set<string>();
  const once = eachOnce(queries);
  const short = Math.max(3, Math.round(SETTINGS.seconds / 3));
  const id = project.id;
  // Connections, prepared statements and the database's pages warm first, on queries never sent again.
  await load(loupe, id, { mix: 'cold', next: once, sent, clients: SETTINGS.clients, seconds: 3 });
  // One client alone: the time a query takes the server, without waiting behind others.
  const coldAlone = await load(loupe, id, { mix: 'cold', next: once, sent, clients: 1, seconds: short });
  const coldLoaded = await load(loupe, id, { mix: 'cold', next: once, sent, clients: SETTINGS.clients, seconds: SETTINGS.seconds });
  if (once.used() > queries.length) note(`${dialect}: the cold runs sent all ${queries.length} distinct queries and started again`);
  const warm = drawn(queries, SETTINGS.warmSet, 11);
  // The warm mix's first pass fills the cache as traffic would have before.
  await load(loupe, id, { mix: 'warm', next: warm, sent, clients: SETTINGS.clients, seconds: short });
  const warmAlone = await load(loupe, id, { mix: 'warm', next: warm, sent, clients: 1, seconds: short });
  const warmLoaded = await load(loupe, id, { mix: 'warm', next: warm, sent, clients: SETTINGS.clients, seconds: SETTINGS.seconds });
  const floor = await load(loupe, id, {
    mix: 'floor',
    next: () => ({ q: '', band: 'floor' }),
    sent,
    clients: SETTINGS.clients,
    seconds: short,
    path: `/api/v1/projects/${id}/search-index`,
  });
  const memory = await memoryOf(loupe.pid);
  await loupe.stop();
  return {
    dialect,
    buildSeconds: built.seconds,
    serverBuildSeconds: built.serverSeconds,
    pages: built.pages,
    runs: [coldAlone, coldLoaded, warmAlone, warmLoaded],
    floor,
    rss: memory?.hwm,
  };
}

/** How often the clients' collector paused them, and the p99 of the queries that were out during none of its pauses. */
function clientPausesNote(run: Run): string {
  const { count, ms, longestMs } = run.clientPauses;
  if (count === 0) return 'clients never paused for their collector';
  const unpaused = run.samples.filter((sample) => !sample.clientPaused);
  return `clients paused ${count} times for their collector (${fixed(ms, 0)} ms, longest ${fixed(longestMs, 1)}): p99 ${fixed(
    quantile(
      unpaused.map((sample) => sample.ms),
      0.99,
    ),
    1,
  )} ms over the ${fixed((unpaused.length / Math.max(1, run.samples.length)) * 100, 1)}% of queries out during none`;
}

function latencyRow(label: string, band: string, run: Run, samples: Sample[]): string[] {
  const ms = samples.map((sample) => sample.ms);
  const p99 = quantile(ms, 0.99);
  return [
    label,
    band === 'all' || run.mix === 'floor' ? run.mix : '',
    String(run.clients),
    band,
    String(ms.length),
    fixed(ms.length / run.seconds, 0),
    fixed(quantile(ms, 0.5), 1),
    fixed(quantile(ms, 0.95), 1),
    fixed(p99, 1),
    fixed(
      ms.reduce((most, each) => Math.max(most, each), 0),
      1,
    ),
    p99 < AIM_P99_MS ? 'yes' : 'no',
  ];
}

async function main(): Promise<void> {
  console.log(
    `search bench: ${SETTINGS.pages} pages, ${SETTINGS.clients} clients for ${SETTINGS.seconds} s, limit=${SETTINGS.limit}${Object.entries(
      SETTINGS.serverEnv,
    )
      .map(([name, value]) => `, ${name}=${value}`)
      .join('')}; ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load ${loadAverage()}`,
  );
  const results: Figures[] = [];
  for (const dialect of SETTINGS.dialects) {
    if (dialect !== 'sqlite' && dialect !== 'postgres') throw new Error(`BENCH_DIALECTS: unknown "${dialect}"`);
    if (dialect === 'postgres' && !SETTINGS.databaseUrl) {
      note('postgres skipped: set DATABASE_URL (a server the bench may create a database on)');
      continue;
    }
    results.push(await benchDialect(dialect));
  }
  console.log('');
  printTable(
    ['dialect', 'pages', 'build s (server)', 'pages/s', 'peak RSS MB'],
    results.map((r) => [
      r.dialect,
      String(r.pages),
      `${fixed(r.buildSeconds, 1)} (${fixed(r.serverBuildSeconds, 1)})`,
      fixed(r.pages / r.serverBuildSeconds, 0),
      mb(r.rss),
    ]),
  );
  console.log('');
  const rows: string[][] = [];
  for (const r of results) {
    for (const run of r.runs) {
      rows.push(latencyRow(r.dialect, 'all', run, run.samples));
      for (const band of BANDS)
        rows.push(
          latencyRow(
            '',
            band.name,
            run,
            run.samples.filter((sample) => sample.band === band.name),
          ),
        );
    }
    rows.push(latencyRow('', 'floor: GET …/search-index', r.floor, r.floor.samples));
  }
  printTable(
    ['dialect', 'mix', 'clients', 'queries by word frequency', 'n', 'q/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', `p99 < ${AIM_P99_MS}`],
    rows,
  );
  for (const r of results) {
    for (const run of [...r.runs, r.floor]) {
      const answered = run.samples.length - run.errors;
      const seen = `${fixed((run.repeats / Math.max(1, run.samples.length)) * 100, 0)}% sent before`;
      console.log(
        `${r.dialect}, ${run.mix}, ${run.clients} client(s): ${run.errors} errors, ${fixed(run.hits / Math.max(1, answered), 1)} hits a query, ${seen}, server CPU ${fixed(run.serverCpu * 100, 0)}% (event loop ${fixed(run.eventLoop.cpu * 100, 0)}%, preempted ${fixed(run.eventLoop.preemptedPerQuery, 2)} times a query)${r.dialect === 'postgres' ? `, postgres processes' CPU ${fixed(run.postgresCpu * 100, 0)}%` : ''}, clients' CPU ${fixed(run.clientCpu * 100, 0)}%, ${clientPausesNote(run)}`,
      );
    }
  }
  console.log(`load average at the end: ${loadAverage()} (1, 5, 15 min)`);
  for (const text of notes) console.log(`note: ${text}`);
}

await runBench(main);
