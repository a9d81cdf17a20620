/**
 * A rendering crawl (issue #28) of the real PostgreSQL manual through the API, as a user runs one:
 * `node bench/render-crawl.ts` (Node 24, Debian's chromium). Issue #28's aims: at least 4 rendered
 * pages per second on this 2-core machine at the default concurrency, peak memory (server and
 * browser together) under 1.5 GB.
 *
 *   BENCH_PGDOCS_DIR     the manual, unpacked (default /tmp/pgdocs; made with
 *                        ../shared/testdata/sites/postgres-docs.sh when missing)
 *   BENCH_PAGES          maxPages of the crawl (default 300; the manual has 1,169)
 *   BENCH_CONCURRENCY    the crawl's concurrency (default: the API's, 4)
 *   BENCH_ACCESSIBILITY  0: the crawl's accessibility: false, no axe-core (default 1)
 *   BENCH_SERVER_ENV     extra environment of the server, `NAME=value` separated by spaces
 *                        (LOUPE_RENDER_CONCURRENCY=2, say)
 *
 * The server runs as `npm start` runs it (loupe-server.ts), on SQLite, with bench-resolver.ts
 * preloaded (no name is looked up beyond this machine: the manual's few links to other hosts fail
 * as nxdomain) and LOUPE_CRAWL_ALLOW_PRIVATE, since the manual is served on loopback by this
 * process (sirv, static-site.ts). The crawl starts at /index.html with `render: true`, sitemaps
 * off, external links checked as by default, and is followed on its event stream. "Pages/s" is
 * pages crawled over the page phase (from the 202 to the first event past it). Memory is the
 * server's PSS plus every Chromium process below it, sampled every 250 ms.
 */

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { processMemory, processTreeMemory } from '../packages/server/src/rendering/process-memory.ts';
import { loadAverage, printTable, run, runBench, wholeNumberSetting } from './bench-kit.ts';
import { startLoupe } from './loupe-server.ts';
import { startStaticSite } from './static-site.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const dir = process.env.BENCH_PGDOCS_DIR ?? '/tmp/pgdocs';
const maxPages = wholeNumberSetting('BENCH_PAGES', 300, 1);
const concurrency = process.env.BENCH_CONCURRENCY ? wholeNumberSetting('BENCH_CONCURRENCY', 4, 1, 32) : undefined;
const accessibility = wholeNumberSetting('BENCH_ACCESSIBILITY', 1, 0, 1) === 1;
const serverEnv = Object.fromEntries(
  (process.env.BENCH_SERVER_ENV ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => pair.split('=') as [string, string]),
);

interface CrawlEvent {
  type: string;
  status?: string;
  pagesCrawled?: number;
  phase?: string;
}

await runBench(async () => {
  if (!existsSync(dir)) await run('bash', [join(ROOT, '../shared/testdata/sites/postgres-docs.sh'), dir]);
  const site = await startStaticSite(dir);
  const loupe = await startLoupe({
    label: 'render-crawl',
    env: { LOUPE_CRAWL_ALLOW_PRIVATE: 'true', ...serverEnv },
    nodeFlags: ['--import', pathToFileURL(join(ROOT, 'bench/bench-resolver.ts')).href],
  });
  console.log(`load average at start: ${loadAverage()}`);
  const headers = { authorization: `Bearer ${loupe.key}`, 'x-service-team': loupe.workspaceId, 'content-type': 'application/json' };

  let peak = 0;
  let peakBrowser = 0;
  const sampler = setInterval(() => {
    void Promise.all([processMemory(loupe.pid), processTreeMemory(loupe.pid, /^chrom/)]).then(([server, browser]) => {
      peak = Math.max(peak, server + browser);
      peakBrowser = Math.max(peakBrowser, browser);
    });
  }, 250);

  const body = {
    url: site.url('/index.html'),
    render: true,
    accessibility,
    maxPages,
    sitemaps: false,
    ...(concurrency ? { concurrency } : {}),
  };
  console.log(`${maxPages} pages of the manual, render with accessibility ${accessibility}, concurrency ${concurrency ?? 'default'}`);
  const started = performance.now();
  const answer = await fetch(`${loupe.url}/api/v1/crawls`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (answer.status !== 202) throw new Error(`start answered ${answer.status}: ${await answer.text()}`);
  const crawl = (await answer.json()) as { id: string };
  const events = await fetch(`${loupe.url}/api/v1/crawls/${crawl.id}/events`, { headers });
  if (!events.body) throw new Error('no event stream');
  let pagePhaseMs: number | undefined;
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of events.body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (!block.startsWith('data: ')) continue;
      const event = JSON.parse(block.slice('data: '.length)) as CrawlEvent;
      if (pagePhaseMs === undefined && event.phase !== undefined && event.phase !== 'pages') pagePhaseMs = performance.now() - started;
    }
  }
  const totalMs = performance.now() - started;
  clearInterval(sampler);
  const ended = (await (await fetch(`${loupe.url}/api/v1/crawls/${crawl.id}`, { headers })).json()) as {
    status: string;
    pagesCrawled: number;
    reportId: string | null;
  };
  const seconds = (pagePhaseMs ?? totalMs) / 1000;
  printTable(
    ['status', 'pages', 'page phase s', 'rendered pages/s', 'whole crawl s', 'peak MB (server+browser)', 'browser peak MB'],
    [
      [
        ended.status,
        String(ended.pagesCrawled),
        seconds.toFixed(1),
        (ended.pagesCrawled / seconds).toFixed(2),
        (totalMs / 1000).toFixed(1),
        (peak / 1024 ** 2).toFixed(0),
        (peakBrowser / 1024 ** 2).toFixed(0),
      ],
    ],
  );
  await loupe.stop();
  await site.close();
});
