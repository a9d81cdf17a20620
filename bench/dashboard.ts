/**
 * The dashboard's two figures (issue #7). Run by hand: `node_modules/.bin/node bench/dashboard.ts`.
 *
 *   1. Initial route size: the production build (`vite build`, as `npm run build -w
 *      packages/dashboard` makes it, into packages/dashboard/dist) and the JS and CSS that its
 *      index.html loads (module script, module preloads, stylesheets), each gzipped at level 9
 *      as the build's own .gz copies are, summed. Aim: under 250 KB. Printed beside it: what
 *      the report route loads on top (its lazy chunk with the chunks and CSS it imports).
 *   2. Time to first render of the report page with BENCH_PAGES pages (default 10,000) in its
 *      page index, on localhost in Debian's Chromium: from navigation start (the page's time
 *      origin) to the first rows of the page index in the document and painted (a frame
 *      later: requestAnimationFrame, then a task). Median of BENCH_RUNS runs (default 7) with
 *      the browser's cache off (a first visit) and as many with it on (a return visit, the
 *      hashed assets cached). Aim: under 1 s.
 *
 *   BENCH_PAGES  pages of the report (default 10000)
 *   BENCH_RUNS   timed page loads per cache mode (default 7)
 *
 * The report is not crawled: `loupe init` and `loupe serve` run as for the search bench
 * (bench/loupe-server.ts), a project is created over the API, and the crawl is written straight
 * into the tables with its report built by the server's own report builder
 * (bench/seed-crawl.ts), so the report, its page index and page detail answer as after a real
 * crawl. Its pages carry a spread of statuses, depths and findings, so the report has issues
 * in several categories. The browser signs in through the first-run endpoint's cookie.
 */
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { launchChromium } from '../packages/dashboard/src/e2e/chromium.ts';
import { cleanups, loadAverage, note, notes, printTable, quantile, runBench, wholeNumberSetting } from './bench-kit.ts';
import { type Loupe, loupeApi, startLoupe } from './loupe-server.ts';
import { type SeedFinding, seedCrawl } from './seed-crawl.ts';

const DASHBOARD = fileURLToPath(new URL('../packages/dashboard/', import.meta.url));
const DIST = join(DASHBOARD, 'dist');
const AIM_INITIAL_KB = 250;
const AIM_RENDER_MS = 1000;

const SETTINGS = {
  pages: wholeNumberSetting('BENCH_PAGES', 10_000, 100, 200_000),
  runs: wholeNumberSetting('BENCH_RUNS', 7, 1, 50),
};

const gzipped = promisify(gzip);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

// ---------------------------------------------------------------------------------------
// 1. The initial route's size.

interface Asset {
  file: string;
  bytes: number;
  gzipBytes: number;
}

async function assetSize(file: string): Promise<Asset> {
  const data = await readFile(join(DIST, file));
  return { file, bytes: data.length, gzipBytes: (await gzipped(data, { level: 9 })).length };
}

/** Built chunks as the build answers them (rolldown's output chunks, with Vite's CSS metadata). */
interface BuiltChunk {
  type: 'chunk';
  fileName: string;
  facadeModuleId: string | null;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

async function measureBuild(): Promise<{ initial: Asset[]; report: Asset[] }> {
  const answer = (await build({ root: DASHBOARD, logLevel: 'warn' })) as
    | { output: (BuiltChunk | { type: 'asset' })[] }
    | { output: (BuiltChunk | { type: 'asset' })[] }[];
  const output = (Array.isArray(answer) ? answer[0]! : answer).output;
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  // Everything index.html makes the browser fetch before the app runs: the module, its preloads, the styles.
  const loaded = [
    ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="(?:stylesheet|modulepreload)"[^>]*\shref)="\/([^"]+\.(?:js|css))"/g),
  ].map((match) => match[1]!);
  if (loaded.length === 0) throw new Error('index.html loads no JS or CSS: is the build broken?');
  const initial = await Promise.all(loaded.map(assetSize));

  const chunks = output.filter((item): item is BuiltChunk => item.type === 'chunk');
  const route = chunks.find((chunk) => chunk.facadeModuleId?.endsWith('/src/reports/report-page.tsx'));
  if (!route) throw new Error('no chunk of src/reports/report-page.tsx in the build: is the report route lazy?');
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const files = new Set<string>();
  const visit = (chunk: BuiltChunk) => {
    if (files.has(chunk.fileName)) return;
    files.add(chunk.fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
    for (const imported of chunk.imports) visit(byName.get(imported)!);
  };
  visit(route);
  const report = await Promise.all([...files].filter((file) => !loaded.includes(file)).map(assetSize));
  return { initial, report };
}

// ---------------------------------------------------------------------------------------
// 2. The report page's first render.

