/**
 * The crawler's page path in process, without network or database: what the crawl spends on
 * each page once its bytes have arrived. Run by hand: `node_modules/.bin/node bench/page-path.ts`
 * (Node 24; add `--cpu-prof` before the file to find the hot functions).
 *
 *   BENCH_PGDOCS_DIR  a directory of HTML pages, read recursively (default /tmp/pgdocs, the
 *                     PostgreSQL manual as `../shared/testdata/sites/postgres-docs.sh` unpacks it)
 *   BENCH_ROUNDS      measured rounds over all pages after one warm-up (default 5); a page's
 *                     time in a stage is its fastest round
 *   BENCH_STORE       sqlite or postgres (TEST_DATABASE_URL): also time FrontierStore.recordPages
 *                     (zstd and the SQL writes, one transaction a batch) into a fresh migrated
 *                     database, each page once after the rounds, CPU and wall time
 *   BENCH_STORE_BATCH pages a transaction (default 16: at concurrency 16, PageWriter joins
 *                     the pages that finish in the same turn, up to 32)
 *
 * Besides the directory's pages, one synthetic page: 5,000 links (internal, external, some
 * repeated) in about 500 KB of HTML. Stages, as the crawler runs them on a 200 text/html page:
 *
 *   decode    Buffer → string, as page-fetcher does with the body's chunks
 *   facts     extractPageFacts (the one parse of the page)
 *   summary   summarizePage on those facts
 *   rules     runPageRules on those facts
 *   record    recordFetchedPage: facts, summary, rules, links and discoveries together
 *   compress  the zstd compression of markup and visible text done in FrontierStore.recordPages
 *
 * The path is decode + record + compress (summary and rules are inside record, shown apart).
 * Times are CPU time of the process (process.cpuUsage, GC threads included), a page's
 * fastest round: on a shared machine wall time also measures the neighbours.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { zstdCompressSync } from 'node:zlib';
import { auditPage } from '../packages/server/src/audit/page-audit.ts';
import { runPageRules } from '../packages/server/src/audit/page-rules/index.ts';
import { summarizePage } from '../packages/server/src/audit/page-summary.ts';
import type { AuditedPage } from '../packages/server/src/audit/rule.ts';
import { crawlOptions } from '../packages/server/src/crawl/crawl-options.ts';
import { CrawlStore } from '../packages/server/src/crawl/crawl-store.ts';
import { type CrawlUrlRow, FrontierStore, urlKey } from '../packages/server/src/crawl/frontier-store.ts';
import type { FetchedPage } from '../packages/server/src/crawl/page-fetcher.ts';
import { recordFetchedPage } from '../packages/server/src/crawl/page-record.ts';
import { createScopeFilter } from '../packages/server/src/crawl/scope-filter.ts';
import { extractPageFacts, type PageFacts } from '../packages/server/src/page-facts/page-facts.ts';
import { insertRunningCrawl } from '../packages/server/src/testing/running-crawl.ts';
import { openTestDatabase } from '../packages/server/src/testing/test-database.ts';
import type { Dialect } from '../packages/server/src/testing/test-dialects.ts';
import { cleanups, loadAverage, printTable, quantile, runBench } from './bench-kit.ts';

const DIR = process.env.BENCH_PGDOCS_DIR ?? '/tmp/pgdocs';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ORIGIN = 'http://docs.example.test';
const STAGES = ['decode', 'facts', 'summary', 'rules', 'record', 'compress'] as const;

interface BenchPage {
  name: string;
  body: Buffer;
}

/** 5,000 links, a third external, one in ten repeated, with prose between them: about 500 KB. */
export function largePage(links = 5_000): string {
  const parts = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Index of everything</title>',
    '<meta name="description" content="Every term of the manual and where it is explained."></head><body><h1>Index</h1><ul>',
  ];
  for (let i = 0; i < links; i++) {
    const target = i % 10 === 9 ? i - 9 : i;
    const href = target % 3 === 0 ? `https://ext${target % 40}.example.org/page/${target}` : `/docs/term-${target}.html#s${i}`;
    parts.push(`<li><a href="${href}">Term ${i}</a>, said &amp; explained in a few words</li>\n`);
  }
  parts.push('</ul></body></html>');
  return parts.join('');
}

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function fetchedPage(url: string, html: string, bytes: number): FetchedPage {
  return {
    url,
    finalUrl: url,
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-length': String(bytes) },
    contentType: 'text/html; charset=utf-8',
    html,
    bytes,
    truncated: false,
    ttfbMs: 1,
    responseMs: 2,
    redirects: [],
    error: null,
    retryAfterSeconds: null,
    connectionLost: false,
  };
}

