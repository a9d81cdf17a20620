/**
 * The crawler's page path in process, without network or database: what the crawl spends on
 * each page once its bytes have arrived. Run by hand: `node_modules/.bin/node bench/page-path.ts`
 * (Node 24; add `--cpu-prof` before the file to find the hot functions).
 *
 *   BENCH_PGDOCS_DIR  a directory of HTML pages, read recursively (default /tmp/pgdocs, the
 *                     PostgreSQL manual as `../shared/testdata/sites/postgres-docs.sh` unpacks it)
 *   BENCH_ROUNDS      measured rounds over all pages after one warm-up (default 5); a page's
 *                     time in a stage is its fastest round (the machine is shared: the
 *                     other rounds measure the neighbours too)
 *
 * Besides the directory's pages, one synthetic page: 5,000 links (internal, external, some
 * repeated) in about 500 KB of HTML. Stages, as the crawler runs them on a 200 text/html page:
 *
 *   decode    Buffer → string, as page-fetcher does with the body's chunks
 *   facts     extractPageFacts (the one parse of the page)
 *   summary   summarizePage on those facts
 *   rules     runPageRules on those facts
 *   record    recordFetchedPage: facts, summary, rules, links and discoveries together
 *   compress  the zstd compression of markup and visible text done in CrawlStore.recordPage
 *
 * The path is decode + record + compress (summary and rules are inside record, shown apart).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { zstdCompressSync } from 'node:zlib';
import { runPageRules } from '../packages/server/src/audit/page-rules/index.ts';
import { summarizePage } from '../packages/server/src/audit/page-summary.ts';
import type { AuditedPage } from '../packages/server/src/audit/rule.ts';
import { crawlOptions } from '../packages/server/src/crawl/crawl-options.ts';
import { urlKey, type CrawlUrlRow } from '../packages/server/src/crawl/crawl-store.ts';
import { extractPageFacts } from '../packages/server/src/crawl/page-facts.ts';
import type { FetchedPage } from '../packages/server/src/crawl/page-fetcher.ts';
import { recordFetchedPage } from '../packages/server/src/crawl/page-record.ts';
import { createScopeFilter } from '../packages/server/src/crawl/scope-filter.ts';
import { loadAverage, printTable, quantile, runBench } from './bench-kit.ts';

const DIR = process.env.BENCH_PGDOCS_DIR ?? '/tmp/pgdocs';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ORIGIN = 'http://docs.example.test';
const STAGES = ['decode', 'facts', 'summary', 'rules', 'record', 'compress'] as const;
type Stage = (typeof STAGES)[number];

interface BenchPage {
  name: string;
  body: Buffer;
}

/** 5,000 links, a third external, one in ten repeated, with prose between them: about 500 KB. */
export function largePage(links = 5_000): string {
  const parts = ['<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Index of everything</title>',
    '<meta name="description" content="Every term of the manual and where it is explained."></head><body><h1>Index</h1><ul>'];
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
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.html')).map((entry) => join(entry.parentPath, entry.name)).sort();
}

function fetchedPage(url: string, html: string, bytes: number): FetchedPage {
  return {
    url, finalUrl: url, status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'content-length': String(bytes) },
    contentType: 'text/html; charset=utf-8', html, bytes, truncated: false, ttfbMs: 1, responseMs: 2, redirects: [],
    error: null, retryAfterSeconds: null, connectionLost: false,
  };
}

function row(url: string): CrawlUrlRow {
  return {
    id: 'u1', crawl_id: 'c1', url, url_key: urlKey(url), depth: 1, state: 'fetching', kind: 'page', source: 'link',
    status_code: null, final_url: null, content_type: null, bytes: null, response_ms: null, redirects: null, fetch_error: null,
    fetched_at: null, headers: null, ttfb_ms: null, summary: null, title_hash: null, description_hash: null, text_hash: null,
    simhash: null, lang: null, word_count: null, indexable: null,
  } as CrawlUrlRow;
}