const FINDINGS_EVERY: [every: number, finding: SeedFinding][] = [
  [3, { ruleId: 'descriptions/missing', severity: 'warning' }],
  [7, { ruleId: 'titles/too-long', severity: 'warning' }],
  [11, { ruleId: 'headings/h1-missing', severity: 'warning' }],
  [13, { ruleId: 'content/thin', severity: 'notice' }],
  [17, { ruleId: 'canonical/missing', severity: 'notice' }],
  [50, { ruleId: 'titles/missing', severity: 'error' }],
];

/** Product pages of a shop; every 97th answers 404 and every 211th 500. */
function shopPage(n: number) {
  const status = n % 211 === 210 ? 500 : n % 97 === 96 ? 404 : 200;
  const title = n % 50 === 49 ? null : `Product ${n}: a thing the bench shop sells, in colour ${n % 12}`;
  const words = 150 + ((n * 37) % 900);
  return {
    path: `/products/${n}`,
    title,
    status,
    depth: 1 + (n % 4),
    responseMs: 20 + ((n * 53) % 400),
    bytes: 8_000 + ((n * 101) % 40_000),
    words,
    summary: {
      title,
      titleLength: title?.length ?? 0,
      description: n % 3 === 2 ? null : `About product ${n}.`,
      descriptionLength: 18,
      h1: n % 11 === 10 ? null : `Product ${n}`,
      h1Count: n % 11 === 10 ? 0 : 1,
      wordCount: words,
      lang: 'en',
      canonical: null,
      noindex: false,
      indexable: true,
      linkCount: 20,
      internalLinkCount: 18,
      externalLinkCount: 2,
      imageCount: 3,
      htmlBytes: 8_000,
    },
    findings:
      status === 200
        ? FINDINGS_EVERY.filter(([every]) => n % every === every - 1).map(([, finding]) => finding)
        : [
            {
              ruleId: status === 404 ? 'status/client-error' : 'status/server-error',
              severity: 'error' as const,
              detail: `answered ${status}`,
            },
          ],
  };
}

async function signedInCookie(loupe: Loupe): Promise<{ name: string; value: string }> {
  const response = await fetch(`${loupe.url}/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench Owner', email: 'bench@example.test', password: 'correct horse battery staple' }),
  });
  if (response.status !== 201) throw new Error(`POST /api/setup: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('loupe_session='));
  if (!cookie) throw new Error('the first run answered no session cookie');
  const [name, value] = cookie.split(';')[0]!.split('=') as [string, string];
  return { name, value };
}

/**
 * Set before any script of the page: records when the page index's first rows are in the
 * document and, a frame later, painted; and how many rows it holds then.
 */
function watchFirstRows(): void {
  const record = window as unknown as { __firstRows?: { inDom: number; painted?: number; rows: number } };
  const observer = new MutationObserver(() => {
    const rows = document.querySelectorAll('table.page-index tbody tr');
    if (rows.length === 0 || record.__firstRows) return;
    observer.disconnect();
    const seen = { inDom: performance.now(), rows: rows.length } as { inDom: number; painted?: number; rows: number };
    record.__firstRows = seen;
    requestAnimationFrame(() => setTimeout(() => (seen.painted = performance.now())));
  });
  observer.observe(document, { childList: true, subtree: true });
}

interface Load {
  inDom: number;
  painted: number;
  rows: number;
  /** When the answers of getReport and the page index's first page had arrived, ms from navigation start. */
  reportApi: number;
  pagesApi: number;
  scripts: number;
}

async function timeLoad(page: Page, url: string): Promise<Load> {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(
    () => (window as unknown as { __firstRows?: { painted?: number } }).__firstRows?.painted !== undefined,
    undefined,
    { timeout: 30_000 },
  );
  return page.evaluate(() => {
    const seen = (window as unknown as { __firstRows: { inDom: number; painted: number; rows: number } }).__firstRows;
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const ended = (test: (name: string) => boolean) => {
      const ends = resources.filter((entry) => test(entry.name)).map((entry) => entry.responseEnd);
      return ends.length === 0 ? Number.NaN : Math.max(...ends);
    };
    return {
      ...seen,
      reportApi: ended((name) => /\/api\/v1\/reports\/[^/?]+$/.test(name)),
      pagesApi: ended((name) => /\/api\/v1\/reports\/[^/?]+\/pages\?/.test(name)),
      scripts: ended((name) => /\/assets\/.+\.js$/.test(name)),
    };
  });
}