function urlRow(url: string): CrawlUrlRow {
  return {
    id: 'u1',
    crawl_id: 'c1',
    url,
    url_key: urlKey(url),
    depth: 1,
    state: 'fetching',
    kind: 'page',
    source: 'link',
    status_code: null,
    final_url: null,
    content_type: null,
    bytes: null,
    response_ms: null,
    redirects: null,
    fetch_error: null,
    fetched_at: null,
    headers: null,
    ttfb_ms: null,
    summary: null,
    title_hash: null,
    description_hash: null,
    text_hash: null,
    simhash: null,
    lang: null,
    word_count: null,
    indexable: null,
  } as CrawlUrlRow;
}

/** CPU milliseconds of the process: its GC threads work for the page path too. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** One page through every stage, as the crawler runs them; CPU ms per stage. */
function runPage(page: BenchPage): number[] {
  const options = crawlOptions({ url: `${ORIGIN}/docs/` }, 100_000);
  const inScope = createScopeFilter({ origin: options.url });
  const url = `${ORIGIN}/docs/${page.name}`;
  const times: number[] = [];
  let start = cpuMs();
  const lap = () => {
    const end = cpuMs();
    times.push(end - start);
    start = end;
  };
  const fetched = fetchedPage(url, page.body.toString('utf8'), page.body.length);
  lap();
  const facts = extractPageFacts(fetched.html!, url, fetched.headers);
  lap();
  const audited: AuditedPage & { facts: PageFacts } = {
    url,
    finalUrl: url,
    origin: ORIGIN,
    status: 200,
    fetchError: null,
    contentType: fetched.contentType,
    headers: fetched.headers,
    bytes: fetched.bytes,
    ttfbMs: 1,
    responseMs: 2,
    depth: 1,
    facts,
  };
  summarizePage(audited);
  lap();
  runPageRules(audited);
  lap();
  const recorded = recordFetchedPage(urlRow(url), fetched, options, inScope, auditPage, { notFoundProbe: null, robotsDisallowedFor: [] });
  lap();
  zstdCompressSync(recorded.body!.html);
  zstdCompressSync(recorded.body!.text);
  lap();
  return times;
}