/** One page through every stage; returns ms per stage. */
function runPage(page: BenchPage): Record<Stage, number> {
  const options = crawlOptions({ url: `${ORIGIN}/docs/` }, 100_000);
  const inScope = createScopeFilter({ origin: options.url });
  const url = `${ORIGIN}/docs/${page.name}`;
  const times = {} as Record<Stage, number>;
  let start = performance.now();
  const html = page.body.toString('utf8');
  times.decode = performance.now() - start;
  const fetched = fetchedPage(url, html, page.body.length);

  start = performance.now();
  const facts = extractPageFacts(html, url, fetched.headers);
  times.facts = performance.now() - start;
  const audited: AuditedPage = {
    url, finalUrl: url, origin: ORIGIN, status: 200, fetchError: null, contentType: fetched.contentType, headers: fetched.headers,
    bytes: fetched.bytes, ttfbMs: 1, responseMs: 2, depth: 1, facts,
  };
  start = performance.now();
  summarizePage({ ...audited, facts });
  times.summary = performance.now() - start;
  start = performance.now();
  runPageRules(audited);
  times.rules = performance.now() - start;

  start = performance.now();
  const recorded = recordFetchedPage(row(url), fetched, options, inScope, { notFoundProbe: null, robotsDisallowedFor: [] });
  times.record = performance.now() - start;
  start = performance.now();
  if (recorded.body) {
    zstdCompressSync(recorded.body.html);
    zstdCompressSync(recorded.body.text);
  }
  times.compress = performance.now() - start;
  return times;
}

async function main(): Promise<void> {
  const files = await htmlFiles(DIR);
  const pages: BenchPage[] = await Promise.all(files.map(async (file) => ({ name: file.slice(DIR.length + 1), body: await readFile(file) })));
  const large: BenchPage = { name: 'synthetic-5000-links.html', body: Buffer.from(largePage()) };
  const htmlBytes = pages.reduce((sum, page) => sum + page.body.length, 0);
  console.log(`${pages.length} pages from ${DIR} (${(htmlBytes / 1e6).toFixed(1)} MB) and one synthetic page of ${(large.body.length / 1e3).toFixed(0)} KB; load ${loadAverage()}`);

  const all = [...pages, large];
  for (const page of all) runPage(page); // warm-up
  const perPage = all.map(() => STAGES.map(() => [] as number[]));
  const pathSeconds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    all.forEach((page, index) => {
      const times = runPage(page);
      STAGES.forEach((stage, s) => perPage[index]![s]!.push(times[stage]));
    });
    pathSeconds.push((performance.now() - start) / 1000);
  }
  const fastest = perPage.map((stages) => stages.map((times) => Math.min(...times)));
  const manual = fastest.slice(0, pages.length);
  const rows = STAGES.map((stage, s) => {
    const values = manual.map((stages) => stages[s]!);
    const total = values.reduce((sum, value) => sum + value, 0);
    return [stage, quantile(values, 0.5).toFixed(3), quantile(values, 0.95).toFixed(3), Math.max(...values).toFixed(2), total.toFixed(0), fastest.at(-1)![s]!.toFixed(2)];
  });
  const pathOf = (stages: number[]) => stages[0]! + stages[4]! + stages[5]!;
  const manualPath = manual.map(pathOf);
  const manualTotal = manualPath.reduce((sum, value) => sum + value, 0);
  rows.push(['path', quantile(manualPath, 0.5).toFixed(3), quantile(manualPath, 0.95).toFixed(3), Math.max(...manualPath).toFixed(2), manualTotal.toFixed(0), pathOf(fastest.at(-1)!).toFixed(2)]);
  printTable(['stage', 'median ms', 'p95 ms', 'max ms', 'total ms (manual)', 'synthetic ms'], rows);
  const slowest = manual.map((stages, index) => ({ name: pages[index]!.name, ms: pathOf(stages) })).sort((a, b) => b.ms - a.ms).slice(0, 3);
  console.log(`slowest pages: ${slowest.map((page) => `${page.name} ${page.ms.toFixed(1)} ms`).join(', ')}`);
  // Summary and rules run again inside record: the round also does them twice, so pages/s is of the path alone.
  console.log(`path: ${(pages.length / (manualTotal / 1000)).toFixed(0)} pages/s over the manual (sum of each page's fastest round); whole rounds (with the extra stages) ${pathSeconds.map((s) => s.toFixed(2)).join(', ')} s`);
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

await runBench(main);
