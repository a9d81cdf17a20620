/**
 * Loupe Health on real sites, as they are and with known defects planted, one at a time
 * (issue #24 point 4): `node bench/score-calibration.ts` (Node 24). Prints each crawl's score,
 * grade, share of URLs free of errors and the rules that cost most, then a table of every
 * planted defect: the score before and after, the change, the direction expected and the rules
 * that moved. The README's "Health score" section records its figures.
 *
 *   BENCH_SITES        which sites, comma-separated: nodejs, libxslt, valgrind (default all three), pgdocs
 *   BENCH_DEFECTS      which planted defects, comma-separated (default all; names in DEFECTS below)
 *   BENCH_PGDOCS_DIR   the PostgreSQL 15 manual, unpacked (default /tmp/pgdocs; made with
 *                      ../shared/testdata/sites/postgres-docs.sh when missing)
 *   BENCH_CONCURRENCY  requests in flight to the site (default 8)
 *   BENCH_DELETED      linked pages deleted by the "pages deleted" defect (default 5)
 *   BENCH_TOP          rules listed under "costs most" for each crawl (default 6)
 *
 * The sites are Debian's HTML documentation found on this machine, copied as they are into a
 * temp dir and served from there by sirv (static-site.ts's server) on loopback:
 *   - nodejs: the Node.js API docs (/usr/share/doc/nodejs/api, 65 pages), with the targets of
 *     their "View as JSON" links gunzipped, as nodejs.org serves them (Debian gzips them, which
 *     would leave every page a broken link that is the packaging's, not the site's);
 *   - libxslt: the libxslt site (/usr/share/doc/libxslt1-dev/html, 70 pages of 2000s XHTML);
 *   - valgrind: the Valgrind manual (/usr/share/doc/valgrind/html, 40 DocBook pages);
 *   - pgdocs: the PostgreSQL manual (1,169 pages), only when asked: a crawl takes minutes.
 * Each is crawled from /index.html as it is over http://, then over https:// (a self-signed
 * certificate for 127.0.0.1 that the Loupe server trusts through NODE_EXTRA_CA_CERTS; its
 * http:// twin answers nothing), then the reference: over https with a robots.txt and a
 * sitemap.xml listing every page added, as a site owner who set up the basics would serve it.
 * Each defect is planted in a fresh copy of the reference, on pages picked once per site
 * (linked from another page, never the start page, spread over the sorted list), so that the
 * "all" row plants them together on distinct pages. The sitemap is written after the defect,
 * from the pages then present, as a generator would.
 *
 * One Loupe server (`npm start`'s way, SQLite, business plan, LOUPE_CRAWL_ALLOW_PRIVATE=1)
 * crawls everything, with sitemaps read and external links not checked (no network here; the
 * resolver of bench/bench-resolver.ts answers every other name NXDOMAIN).
 */

import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import sirv from 'sirv';
import { TINY_PNG } from '../packages/server/src/testing/fixture-sites.ts';
import { testCertificate } from '../packages/server/src/testing/test-certificate.ts';
import { cleanups, loadAverage, printTable, run, runBench, sleep, wholeNumberSetting } from './bench-kit.ts';
import { type Loupe, loupeApi, startLoupe } from './loupe-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PGDOCS_SCRIPT = join(ROOT, '../shared/testdata/sites/postgres-docs.sh');
const CERT_FILE = join(ROOT, 'packages/server/src/testing/fixtures/test-site-cert.pem');
const RESOLVER_FLAGS = ['--import', pathToFileURL(join(ROOT, 'bench/bench-resolver.ts')).href];
const START_PATH = '/index.html';
const TIMEOUT_MS = 30 * 60_000;
const DELETED = wholeNumberSetting('BENCH_DELETED', 5, 1, 500);
const TOP = wholeNumberSetting('BENCH_TOP', 6, 1, 500);

interface SiteSource {
  name: string;
  dir: string;
  about: string;
  /** Undoes what packaging did to the site as its authors publish it, in the copy. */
  prepare?(dir: string): Promise<void>;
}

/** Debian gzips the targets of the pages' "View as JSON" links; nodejs.org serves them plain. */
async function gunzipJson(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.json.gz')) continue;
    await writeFile(join(dir, name.slice(0, -3)), gunzipSync(await readFile(join(dir, name))));
    await unlink(join(dir, name));
  }
}