async function measureRender(): Promise<{ cold: Load[]; warm: Load[]; seedSeconds: number; reportPages: number }> {
  const loupe = await startLoupe({ label: 'dashboard', dialect: 'sqlite' });
  const cookie = await signedInCookie(loupe);
  const project = await loupeApi(loupe, 'POST', '/api/v1/projects', { name: 'Bench shop', siteUrl: 'https://shop.example/' });
  const t0 = performance.now();
  const { reportId } = await seedCrawl(loupe, {
    projectId: project.id,
    site: 'https://shop.example',
    pages: SETTINGS.pages,
    report: 'built',
    page: shopPage,
  });
  const seedSeconds = (performance.now() - t0) / 1000;
  const report = await loupeApi(loupe, 'GET', `/api/v1/reports/${reportId}`);
  console.log(
    `  report of ${report.pages.crawled} pages written and built in ${fixed(seedSeconds, 1)} s: health ${report.health.score} (${report.health.grade}), ${report.issues.length} issues`,
  );

  const browser = await launchChromium();
  cleanups.push(() => browser.close());
  await browser.context.addCookies([{ ...cookie, url: loupe.url }]);
  await browser.context.addInitScript(watchFirstRows);
  const page = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Network.enable');
  const url = `${loupe.url}/w/${loupe.workspaceId}/reports/${reportId}`;
  // One load first, not timed: the server's and the browser's first-use costs (JIT, connections) are not the page's.
  await timeLoad(page, url);
  const runs = async (cacheDisabled: boolean) => {
    await cdp.send('Network.setCacheDisabled', { cacheDisabled });
    const loads: Load[] = [];
    for (let run = 0; run < SETTINGS.runs; run++) loads.push(await timeLoad(page, url));
    return loads;
  };
  const cold = await runs(true);
  const warm = await runs(false);
  return { cold, warm, seedSeconds, reportPages: report.pages.crawled };
}

// ---------------------------------------------------------------------------------------

async function main(): Promise<void> {
  console.log(
    `dashboard bench: ${SETTINGS.pages} report pages, ${SETTINGS.runs} runs per cache mode; ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load ${loadAverage()}`,
  );

  console.log('\n== 1. initial route size (production build)');
  const sizes = await measureBuild();
  const total = (assets: Asset[]) => assets.reduce((sum, asset) => sum + asset.gzipBytes, 0);
  printTable(
    ['file loaded by index.html', 'KB', 'gzip KB'],
    [
      ...sizes.initial.map((asset) => [asset.file, kb(asset.bytes), kb(asset.gzipBytes)]),
      ['total', kb(sizes.initial.reduce((sum, asset) => sum + asset.bytes, 0)), kb(total(sizes.initial))],
    ],
  );
  console.log('');
  printTable(
    ['report route, on top', 'KB', 'gzip KB'],
    [
      ...sizes.report.map((asset) => [asset.file, kb(asset.bytes), kb(asset.gzipBytes)]),
      ['total', kb(sizes.report.reduce((sum, asset) => sum + asset.bytes, 0)), kb(total(sizes.report))],
    ],
  );

  console.log(`\n== 2. report page, time to first render (${SETTINGS.pages} pages)`);
  const render = await measureRender();
  const rows = [...render.cold.map((load) => ['cache off', load] as const), ...render.warm.map((load) => ['cache on', load] as const)];
  printTable(
    ['run', 'scripts ms', 'report API ms', 'pages API ms', 'rows in DOM ms', 'painted ms', 'rows'],
    rows.map(([mode, load]) => [
      mode,
      fixed(load.scripts, 0),
      fixed(load.reportApi, 0),
      fixed(load.pagesApi, 0),
      fixed(load.inDom, 0),
      fixed(load.painted, 0),
      String(load.rows),
    ]),
  );
  const median = (loads: Load[]) =>
    quantile(
      loads.map((load) => load.painted),
      0.5,
    );
  const initialKb = total(sizes.initial) / 1024;
  const coldMs = median(render.cold);
  const warmMs = median(render.warm);
  if (render.reportPages !== SETTINGS.pages) note(`the report holds ${render.reportPages} pages, not ${SETTINGS.pages}`);
  const rendered = new Set([...render.cold, ...render.warm].map((load) => load.rows));
  if ([...rendered].some((count) => count >= render.reportPages)) note('the page index rendered every page at once');

  console.log('');
  printTable(
    ['figure', 'value', 'aim', 'met'],
    [
      ['initial route, gzip', `${fixed(initialKb, 1)} KB`, `< ${AIM_INITIAL_KB} KB`, initialKb < AIM_INITIAL_KB ? 'yes' : 'no'],
      [
        `report page first render, ${render.reportPages} pages, cache off (median of ${render.cold.length})`,
        `${fixed(coldMs, 0)} ms`,
        `< ${AIM_RENDER_MS} ms`,
        coldMs < AIM_RENDER_MS ? 'yes' : 'no',
      ],
      [
        `report page first render, ${render.reportPages} pages, cache on (median of ${render.warm.length})`,
        `${fixed(warmMs, 0)} ms`,
        `< ${AIM_RENDER_MS} ms`,
        warmMs < AIM_RENDER_MS ? 'yes' : 'no',
      ],
    ],
  );
  console.log(`load average at the end: ${loadAverage()} (1, 5, 15 min)`);
  for (const text of notes) console.log(`note: ${text}`);
}

await runBench(main);
