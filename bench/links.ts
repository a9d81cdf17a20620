/**
 * The link graph at scale (issue #24, point 1): one crawl of a generated site, then what its
 * links cost to keep and to read. `node_modules/.bin/node bench/links.ts` (Node 24).
 *
 *   BENCH_PAGES   pages of the generated site (default 50000)
 *   BENCH_LINKS   internal links per page (default 10, the generator's own)
 *   BENCH_RUNS    answers timed per link view (default 5)
 *   BENCH_KEEP_DIR  keep the server's data dir here, to query its database after (default: removed)
 *
 * Printed: the crawl's page phase and report build (from the report phase's start to the
 * crawl's finishedAt), the crawl_links rows and their bytes on disk, tables and indexes (SQLite's
 * dbstat, over the stopped server's file), and the answer times of the links views' first page
 * (`listReportLinks` unfiltered and filtered, the home page's inlinks: every page links to it).
 * A server that predates an operation (404) is reported so, which lets the same file measure an
 * older checkout's crawl and storage: copy it into that checkout's bench/.
 */
import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { generatedSite } from '../packages/server/src/testing/fixture-sites.ts';
import { startTestSite } from '../packages/server/src/testing/test-site.ts';
import { cleanups, loadAverage, runBench, sleep } from './bench-kit.ts';
import { loupeApi, startLoupe } from './loupe-server.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 50_000);
const LINKS = Number(process.env.BENCH_LINKS ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

interface CrawlRow {
  id: string;
  status: string;
  pagesCrawled: number;
  reportId: string | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  progress?: { phase: string; phaseStartedAt: string } | null;
}

async function main(): Promise<void> {
  const site = await startTestSite(generatedSite(PAGES, { linksPerPage: LINKS }), { record: false });
  cleanups.push(() => site.close());
  const loupe = await startLoupe({
    label: 'links',
    keepDir: process.env.BENCH_KEEP_DIR,
    env: { LOUPE_CRAWL_ALLOW_PRIVATE: '1' },
    setUp: (workspaceId) => [
      ['admin', 'set-plan', '--workspace', workspaceId, '--plan', 'business', '--json'],
      ['admin', 'grant-credits', '--workspace', workspaceId, '--amount', String(PAGES + 10), '--note', 'bench:links', '--json'],
    ],
  });
  console.log(`generated site: ${PAGES} pages, ${LINKS} links a page; load ${loadAverage()}`);

  const started = (await loupeApi(loupe, 'POST', '/api/v1/crawls', {
    url: site.url('/'),
    mode: 'site',
    maxPages: PAGES + 10,
  })) as CrawlRow;
  const phases = new Map<string, number>();
  let crawl: CrawlRow;
  for (;;) {
    crawl = (await loupeApi(loupe, 'GET', `/api/v1/crawls/${started.id}`)) as CrawlRow;
    const progress = crawl.progress;
    if (progress && !phases.has(progress.phase)) phases.set(progress.phase, Date.parse(progress.phaseStartedAt));
    if (crawl.status !== 'queued' && crawl.status !== 'running') break;
    await sleep(250);
  }
  if (crawl.status !== 'completed' || !crawl.reportId) throw new Error(`the crawl ended ${crawl.status}: ${crawl.error}`);
  const created = Date.parse(crawl.createdAt);
  const finished = Date.parse(crawl.finishedAt as string);
  const reportStart = phases.get('report');
  console.log(`crawl: ${crawl.pagesCrawled} pages; page phase ${seconds((phases.get('links') ?? reportStart ?? finished) - created)}`);
  console.log(`report build: ${reportStart === undefined ? 'not seen (phase too short to poll)' : seconds(finished - reportStart)}`);

  const reportId = crawl.reportId;
  const home = (await loupeApi(loupe, 'GET', `/api/v1/reports/${reportId}/pages?sort=depth&limit=1`)) as { id: string }[];
  const notFound = (await loupeApi(loupe, 'GET', `/api/v1/reports/${reportId}/pages?statusClass=4xx&limit=1`)) as { id: string }[];
  const views: [string, string][] = [
    ['links, unfiltered', `/api/v1/reports/${reportId}/links`],
    ['links, broken', `/api/v1/reports/${reportId}/links?statusClass=broken`],
    ['links, internal 3xx', `/api/v1/reports/${reportId}/links?target=internal&statusClass=3xx`],
    ['links, images', `/api/v1/reports/${reportId}/links?kind=image`],
    ['home page inlinks', `/api/v1/reports/${reportId}/pages/${home[0]?.id}/inlinks`],
    ["a 404 page's inlinks", `/api/v1/reports/${reportId}/pages/${notFound[0]?.id}/inlinks`],
  ];
  for (const [name, path] of views) console.log(`${name}: ${await firstPageTimes(loupe.url, path, loupe)}`);

  await loupe.stop();
  const file = `${loupe.dataDir}/loupe.db`;
  if (!existsSync(file)) throw new Error(`no SQLite file at ${file}`);
  const db = new DatabaseSync(file, { readOnly: true });
  const rows = (db.prepare('SELECT count(*) AS n FROM crawl_links').get() as { n: number }).n;
  const sizes = db
    .prepare(
      "SELECT d.name, sum(d.pgsize) AS bytes FROM dbstat d JOIN sqlite_master m ON m.name = d.name WHERE m.tbl_name = 'crawl_links' GROUP BY d.name",
    )
    .all() as { name: string; bytes: number }[];
  db.close();
  const total = sizes.reduce((sum, size) => sum + size.bytes, 0);
  console.log(`crawl_links: ${rows} rows, ${mb(total)} (${(total / rows).toFixed(1)} B a link)`);
  for (const size of sizes) console.log(`  ${size.name}: ${mb(size.bytes)} (${(size.bytes / rows).toFixed(1)} B a link)`);
}

/** The first page's answer time, RUNS times: the first (cold) and the median of the rest. */
async function firstPageTimes(url: string, path: string, loupe: { key: string; workspaceId: string }): Promise<string> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    const response = await fetch(url + path, { headers: { authorization: `Bearer ${loupe.key}`, 'x-service-team': loupe.workspaceId } });
    const body = (await response.json()) as unknown[];
    times.push(performance.now() - start);
    if (response.status === 404) return 'no such operation on this server';
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
    if (run === 0 && (Array.isArray(body) ? body.length : 0) === 0) return 'no rows';
  }
  const rest = times.slice(1).sort((a, b) => a - b);
  return `first ${ms(times[0] as number)}, then median ${ms(rest[Math.floor(rest.length / 2)] as number)}`;
}

const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

await runBench(main);