const SOURCES: Record<string, () => SiteSource> = {
  nodejs: () => ({ name: 'nodejs', dir: '/usr/share/doc/nodejs/api', about: 'Node.js API docs', prepare: gunzipJson }),
  libxslt: () => ({ name: 'libxslt', dir: '/usr/share/doc/libxslt1-dev/html', about: 'libxslt site' }),
  valgrind: () => ({ name: 'valgrind', dir: '/usr/share/doc/valgrind/html', about: 'Valgrind manual' }),
  pgdocs: () => ({ name: 'pgdocs', dir: process.env.BENCH_PGDOCS_DIR || '/tmp/pgdocs', about: 'PostgreSQL 15 manual' }),
};

// ---------------------------------------------------------------------------------------
// A copy of a site and the changes planted in it.

/** What a variant serves: a folder, over http or https, with redirects answered before the files. */
interface Variant {
  dir: string;
  https: boolean;
  /** Path → Location, answered 301. */
  redirects: Map<string, string>;
}

/** The pages each defect is planted on, picked once per site. */
interface Picks {
  broken: string[];
  noTitle: string[];
  duplicateTitle: string[];
  /** The page whose title the duplicates take. */
  titleSource: string;
  noindex: string;
  moved: string;
  noAlt: string[];
}

interface Defect {
  name: string;
  /** What a site owner should see happen to the score. */
  expected: string;
  plant(variant: Variant, picks: Picks): Promise<void>;
  /** Leaves the sitemap and robots.txt out. */
  noSitemap?: boolean;
  http?: boolean;
}

const fileOf = (dir: string, path: string) => join(dir, ...path.split('/').filter(Boolean));

async function editPage(dir: string, path: string, edit: (html: string) => string): Promise<void> {
  const file = fileOf(dir, path);
  const html = await readFile(file, 'latin1');
  const edited = edit(html);
  if (edited === html) throw new Error(`planting in ${path} changed nothing`);
  await writeFile(file, edited, 'latin1');
}

const TITLE = /<title[^>]*>([\s\S]*?)<\/title>/i;

async function titleOf(dir: string, path: string): Promise<string> {
  return TITLE.exec(await readFile(fileOf(dir, path), 'latin1'))?.[1] ?? '';
}

const plantNoTitle = (count: number) => async (variant: Variant, picks: Picks) => {
  for (const path of picks.noTitle.slice(0, count)) await editPage(variant.dir, path, (html) => html.replace(TITLE, ''));
};

const DEFECTS: Defect[] = [
  { name: 'http', expected: 'down: one root cause, on every page', http: true, plant: async () => {} },
  { name: 'no sitemap', expected: 'down ≤ 1 point (sitemap, robots.txt gone)', noSitemap: true, plant: async () => {} },
  {
    name: `${DELETED} pages deleted`,
    expected: 'down, more than no sitemap',
    plant: async (variant, picks) => {
      for (const path of picks.broken) await unlink(fileOf(variant.dir, path));
    },
  },
  { name: '1 title removed', expected: 'down a little (< 1 point)', plant: plantNoTitle(1) },
  { name: '3 titles removed', expected: 'down, about 3× one title', plant: plantNoTitle(3) },
  {
    name: '2 titles duplicated',
    expected: 'down a little',
    plant: async (variant, picks) => {
      const title = await titleOf(variant.dir, picks.titleSource);
      for (const path of picks.duplicateTitle) await editPage(variant.dir, path, (html) => html.replace(TITLE, `<title>${title}</title>`));
    },
  },
  {
    name: '1 page noindex',
    expected: 'down a little',
    plant: (variant, picks) =>
      editPage(variant.dir, picks.noindex, (html) =>
        html.replace(/<head[^>]*>/i, (head) => `${head}<meta name="robots" content="noindex">`),
      ),
  },
  {
    name: 'redirect chain',
    expected: 'down a little (1 page moved, 2 hops)',
    plant: async (variant, picks) => {
      // `/a/b.html` now lives at `/a/b-v2.html`; the old URL answers 301 → `/a/b-v1.html` → 301 → the new one.
      const base = picks.moved.replace(/\.html$/, '');
      await cp(fileOf(variant.dir, picks.moved), fileOf(variant.dir, `${base}-v2.html`));
      await unlink(fileOf(variant.dir, picks.moved));
      variant.redirects.set(picks.moved, `${base}-v1.html`);
      variant.redirects.set(`${base}-v1.html`, `${base}-v2.html`);
    },
  },
  {
    name: '3 images without alt',
    expected: 'down a little',
    plant: async (variant, picks) => {
      await writeFile(join(variant.dir, 'planted-photo.png'), TINY_PNG);
      for (const path of picks.noAlt) {
        await editPage(variant.dir, path, (html) =>
          html.replace(/<\/body>/i, '<p><img src="/planted-photo.png" width="640" height="480"></p></body>'),
        );
      }
    },
  },
];