async function main(): Promise<void> {
  const files = await htmlFiles(DIR);
  const pages: BenchPage[] = await Promise.all(
    files.map(async (file) => ({ name: file.slice(DIR.length + 1), body: await readFile(file) })),
  );
  const large: BenchPage = { name: 'synthetic-5000-links.html', body: Buffer.from(largePage()) };
  const htmlBytes = pages.reduce((sum, page) => sum + page.body.length, 0);
  console.log(
    `${pages.length} pages from ${DIR} (${(htmlBytes / 1e6).toFixed(1)} MB) and one synthetic page of ${(large.body.length / 1e3).toFixed(0)} KB; load ${loadAverage()}`,
  );

  const all = [...pages, large];
  for (const page of all) runPage(page); // warm-up
  const times = all.map(() => STAGES.map(() => [] as number[]));
  for (let round = 0; round < ROUNDS; round++) {
    all.forEach((page, index) => runPage(page).forEach((ms, s) => times[index]![s]!.push(ms)));
  }
  const best = times.map((stages) => stages.map((values) => Math.min(...values)));
  const manual = best.slice(0, pages.length);
  const pathOf = (stages: number[]) => stages[0]! + stages[4]! + stages[5]!;
  const row = (name: string, values: number[], synthetic: number) => [
    name,
    quantile(values, 0.5).toFixed(3),
    quantile(values, 0.95).toFixed(3),
    Math.max(...values).toFixed(2),
    values.reduce((a, b) => a + b, 0).toFixed(0),
    synthetic.toFixed(2),
  ];
  const rows = STAGES.map((stage, s) =>
    row(
      stage,
      manual.map((stages) => stages[s]!),
      best.at(-1)![s]!,
    ),
  );
  const path = manual.map(pathOf);
  rows.push(row('path', path, pathOf(best.at(-1)!)));
  printTable(['stage', 'median ms', 'p95 ms', 'max ms', 'total ms (manual)', 'synthetic ms'], rows);
  const slowest = path
    .map((ms, index) => ({ name: pages[index]!.name, ms }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3);
  console.log(`slowest pages: ${slowest.map((page) => `${page.name} ${page.ms.toFixed(1)} ms`).join(', ')}`);
  const total = path.reduce((a, b) => a + b, 0);
  console.log(`path: ${(pages.length / (total / 1000)).toFixed(0)} pages per CPU second over the manual (decode + record + compress)`);
  if (process.env.BENCH_STORE) await timeStore(process.env.BENCH_STORE as Dialect, pages);
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

/** FrontierStore.recordPages over the manual, as the crawler's PageWriter calls it after recordFetchedPage. */
async function timeStore(dialect: Dialect, pages: BenchPage[]): Promise<void> {
  const test = await openTestDatabase(dialect);
  cleanups.push(() => test.close());
  const at = new Date().toISOString();
  await test.database.db
    .insertInto('workspaces')
    .values({ id: 'bench', name: 'bench', plan: 'free', created_at: at, updated_at: at })
    .execute();
  const store = new CrawlStore(test.database);
  const options = crawlOptions({ url: `${ORIGIN}/docs/` }, 100_000);
  const inScope = createScopeFilter({ origin: options.url });
  const crawlId = await insertRunningCrawl(store, 'bench', options);
  const urls = pages.map((page) => `${ORIGIN}/docs/${page.name}`);
  const frontier = new FrontierStore(test.database);
  await frontier.discover(
    crawlId,
    urls.map((url) => ({ url, depth: 1, kind: 'page', source: 'link' })),
  );
  const rows = new Map(
    (await test.database.db.selectFrom('crawl_urls').selectAll().where('crawl_id', '=', crawlId).execute()).map((r) => [r.url, r]),
  );
  const recorded = pages.map((page, index) => {
    const row = rows.get(urls[index]!)!;
    const fetched = fetchedPage(row.url, page.body.toString('utf8'), page.body.length);
    return {
      id: row.id,
      page: recordFetchedPage(row, fetched, options, inScope, auditPage, { notFoundProbe: null, robotsDisallowedFor: [] }),
    };
  });
  const batchSize = Number(process.env.BENCH_STORE_BATCH ?? 16);
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let start = 0; start < recorded.length; start += batchSize) {
    const batch = recorded.slice(start, start + batchSize);
    const cpuStart = cpuMs();
    const wallStart = performance.now();
    await frontier.recordPages(crawlId, batch);
    wall.push((performance.now() - wallStart) / batch.length);
    cpu.push((cpuMs() - cpuStart) / batch.length);
  }
  const sizes = Array.from({ length: cpu.length }, (_, i) => Math.min(batchSize, recorded.length - i * batchSize));
  const total = (values: number[]) => values.reduce((sum, value, i) => sum + value * sizes[i]!, 0);
  printTable(
    [`recordPages, ${dialect}, ${batchSize} a batch`, 'median ms a page', 'p95', 'max', 'total ms (manual)'],
    [
      ['CPU', quantile(cpu, 0.5).toFixed(3), quantile(cpu, 0.95).toFixed(3), Math.max(...cpu).toFixed(2), total(cpu).toFixed(0)],
      ['wall', quantile(wall, 0.5).toFixed(3), quantile(wall, 0.95).toFixed(3), Math.max(...wall).toFixed(2), total(wall).toFixed(0)],
    ],
  );
}

await runBench(main);