const ALL: Defect = {
  name: 'all of them but http',
  expected: 'down, about the sum',
  noSitemap: true,
  plant: async (variant, picks) => {
    // The three titles removed include the one.
    for (const defect of DEFECTS) if (defect.name !== '1 title removed') await defect.plant(variant, picks);
  },
};

/** Every HTML page under `dir`, as site paths (`/a/b.html`), sorted. */
async function htmlPaths(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map(
      (entry) =>
        `/${posix.join(
          ...join(entry.parentPath, entry.name)
            .slice(dir.length + 1)
            .split(/[\\/]/),
        )}`,
    )
    .sort();
}

/** Pages linked from another page (by a plain href), start page aside. */
async function linkedPages(dir: string, pages: string[]): Promise<string[]> {
  const known = new Set(pages);
  const linked = new Set<string>();
  for (const page of pages) {
    const html = await readFile(fileOf(dir, page), 'latin1');
    for (const match of html.matchAll(/href\s*=\s*["']([^"'#?]+)/gi)) {
      let target: string;
      try {
        const url = new URL(match[1]!, `http://site${page}`);
        if (url.host !== 'site') continue;
        target = decodeURIComponent(url.pathname);
      } catch {
        continue;
      }
      if (target !== page && known.has(target)) linked.add(target);
    }
  }
  return pages.filter((page) => linked.has(page) && page !== START_PATH);
}

/** Distinct pages spread over the linked ones, each with a <title>, for the defects to share out. */
async function pick(dir: string, pages: string[]): Promise<Picks> {
  const candidates: string[] = [];
  for (const page of await linkedPages(dir, pages)) if (await titleOf(dir, page)) candidates.push(page);
  const wanted = DELETED + 11;
  if (candidates.length < wanted) throw new Error(`only ${candidates.length} linked pages with a title in ${dir}`);
  const step = candidates.length / wanted;
  const chosen = Array.from({ length: wanted }, (_, i) => candidates[Math.floor(i * step)]!);
  return {
    broken: chosen.slice(0, DELETED),
    noTitle: chosen.slice(DELETED, DELETED + 3),
    duplicateTitle: chosen.slice(DELETED + 3, DELETED + 5),
    titleSource: chosen[DELETED + 5]!,
    noindex: chosen[DELETED + 6]!,
    moved: chosen[DELETED + 7]!,
    noAlt: chosen.slice(DELETED + 8, DELETED + 11),
  };
}

async function writeSitemap(dir: string, origin: string): Promise<void> {
  const urls = (await htmlPaths(dir)).map((path) => `<url><loc>${origin}${encodeURI(path)}</loc></url>`);
  await writeFile(
    join(dir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
  );
  await writeFile(join(dir, 'robots.txt'), `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`);
}

// ---------------------------------------------------------------------------------------
// Serving a variant.

interface Served {
  origin: string;
  close(): Promise<void>;
}

/**
 * The folder by sirv over http or https on a port chosen first, so that the sitemap, written
 * before serving, can name the origin. An https server's http:// twin answers nothing.
 */
async function serve(variant: Variant, before: (origin: string) => Promise<void>): Promise<Served> {
  let files: ReturnType<typeof sirv> | undefined;
  const handler: RequestListener = (request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://site').pathname;
    const location = variant.redirects.get(pathname);
    if (location) {
      response.writeHead(301, { location, 'content-type': 'text/plain' });
      response.end('Moved');
      return;
    }
    files!(request, response, () => {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found');
    });
  };
  const server = variant.https ? createHttpsServer(testCertificate, handler) : createHttpServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `${variant.https ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await before(origin);
  // Not dev: the file list is read once, now that every file is written.
  files = sirv(variant.dir, { dev: false, etag: true, gzip: false, brotli: false });
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
  cleanups.push(close);
  return { origin, close };
}

// ---------------------------------------------------------------------------------------
// Crawling and reading the report.

interface Issue {
  ruleId: string;
  severity: string;
  scope: string;
  pages: number;
  lostPoints: number;
  gain: number;
}

interface Report {
  health: { score: number | null; grade: string | null; exactScore: number | null; errorFreeShare: number | null; scoredUrls: number };
  issues: Issue[];
}

async function crawl(loupe: Loupe, origin: string, maxPages: number, concurrency: number): Promise<Report> {
  const started = await loupeApi(loupe, 'POST', '/api/v1/crawls', {
    url: `${origin}${START_PATH}`,
    mode: 'site',
    maxPages,
    concurrency,
    sitemaps: true,
    checkExternalLinks: false,
  });
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const row = await loupeApi(loupe, 'GET', `/api/v1/crawls/${started.id}`);
    if (row.status !== 'queued' && row.status !== 'running') {
      if (row.status !== 'completed' || !row.reportId) throw new Error(`the crawl of ${origin} ended ${row.status}: ${row.error ?? ''}`);
      return (await loupeApi(loupe, 'GET', `/api/v1/reports/${row.reportId}`)) as Report;
    }
    if (Date.now() > deadline) throw new Error(`the crawl of ${origin} did not end within ${TIMEOUT_MS / 60_000} min`);
    await sleep(300);
  }
}

/** Response times on a loaded 2-core machine vary from run to run: compare scores as if none were slow. */
const TIMING_RULES = new Set(['performance/slow-ttfb']);

/** The exact score with the timing rules' findings removed (their gain added back). */
function steadyScore(report: Report): number {
  const timing = report.issues.filter((issue) => TIMING_RULES.has(issue.ruleId));
  return report.health.exactScore! + timing.reduce((sum, issue) => sum + issue.gain, 0);
}

const percent = (share: number | null) => (share === null ? '–' : `${Math.round(share * 100)} %`);
const points = (value: number) => value.toFixed(1);
const scoreText = (report: Report) => `${report.health.score ?? 'N/A'} (${report.health.grade ?? '–'})`;

/** The rules that cost most, as `rule 12.3 (40 p)`. */
function topIssues(report: Report, count: number): string {
  return report.issues
    .filter((issue) => issue.lostPoints > 0.05)
    .slice(0, count)
    .map((issue) => `${issue.ruleId} ${points(issue.lostPoints)} (${issue.scope === 'site' ? 'site' : `${issue.pages} p`})`)
    .join('; ');
}

/** The rules whose cost changed most from `before` to `after`, as `+rule 3.1 (5 p)`. */
function moved(before: Report, after: Report, count: number): string {
  const was = new Map(before.issues.map((issue) => [issue.ruleId, issue]));
  const now = new Map(after.issues.map((issue) => [issue.ruleId, issue]));
  const changes: { ruleId: string; delta: number; pages: string }[] = [];
  for (const ruleId of new Set([...was.keys(), ...now.keys()])) {
    if (TIMING_RULES.has(ruleId)) continue;
    const a = was.get(ruleId);
    const b = now.get(ruleId);
    const delta = (b?.lostPoints ?? 0) - (a?.lostPoints ?? 0);
    const pages = b?.scope === 'site' || a?.scope === 'site' ? 'site' : `${a?.pages ?? 0}→${b?.pages ?? 0} p`;
    if (Math.abs(delta) >= 0.05 || (a?.pages ?? -1) !== (b?.pages ?? -1)) changes.push({ ruleId, delta, pages });
  }
  return changes
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta))
    .slice(0, count)
    .map((change) => `${change.ruleId} ${change.delta >= 0 ? '+' : ''}${points(change.delta)} (${change.pages})`)
    .join('; ');
}

// ---------------------------------------------------------------------------------------

interface Row {
  site: string;
  variant: string;
  report: Report;
  reference?: Report;
  expected?: string;
}

async function main(): Promise<void> {
  const names = (process.env.BENCH_SITES || 'nodejs,libxslt,valgrind').split(',').map((name) => name.trim());
  for (const name of names)
    if (!SOURCES[name]) throw new Error(`BENCH_SITES: unknown "${name}" (known: ${Object.keys(SOURCES).join(', ')})`);
  const known = [...DEFECTS, ALL].map((defect) => defect.name);
  const chosenDefects = process.env.BENCH_DEFECTS ? process.env.BENCH_DEFECTS.split(',').map((name) => name.trim()) : known;
  for (const name of chosenDefects)
    if (!known.includes(name)) throw new Error(`BENCH_DEFECTS: unknown "${name}" (known: ${known.join(', ')})`);
  const concurrency = wholeNumberSetting('BENCH_CONCURRENCY', 8, 1, 32);

  console.log('Loupe Health calibration on real sites');
  console.log(`date:         ${new Date().toISOString()}`);
  console.log(`node:         ${process.version}, ${availableParallelism()} cpus, load ${loadAverage()}`);
  console.log(`crawls:       from ${START_PATH}, sitemaps read, external links not checked, concurrency ${concurrency}`);
  console.log('');

  const loupe = await startLoupe({
    label: 'score-calibration',
    env: { LOUPE_CRAWL_ALLOW_PRIVATE: '1', NODE_EXTRA_CA_CERTS: CERT_FILE, BENCH_EXTERNAL: 'nxdomain' },
    nodeFlags: RESOLVER_FLAGS,
    setUp: (workspaceId) => [
      ['admin', 'set-plan', '--workspace', workspaceId, '--plan', 'business', '--json'],
      ['admin', 'grant-credits', '--workspace', workspaceId, '--amount', '200000', '--note', 'bench:score-calibration', '--json'],
    ],
  });
  const temp = await mkdtemp(join(tmpdir(), 'loupe-bench-score-'));
  cleanups.push(() => rm(temp, { recursive: true, force: true }));

  const rows: Row[] = [];
  for (const name of names) {
    const source = SOURCES[name]!();
    if (name === 'pgdocs' && !existsSync(join(source.dir, 'index.html'))) {
      console.log(`unpacking the PostgreSQL manual into ${source.dir}…`);
      const made = await run('bash', [PGDOCS_SCRIPT, source.dir]);
      if (made.code !== 0) throw new Error(`${PGDOCS_SCRIPT} failed:\n${made.stderr}${made.stdout}`);
    }
    const original = join(temp, `${name}-original`);
    await cp(source.dir, original, { recursive: true, dereference: true });
    await source.prepare?.(original);
    const pages = await htmlPaths(original);
    const picks = await pick(original, pages);
    const maxPages = pages.length + 50;
    let copies = 0;

    /** A fresh copy with `plant` applied, served and crawled. */
    const crawlVariant = async (options: { https: boolean; sitemap: boolean; plant?: (variant: Variant) => Promise<void> }) => {
      const variant: Variant = { dir: join(temp, `${name}-${copies++}`), https: options.https, redirects: new Map() };
      await cp(original, variant.dir, { recursive: true });
      await options.plant?.(variant);
      const served = await serve(variant, async (origin) => {
        if (options.sitemap) await writeSitemap(variant.dir, origin);
      });
      try {
        return await crawl(loupe, served.origin, maxPages, concurrency);
      } finally {
        await served.close();
        await rm(variant.dir, { recursive: true, force: true });
      }
    };

    console.log(`${source.about} (${name}): ${pages.length} HTML pages from ${source.dir}`);
    const report = (variant: string, result: Report, reference?: Report, expected?: string) => {
      rows.push({ site: name, variant, report: result, reference, expected });
      const delta = reference ? `, ${signed(steadyScore(result) - steadyScore(reference))} points (slow-ttfb aside)` : '';
      console.log(
        `  ${variant}: ${scoreText(result)}${delta}, error-free ${percent(result.health.errorFreeShare)}, ${result.health.scoredUrls} URLs scored`,
      );
      console.log(`    costs most: ${topIssues(result, TOP)}`);
      if (reference) console.log(`    moved: ${moved(reference, result, 4)}`);
    };
    const asIs = await crawlVariant({ https: false, sitemap: false });
    report('as it is, http', asIs);
    const asIsHttps = await crawlVariant({ https: true, sitemap: false });
    report('as it is, https', asIsHttps, asIs, 'up: security/not-https gone');
    const reference = await crawlVariant({ https: true, sitemap: true });
    report('reference: https + sitemap + robots.txt', reference, asIsHttps, 'up a little');
    for (const defect of [...DEFECTS, ALL]) {
      if (!chosenDefects.includes(defect.name)) continue;
      const result = await crawlVariant({
        https: !defect.http,
        sitemap: !defect.noSitemap,
        plant: (variant) => defect.plant(variant, picks),
      });
      report(defect.name, result, reference, defect.expected);
    }
    console.log(`  planted on: ${JSON.stringify(picks)}`);
    console.log('');
  }

  printTable(
    ['site', 'variant', 'score', 'steady*', 'Δ*', 'error-free', 'expected', 'what moved (points, pages)'],
    rows.map((row) => [
      row.site,
      row.variant,
      scoreText(row.report),
      steadyScore(row.report).toFixed(1),
      row.reference ? signed(steadyScore(row.report) - steadyScore(row.reference)) : '',
      percent(row.report.health.errorFreeShare),
      row.expected ?? '',
      row.reference ? moved(row.reference, row.report, 3) : topIssues(row.report, 3),
    ]),
  );
  console.log('* steady: the exact score with slow-ttfb findings aside (response times vary with the load of the machine);');
  console.log('  Δ: its change from the row before (https, reference) or from the reference (a defect)');
  console.log(`load average at the end: ${loadAverage()}`);
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;
}

await runBench(main);
