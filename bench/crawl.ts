/**
 * Loupe's crawler against linkinator on the same loopback sites, in one run: `npm run bench:crawl`
 * (Node 24). Aims (the crawl benchmark issue, then issue #23 "Crawls on real sites"): at least 1.5×
 * linkinator's pages per second at the same concurrency, peak resident memory under 300 MB, flat
 * memory from 10,000 to 50,000 pages, and the report completed within 25 % of the page phase's
 * time after the last page when external hosts do not resolve.
 *
 *   BENCH_SITE             which sites: generated, pgdocs or both (default both)
 *   BENCH_PAGES            pages of the generated site both tools crawl (default 10000)
 *   BENCH_LARGE_PAGES      pages of a second generated site Loupe alone crawls, to see its memory stay
 *                          flat (default 50000; 0 skips it)
 *   BENCH_PGDOCS_DIR       the PostgreSQL 15 manual, unpacked (default /tmp/pgdocs; made with
 *                          ../shared/testdata/sites/postgres-docs.sh when missing)
 *   BENCH_CONCURRENCY      requests in flight to the site, the same for both tools (default 16; Loupe allows 1–32)
 *   BENCH_LINKS            internal links per page of the generated site (default 30)
 *   BENCH_LOUPE_SITEMAPS   1: Loupe also starts from the site's sitemaps, as its API does by default (default 0:
 *                          links only, like linkinator, so that both find the pages the same way)
 *   BENCH_TOOLS            which crawls to run, of loupe, linkinator, large (default all three)
 *   BENCH_EXTERNAL         what the hosts of external links do, for Loupe (bench-resolver.ts): nxdomain (default:
 *                          no name resolves) or slow (every name resolves to 127.0.0.2, where this process
 *                          answers http after BENCH_SLOW_MS and holds https connections silent; needs root)
 *   BENCH_DNS_DELAY_MS     nxdomain after this long, as a slow resolver answers (default 0)
 *   BENCH_SLOW_MS          how long the slow hosts take to answer http (default 3000)
 *   BENCH_TIMEOUT_SECONDS  give up on one crawl after this long (default 1800); a Loupe crawl given up on
 *                          still reports its page phase
 *   BENCH_SERVER_ENV       extra environment of the Loupe servers, `NAME=value` separated by spaces
 *   BENCH_CPU_PROF         a folder: the Loupe servers run with --cpu-prof and write their profiles there
 *                          (summed by function with `node bench/cpu-profile-top.ts <file>`)
 *
 * The sites, served on loopback by this process:
 *   - generated: `generatedSite` of the test harness (pages built on request from their number, so
 *     50,000 pages cost no memory), served with `startTestSite`, with three images per page (from a
 *     pool of 24) and an og:image that answer a 1×1 PNG. Each page has a title, a description, about
 *     800 words of prose in paragraphs, BENCH_LINKS internal links and the generator's few defects (a
 *     404 link, a 500 link, a redirect, an orphan listed only in the sitemap). Nothing links off the site.
 *   - pgdocs: the PostgreSQL 15 manual (1,169 HTML pages, 18 MB, index pages of hundreds of KB and
 *     thousands of links, about 1,700 links to other hosts), served by sirv (static-site.ts) from
 *     BENCH_PGDOCS_DIR; Loupe starts at /index.html, linkinator at / (it recurses only below its start URL).
 * No name is looked up beyond this machine: the Loupe server and linkinator run with bench-resolver.ts
 * preloaded, which answers every name but localhost as BENCH_EXTERNAL says.
 *
 * Each tool runs as a child process, so its CPU and resident memory are its own:
 *   - Loupe: `node packages/server/src/cli.ts serve` on SQLite in a fresh temp data dir, as `npm start`
 *     runs it (MALLOC_ARENA_MAX=2), with LOUPE_CRAWL_ALLOW_PRIVATE=1; `loupe init` and `loupe admin`
 *     first put its workspace on the business plan with enough credits. The crawl is started with
 *     POST /api/v1/crawls (`sitemaps` as BENCH_LOUPE_SITEMAPS says, its defaults otherwise: robots.txt
 *     read, external links checked) and followed on /api/v1/crawls/{id}/events. Two times, from the 202:
 *     to the last page (the first event whose phase is past `pages`, at its phaseStartedAt; without
 *     phases, the event where the page count reached its final value, to the 0.5 s the server polls at)
 *     and to the report (the crawl's finishedAt). Its pages are the crawl's pagesCrawled. A fresh server
 *     for each site. GET /healthz is timed meanwhile, to show how long the API waits behind the crawl.
 *   - linkinator (the root devDependency, 8.x): its CLI, `--recurse --concurrency C --skip <other
 *     origins> --format csv`, under /usr/bin/time for its peak memory. Its pages are the distinct
 *     URLs of the site, images and stylesheets aside, it reported (CSV lists every URL checked once);
 *     its time is the process's, start-up included (about 0.2 s). It checks no external link.
 * "pages/s" is over the page phase for Loupe (to the last page), over the whole run for linkinator;
 * the table also gives Loupe's over the whole crawl.
 * Peak RSS is the kernel's high-water mark (VmHWM, or /usr/bin/time's maximum RSS), which includes
 * start-up; VmRSS is also sampled every 250 ms to show memory along the crawl. "Flat" compares the
 * large crawl's peak with its own RSS while it had crawled at most BENCH_PAGES pages: two processes'
 * peaks differ by tens of MB from V8's heap sizing alone (the cross-run ratio is printed too).
 *
 * Site and crawler share the machine: the site's CPU time is printed, so that a run where the
 * site, not the crawler, was the limit can be told apart.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generatedSite, TINY_PNG } from '../packages/server/src/testing/fixture-sites.ts';
import { type PageSpec, startTestSite } from '../packages/server/src/testing/test-site.ts';
import {
  cleanups,
  cpuOf,
  loadAverage,
  memoryOf,
  note,
  notes,
  printTable,
  quantile,
  run,
  runBench,
  sleep,
  stopChild,
  track,
  wholeNumberSetting,
} from './bench-kit.ts';
import { type Loupe, startLoupe } from './loupe-server.ts';
import { SLOW_HOSTS_ADDRESS, type SlowHosts, startSlowHosts } from './slow-hosts.ts';
import { startStaticSite } from './static-site.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LINKINATOR_CLI = join(ROOT, 'node_modules/linkinator/build/src/cli.js');
const PGDOCS_SCRIPT = join(ROOT, '../shared/testdata/sites/postgres-docs.sh');
/** Preloaded into the crawlers: answers every name but localhost without asking a DNS server. */
const RESOLVER_FLAGS = ['--import', pathToFileURL(join(ROOT, 'bench/bench-resolver.ts')).href];
const GNU_TIME = '/usr/bin/time';
const SAMPLE_MS = 250;
const HEALTH_EVERY_MS = 200;
const IMAGES_PER_PAGE = 3;
const IMAGE_POOL = 24;
const AIM_RATIO = 1.5;
const AIM_PEAK_MB = 300;
/** "Flat": the large crawl's peak within this share above its RSS while it had crawled no more than BENCH_PAGES pages. */
const AIM_FLAT_GROWTH = 0.1;
/** The report after the last page, as a share of the page phase, when external hosts do not resolve. */
const AIM_REPORT_GAP = 0.25;

// ---------------------------------------------------------------------------------------
// Settings, cleanup, small helpers.

/** A comma-separated choice among `known`, or all of them when unset. */
function choicesSetting<T extends string>(name: string, known: readonly T[]): Set<T> {
  const chosen = (process.env[name] || known.join(',')).split(',').map((word) => word.trim());
  for (const word of chosen) {
    if (!(known as readonly string[]).includes(word)) throw new Error(`${name}: unknown "${word}" (known: ${known.join(', ')})`);
  }
  return new Set(chosen as T[]);
}

/** One of `known`, `fallback` when unset. */
function oneOfSetting<T extends string>(name: string, known: readonly T[], fallback: T): T {
  const value = process.env[name] || fallback;
  if (!(known as readonly string[]).includes(value)) throw new Error(`${name}: unknown "${value}" (known: ${known.join(', ')})`);
  return value as T;
}

const TOOLS = ['loupe', 'linkinator', 'large'] as const;
const SITE = oneOfSetting('BENCH_SITE', ['both', 'pgdocs', 'generated'] as const, 'both');
const SETTINGS = {
  sites: { pgdocs: SITE !== 'generated', generated: SITE !== 'pgdocs' },
  pages: wholeNumberSetting('BENCH_PAGES', 10_000, 10, 99_000),
  largePages: wholeNumberSetting('BENCH_LARGE_PAGES', 50_000, 0, 99_000),
  pgdocsDir: process.env.BENCH_PGDOCS_DIR || '/tmp/pgdocs',
  concurrency: wholeNumberSetting('BENCH_CONCURRENCY', 16, 1, 32),
  links: wholeNumberSetting('BENCH_LINKS', 30, 3, 200),
  timeoutSeconds: wholeNumberSetting('BENCH_TIMEOUT_SECONDS', 1800, 10),
  sitemaps: wholeNumberSetting('BENCH_LOUPE_SITEMAPS', 0, 0, 1) === 1,
  tools: choicesSetting('BENCH_TOOLS', TOOLS),
  external: oneOfSetting('BENCH_EXTERNAL', ['nxdomain', 'slow'] as const, 'nxdomain'),
  dnsDelayMs: wholeNumberSetting('BENCH_DNS_DELAY_MS', 0, 0, 60_000),
  slowMs: wholeNumberSetting('BENCH_SLOW_MS', 3000, 0, 600_000),
  cpuProf: process.env.BENCH_CPU_PROF || undefined,
  serverEnv: Object.fromEntries(
    (process.env.BENCH_SERVER_ENV ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  ) as Record<string, string>,
};
/** What the resolver preloaded into the crawlers reads. */
const RESOLVER_ENV = {
  BENCH_EXTERNAL: SETTINGS.external,
  BENCH_DNS_DELAY_MS: String(SETTINGS.dnsDelayMs),
  BENCH_SLOW_HOSTS_ADDRESS: SLOW_HOSTS_ADDRESS,
};

const mb = (kilobytes: number) => (Number.isFinite(kilobytes) ? (kilobytes / 1024).toFixed(1) : '–');
const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** This process's CPU time in ms: the site server is most of it. */
function ownCpu(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

interface Sample {
  /** Seconds since the crawl started. */
  t: number;
  /** kB */
  rss: number;
  /** Pages done when sampled, where the tool tells (Loupe's progress events). */
  pages?: number;
}

/** VmRSS of `pid()` every SAMPLE_MS until stopped; `pid` may change (a wrapper's child) or be unknown yet. */
function sampleMemory(pid: () => number | undefined, pages: () => number | undefined): { samples: Sample[]; stop(): void } {
  const samples: Sample[] = [];
  const t0 = performance.now();
  const timer = setInterval(() => {
    const id = pid();
    if (id === undefined) return;
    void memoryOf(id).then((memory) => {
      if (memory && Number.isFinite(memory.rss)) samples.push({ t: (performance.now() - t0) / 1000, rss: memory.rss, pages: pages() });
    });
  }, SAMPLE_MS);
  return { samples, stop: () => clearInterval(timer) };
}

/** About ten samples spread over the crawl, as `12s 5000p 160` (time, pages where known, MB). */
function memoryLine(samples: Sample[]): string {
  if (samples.length === 0) return '(no samples)';
  const step = Math.max(1, Math.floor(samples.length / 10));
  return samples
    .filter((_, i) => i % step === 0 || i === samples.length - 1)
    .map((sample) => `${sample.t.toFixed(0)}s${sample.pages === undefined ? '' : ` ${sample.pages}p`} ${mb(sample.rss)}`)
    .join(' · ');
}

/**
 * GET /healthz one after another, a pause of HEALTH_EVERY_MS between, until stopped: how long the
 * API waits while the crawl runs on the same event loop. Resolves with when each was asked (s) and its latency (ms).
 */
function probeHealth(base: string): { stop(): Promise<{ at: number; ms: number }[]> } {
  const t0 = performance.now();
  const latencies: { at: number; ms: number }[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const ok = await fetch(`${base}/healthz`).then(
        async (response) => (await response.arrayBuffer(), response.ok),
        () => false,
      );
      if (ok) latencies.push({ at: (started - t0) / 1000, ms: performance.now() - started });
      await sleep(HEALTH_EVERY_MS);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return latencies;
    },
  };
}

// ---------------------------------------------------------------------------------------
// The sites.

interface BenchSite {
  /** `pgdocs`, or `generated` and its page count. */
  name: string;
  origin: string;
  startUrl: string;
  /** Loupe's maxPages: room for every page of the site. */
  maxPages: number;
  /** Requests the site answered so far. */
  requests(): number;
  /** performance.now() when a page (not an image, not a stylesheet) was last asked for; NaN before. */
  lastPageAskedAt(): number;
  /** Whether a path of the site is a page, for linkinator's count. */
  isPage(pathname: string): boolean;
  close(): Promise<void>;
}

/** `generatedSite(pageCount)` with BENCH_LINKS links, three images per page and an og:image that exist. */
async function startGeneratedSite(pageCount: number): Promise<BenchSite> {
  const generated = generatedSite(pageCount, { linksPerPage: SETTINGS.links });
  const png: PageSpec = { body: TINY_PNG, contentType: 'image/png', headers: { 'cache-control': 'max-age=86400' } };
  const imageTags = (n: number) =>
    Array.from({ length: IMAGES_PER_PAGE }, (_, i) => {
      const k = (n * 7 + i * 5) % IMAGE_POOL;
      return `<p><img src="/images/photo-${k}.png" alt="Photograph ${k} of the test site" width="640" height="480"></p>`;
    }).join('\n');
  const isImage = (pathname: string) => pathname === '/og-image.png' || /^\/images\/photo-\d+\.png$/.test(pathname);
  const fallback = generated.fallback as (path: string) => PageSpec | undefined;
  let lastPageAt = Number.NaN;
  const site = await startTestSite(
    {
      ...generated,
      fallback: (path) => {
        const pathname = path.split('?')[0]!;
        if (isImage(pathname)) return png;
        lastPageAt = performance.now();
        const spec = fallback(path);
        const n = generated.numberOf(pathname);
        return n !== undefined && typeof spec === 'string' ? spec.replace('</main>', `${imageTags(n)}\n</main>`) : spec;
      },
    },
    { record: false },
  );
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= site.close());
  cleanups.push(close);
  return {
    name: `generated ${pageCount}`,
    origin: site.origin,
    startUrl: site.url('/'),
    // Room for the pages the generator adds to its N (the orphan, the defects' targets).
    maxPages: generated.pageCount + 100,
    requests: () => site.requests.total,
    lastPageAskedAt: () => lastPageAt,
    isPage: (pathname) => !isImage(pathname),
    close,
  };
}

/** The PostgreSQL manual from BENCH_PGDOCS_DIR, unpacked there first when missing. */
async function startPgdocsSite(): Promise<BenchSite> {
  const dir = SETTINGS.pgdocsDir;
  if (!existsSync(join(dir, 'index.html'))) {
    if (!existsSync(PGDOCS_SCRIPT)) throw new Error(`${dir}/index.html is missing, and so is ${PGDOCS_SCRIPT} that makes it`);
    console.log(`unpacking the PostgreSQL manual into ${dir}…`);
    const made = await run('bash', [PGDOCS_SCRIPT, dir]);
    if (made.code !== 0) throw new Error(`${PGDOCS_SCRIPT} failed:\n${made.stderr}${made.stdout}`);
  }
  const pages = readdirSync(dir).filter((name) => name.endsWith('.html')).length;
  // `/` is index.html again (linkinator starts there): not a page of its own.
  const isPage = (pathname: string) => pathname.endsWith('.html');
  let lastPageAt = Number.NaN;
  const site = await startStaticSite(dir, (pathname) => {
    if (isPage(pathname)) lastPageAt = performance.now();
  });
  return {
    name: 'pgdocs',
    origin: site.origin,
    startUrl: site.url('/index.html'),
    // Room for links to pages the manual does not have (each a 404 page of the crawl).
    maxPages: pages + 100,
    requests: site.requests,
    lastPageAskedAt: () => lastPageAt,
    isPage,
    close: site.close,
  };
}

// ---------------------------------------------------------------------------------------
// The tools.

interface Result {
  tool: string;
  site: string;
  /** Pages of the site the crawl fetched. */
  pages: number;
  /** Seconds to the last page (Loupe) or of the whole run (linkinator, which checks nothing after). */
  pageSeconds: number;
  /** Seconds to the completed report (Loupe's finishedAt); NaN for linkinator and for a crawl given up on. */
  reportSeconds: number;
  /** False for a Loupe crawl given up on after BENCH_TIMEOUT_SECONDS. */
  completed: boolean;
  /** kB, the kernel's high-water mark. */
  peakRss: number;
  /** kB, before the crawl (Loupe: the server once up; linkinator: none). */
  idleRss?: number;
  /** ms of the tool's own CPU, start to end. */
  cpuMs: number;
  /** ms of this process's CPU over the crawl: the site server, mostly. */
  siteCpuMs: number;
  siteRequests: number;
  samples: Sample[];
  detail: string;
}

/** Loupe on its own data dir, as `npm start` runs it, on the business plan with credits for the crawl. */
function startCrawlingLoupe(label: string, credits: number): Promise<Loupe> {
  const profile = SETTINGS.cpuProf
    ? ['--cpu-prof', `--cpu-prof-dir=${SETTINGS.cpuProf}`, `--cpu-prof-name=loupe-crawl-${label}-${Date.now()}.cpuprofile`]
    : [];
  return startLoupe({
    label: `crawl-${label}`,
    env: { LOUPE_CRAWL_ALLOW_PRIVATE: '1', ...RESOLVER_ENV, ...SETTINGS.serverEnv },
    nodeFlags: [...RESOLVER_FLAGS, ...profile],
    setUp: (workspaceId) => [
      ['admin', 'set-plan', '--workspace', workspaceId, '--plan', 'business', '--json'],
      ['admin', 'grant-credits', '--workspace', workspaceId, '--amount', String(credits), '--note', 'bench:crawl', '--json'],
    ],
  });
}

interface PhaseCount {
  done: number;
  total: number;
}

/** What the crawl says of its progress (issue #23): absent from servers before it. */
interface ProgressFields {
  phase?: string;
  pages?: PhaseCount;
  links?: PhaseCount;
  phaseStartedAt?: string;
}

interface CrawlRow {
  id: string;
  status: string;
  pagesCrawled: number;
  maxPages: number;
  capped: boolean;
  progress?: ProgressFields | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

type CrawlEventData = ProgressFields & { type: string; status?: string; pagesCrawled?: number };

/** What the events (or polls) told of a crawl's page phase, in wall-clock ms. */
class PagePhaseWatch {
  pages = 0;
  /** When the page count last changed. */
  lastCountAt: number | undefined;
  /** When the crawl left the `pages` phase, as it said. */
  leftAt: number | undefined;
  links: PhaseCount | undefined;
  readonly phases: string[] = [];

  see(progress: ProgressFields & { pagesCrawled?: number }): void {
    const pages = progress.pages?.done ?? progress.pagesCrawled;
    if (pages !== undefined && pages !== this.pages) {
      this.pages = pages;
      this.lastCountAt = Date.now();
    }
    if (progress.links) this.links = progress.links;
    const { phase } = progress;
    if (phase === undefined) return;
    if (this.phases.at(-1) !== phase) this.phases.push(phase);
    if (phase !== 'pages') this.leftAt ??= progress.phaseStartedAt ? Date.parse(progress.phaseStartedAt) : Date.now();
  }

  /** When the last page was fetched: the end of the page phase where the crawl tells it, else the last change of the count. */
  get lastPageAt(): number | undefined {
    return this.leftAt ?? this.lastCountAt;
  }
}

async function crawlWithLoupe(bench: BenchSite, slow: SlowHosts | undefined): Promise<Result> {
  const label = bench.name.replaceAll(' ', '-');
  const loupe = await startCrawlingLoupe(label, bench.maxPages);
  const headers = { authorization: `Bearer ${loupe.key}`, 'x-service-team': loupe.workspaceId };
  const api = async <T>(method: string, path: string, status: number, body?: unknown): Promise<T> => {
    const response = await fetch(loupe.url + path, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  };
  try {
    await sleep(1000); // let start-up work settle before the idle reading
    const idle = await memoryOf(loupe.pid);
    const cpuBefore = await cpuOf(loupe.pid);
    const siteCpuBefore = ownCpu();
    const requestsBefore = bench.requests();
    const slowBefore = slow ? { http: slow.httpRequests, tls: slow.tlsConnections } : undefined;
    const watch = new PagePhaseWatch();
    const sampler = sampleMemory(
      () => loupe.pid,
      () => watch.pages,
    );
    const health = probeHealth(loupe.url);

    const started = await api<CrawlRow>('POST', '/api/v1/crawls', 202, {
      url: bench.startUrl,
      mode: 'site',
      maxPages: bench.maxPages,
      concurrency: SETTINGS.concurrency,
      sitemaps: SETTINGS.sitemaps,
    });
    const t0 = Date.now();
    const t0Clock = performance.now();
    if (started.capped) note(`Loupe (${label}): maxPages ${bench.maxPages} was capped to ${started.maxPages}`);

    // Follow the events until the crawl ends; poll getCrawl if the stream breaks.
    const deadline = t0 + SETTINGS.timeoutSeconds * 1000;
    const ended = (status: string) => status !== 'queued' && status !== 'running';
    let final: CrawlRow | undefined;
    try {
      const response = await fetch(`${loupe.url}/api/v1/crawls/${started.id}/events`, {
        headers: { ...headers, accept: 'text/event-stream' },
        signal: AbortSignal.timeout(SETTINGS.timeoutSeconds * 1000),
      });
      if (!response.ok || !response.body) throw new Error(`events answered ${response.status}`);
      const decoder = new TextDecoder();
      let buffer = '';
      reading: for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n')) !== -1) {
          const line = buffer.slice(0, end).trim();
          buffer = buffer.slice(end + 1);
          if (!line.startsWith('data:')) continue;
          const event = JSON.parse(line.slice(5)) as CrawlEventData;
          if (event.type === 'progress') watch.see(event);
          if (event.type === 'status' && event.status && ended(event.status)) break reading;
        }
      }
    } catch (error) {
      // undici's fetch ends a body silent for 300 s: a server before issue #23 says nothing during its link checks.
      if (Date.now() < deadline) note(`Loupe (${label}): the event stream broke (${message(error)}); polling the crawl instead`);
    }
    let givenUp = false;
    for (;;) {
      const row = await api<CrawlRow>('GET', `/api/v1/crawls/${started.id}`, 200);
      watch.see({ ...row.progress, pagesCrawled: row.pagesCrawled });
      if (ended(row.status) || Date.now() > deadline) {
        final = row;
        givenUp = !ended(row.status);
        break;
      }
      // Its finishedAt times the end, not this poll: as often as the server writes progress is enough.
      await sleep(500);
    }
    const seenAt = Date.now();
    sampler.stop();
    const probes = await health.stop();
    const latencies = probes.map((probe) => probe.ms);
    const slowest = probes.reduce((a, b) => (b.ms > a.ms ? b : a), { at: Number.NaN, ms: Number.NEGATIVE_INFINITY });
    const memory = await memoryOf(loupe.pid);
    const cpuMs = (await cpuOf(loupe.pid)) - cpuBefore;
    const siteCpuMs = ownCpu() - siteCpuBefore;
    const siteRequests = bench.requests() - requestsBefore;
    if (!givenUp && final.status !== 'completed')
      throw new Error(`Loupe (${label}): the crawl ended ${final.status}: ${final.error ?? ''}\n${loupe.output()}`);
    if (givenUp) note(`Loupe (${label}): given up after ${SETTINGS.timeoutSeconds} s, still ${final.status} (BENCH_TIMEOUT_SECONDS)`);
    const finishedAt = givenUp ? Number.NaN : final.finishedAt ? Date.parse(final.finishedAt) : seenAt;
    const lastPageAt = watch.lastPageAt ?? Number.NaN;
    const siteLastPage = (bench.lastPageAskedAt() - t0Clock) / 1000;
    const queuedMs = final.startedAt ? Date.parse(final.startedAt) - Date.parse(final.createdAt) : Number.NaN;
    const warnings = loupe
      .output()
      .split('\n')
      .filter((line) => line.trim())
      .slice(-5);
    if (warnings.length > 0) note(`Loupe (${label}) server output (last lines):\n${warnings.map((line) => `     ${line}`).join('\n')}`);
    return {
      tool: 'Loupe',
      site: bench.name,
      pages: final.pagesCrawled,
      pageSeconds: (lastPageAt - t0) / 1000,
      reportSeconds: (finishedAt - t0) / 1000,
      completed: !givenUp,
      peakRss: memory?.hwm ?? Number.NaN,
      idleRss: idle?.rss,
      cpuMs,
      siteCpuMs,
      siteRequests,
      samples: sampler.samples,
      detail: [
        `queued → running in ${fixed(queuedMs, 0)} ms`,
        watch.leftAt === undefined
          ? 'the last page: when the events last showed the page count change (no phases: a server before issue #23)'
          : `the last page: when the crawl left the pages phase (phases seen: ${watch.phases.join(' → ')})`,
        `the site was last asked for a page ${fixed(siteLastPage, 1)} s in`,
        watch.links ? `links checked ${watch.links.done} of ${watch.links.total}` : 'links checked: not told',
        slow && slowBefore
          ? `slow hosts: ${slow.httpRequests - slowBefore.http} http requests, ${slow.tlsConnections - slowBefore.tls} https connections held`
          : `external hosts: ${SETTINGS.external}${SETTINGS.dnsDelayMs > 0 ? ` after ${SETTINGS.dnsDelayMs} ms` : ''}`,
        givenUp ? `given up after ${SETTINGS.timeoutSeconds} s` : `the end seen by the client ${seenAt - finishedAt} ms after finishedAt`,
        `GET /healthz every ${HEALTH_EVERY_MS} ms while it ran: median ${fixed(quantile(latencies, 0.5), 0)} ms, p99 ${fixed(quantile(latencies, 0.99), 0)} ms, max ${fixed(slowest.ms, 0)} ms (asked ${fixed(slowest.at, 1)} s into the crawl)`,
      ].join('; '),
    };
  } finally {
    await loupe.stop();
  }
}

async function crawlWithLinkinator(bench: BenchSite): Promise<Result> {
  const { origin } = bench;
  // Nothing off the site is checked.
  const skip = `^(?!${origin.replaceAll('.', '\\.')}(/|$))`;
  // From the site's root: linkinator recurses only into URLs that begin with the URL it starts from.
  const args = [
    ...RESOLVER_FLAGS,
    LINKINATOR_CLI,
    `${origin}/`,
    '--recurse',
    '--concurrency',
    String(SETTINGS.concurrency),
    '--skip',
    skip,
    '--format',
    'csv',
  ];
  const temp = await mkdtemp(join(tmpdir(), 'loupe-bench-linkinator-'));
  cleanups.push(() => rm(temp, { recursive: true, force: true }));
  const timeFile = join(temp, 'time.txt');
  const useTime = existsSync(GNU_TIME);
  if (!useTime) note(`${GNU_TIME} is missing: linkinator's peak memory is the last VmHWM read while it ran (every ${SAMPLE_MS} ms)`);

  const siteCpuBefore = ownCpu();
  const requestsBefore = bench.requests();
  const t0 = performance.now();
  const child = track(
    spawn(useTime ? GNU_TIME : process.execPath, useTime ? ['-f', '%M %U %S', '-o', timeFile, process.execPath, ...args] : args, {
      cwd: temp,
      env: { ...process.env, ...RESOLVER_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  // Under /usr/bin/time, linkinator is its child: find its pid for the samples.
  let nodePid: number | undefined = useTime ? undefined : child.pid;
  let lastHwm = Number.NaN;
  let lastCpu = Number.NaN;
  const finder = setInterval(() => {
    if (nodePid === undefined) {
      void readFile(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').then(
        (listed) => {
          const first = Number(listed.trim().split(/\s+/)[0]);
          if (first > 0) nodePid = first;
        },
        () => {},
      );
    } else if (!useTime) {
      void memoryOf(nodePid).then((memory) => memory && (lastHwm = memory.hwm));
      void cpuOf(nodePid).then((cpu) => Number.isFinite(cpu) && (lastCpu = cpu));
    }
  }, 50);
  const sampler = sampleMemory(
    () => nodePid,
    () => undefined,
  );

  const urls = new Set<string>();
  let lines = 0;
  let broken = 0;
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let end: number;
    while ((end = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      // url,status,state,parent,failureDetails; the URLs of these sites hold no comma or quote.
      const [url, , state] = line.split(',');
      if (!url || url === 'url') continue;
      lines++;
      if (state === 'BROKEN') broken++;
      urls.add(url.split('#')[0]!);
    }
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const timeout = setTimeout(() => void stopChild(child, 'SIGKILL'), SETTINGS.timeoutSeconds * 1000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => resolve(exitCode));
  });
  const seconds = (performance.now() - t0) / 1000;
  clearTimeout(timeout);
  clearInterval(finder);
  sampler.stop();
  const siteCpuMs = ownCpu() - siteCpuBefore;
  const siteRequests = bench.requests() - requestsBefore;
  // linkinator exits 1 when it found broken links, as it does here (the generator's 404 and 500).
  if (code !== 0 && code !== 1) throw new Error(`linkinator exited with ${code}:\n${stderr}`);
  let peakRss = lastHwm;
  let cpuMs = lastCpu;
  if (useTime) {
    const [maxRss, user, system] = (await readFile(timeFile, 'utf8')).trim().split('\n').at(-1)!.split(' ').map(Number);
    peakRss = maxRss!;
    cpuMs = (user! + system!) * 1000;
  }
  let pages = 0;
  let others = 0;
  for (const url of urls) {
    const parsed = new URL(url);
    if (parsed.origin !== origin) continue;
    if (bench.isPage(parsed.pathname)) pages++;
    else others++;
  }
  return {
    tool: 'linkinator',
    site: bench.name,
    pages,
    pageSeconds: seconds,
    reportSeconds: Number.NaN,
    completed: code === 0 || code === 1,
    peakRss,
    cpuMs,
    siteCpuMs,
    siteRequests,
    samples: sampler.samples,
    detail: `${lines} results (${urls.size} distinct URLs: ${pages} pages, ${others} images and stylesheets of the site; ${broken} broken), exit code ${code}`,
  };
}

// ---------------------------------------------------------------------------------------

type Verdict = [aim: string, measured: string, met: boolean | undefined];

/** Loupe and linkinator on one site, one after the other; what each aim says of them. */
async function compareOn(
  bench: BenchSite,
  slow: SlowHosts | undefined,
  results: Result[],
  verdicts: Verdict[],
): Promise<Result | undefined> {
  let loupe: Result | undefined;
  let linkinator: Result | undefined;
  if (SETTINGS.tools.has('loupe')) {
    console.log(`Loupe, ${bench.name}…`);
    results.push((loupe = await crawlWithLoupe(bench, slow)));
  }
  if (SETTINGS.tools.has('linkinator')) {
    console.log(`linkinator, ${bench.name}…`);
    results.push((linkinator = await crawlWithLinkinator(bench)));
  }
  await bench.close();
  if (loupe && linkinator) {
    const ratio = loupe.pages / loupe.pageSeconds / (linkinator.pages / linkinator.pageSeconds);
    const toReport = loupe.pages / loupe.reportSeconds / (linkinator.pages / linkinator.pageSeconds);
    const cpuRatio = loupe.pages / loupe.cpuMs / (linkinator.pages / linkinator.cpuMs);
    console.log(
      `${bench.name}: Loupe / linkinator, pages/s to the last page ${fixed(ratio, 2)}×, to the report ${fixed(toReport, 2)}×; pages per CPU second ${fixed(cpuRatio, 2)}×`,
    );
    verdicts.push([`${bench.name}: pages/s ≥ ${AIM_RATIO}× linkinator's`, `${fixed(ratio, 2)}×`, ratio >= AIM_RATIO]);
  }
  if (loupe) {
    verdicts.push([`${bench.name}: Loupe peak RSS < ${AIM_PEAK_MB} MB`, `${mb(loupe.peakRss)} MB`, loupe.peakRss < AIM_PEAK_MB * 1024]);
    const gap = loupe.reportSeconds - loupe.pageSeconds;
    const aim = `${bench.name}: report − last page ≤ ${AIM_REPORT_GAP * 100} % of the page phase`;
    if (!loupe.completed) verdicts.push([aim, `no report after ${SETTINGS.timeoutSeconds} s`, false]);
    // Slow hosts are judged against the link-check budget, which the crawl reports.
    else if (SETTINGS.external === 'slow') verdicts.push([aim, `${fixed(gap, 1)} s (slow hosts)`, undefined]);
    else
      verdicts.push([aim, `${fixed(gap, 1)} s, ${fixed((gap / loupe.pageSeconds) * 100, 0)} %`, gap <= AIM_REPORT_GAP * loupe.pageSeconds]);
  }
  return loupe;
}

async function main(): Promise<void> {
  const version = JSON.parse(await readFile(join(ROOT, 'node_modules/linkinator/package.json'), 'utf8')).version as string;
  if (SETTINGS.cpuProf) await mkdir(SETTINGS.cpuProf, { recursive: true });
  const sites = [
    SETTINGS.sites.pgdocs ? `pgdocs (the PostgreSQL manual from ${SETTINGS.pgdocsDir}, served by sirv)` : '',
    SETTINGS.sites.generated ? `generatedSite (${SETTINGS.links} links and ${IMAGES_PER_PAGE} images per page)` : '',
  ].filter(Boolean);
  const external =
    SETTINGS.external === 'slow'
      ? `every name → ${SLOW_HOSTS_ADDRESS}: http answers after ${SETTINGS.slowMs} ms, https held silent`
      : `no name resolves (ENOTFOUND${SETTINGS.dnsDelayMs > 0 ? ` after ${SETTINGS.dnsDelayMs} ms` : ''})`;
  console.log('Loupe crawl benchmark');
  console.log(`date:         ${new Date().toISOString()}`);
  console.log(`node:         ${process.version} (${process.platform} ${process.arch})`);
  console.log(`cpus:         ${availableParallelism()} × ${cpus()[0]?.model.trim() ?? 'unknown'}`);
  console.log(`load average: ${loadAverage()} (1, 5, 15 min)`);
  console.log(`sites:        ${sites.join('; ')}, on loopback in this process`);
  console.log(`external:     ${external} (BENCH_EXTERNAL=${SETTINGS.external})`);
  console.log(
    `crawls:       concurrency ${SETTINGS.concurrency}; linkinator ${version}; Loupe on SQLite in a temp dir, ${SETTINGS.sitemaps ? 'from links and sitemaps' : 'from links only (no sitemaps)'}`,
  );
  console.log('');

  const slow = SETTINGS.external === 'slow' && SETTINGS.tools.has('loupe') ? await startSlowHosts(SETTINGS.slowMs) : undefined;
  const results: Result[] = [];
  const verdicts: Verdict[] = [];
  const compared = SETTINGS.tools.has('loupe') || SETTINGS.tools.has('linkinator');
  if (SETTINGS.sites.pgdocs && compared) await compareOn(await startPgdocsSite(), slow, results, verdicts);
  let small: Result | undefined;
  let large: Result | undefined;
  if (SETTINGS.sites.generated && compared) small = await compareOn(await startGeneratedSite(SETTINGS.pages), slow, results, verdicts);
  if (SETTINGS.sites.generated && SETTINGS.tools.has('large') && SETTINGS.largePages > 0) {
    const bench = await startGeneratedSite(SETTINGS.largePages);
    console.log(`Loupe, ${bench.name}…`);
    results.push((large = await crawlWithLoupe(bench, slow)));
    await bench.close();
    verdicts.push([`${bench.name}: Loupe peak RSS < ${AIM_PEAK_MB} MB`, `${mb(large.peakRss)} MB`, large.peakRss < AIM_PEAK_MB * 1024]);
  }
  if (results.length === 0) return;

  console.log('');
  printTable(
    [
      'tool',
      'site',
      'pages',
      'to last page s',
      'to report s',
      'gap s',
      'gap/pages',
      'pages/s',
      'pages/s to report',
      'peak RSS MB',
      'idle RSS MB',
      'tool CPU s',
      'pages/CPU s',
      'site CPU s',
      'site requests',
    ],
    results.map((r) => {
      const gap = r.reportSeconds - r.pageSeconds;
      return [
        r.tool,
        r.site,
        String(r.pages),
        fixed(r.pageSeconds, 2),
        r.completed || r.tool !== 'Loupe' ? fixed(r.reportSeconds, 2) : `> ${SETTINGS.timeoutSeconds}`,
        fixed(gap, 2),
        Number.isFinite(gap) ? `${((gap / r.pageSeconds) * 100).toFixed(0)} %` : '–',
        fixed(r.pages / r.pageSeconds, 0),
        fixed(r.pages / r.reportSeconds, 0),
        mb(r.peakRss),
        r.idleRss === undefined ? '–' : mb(r.idleRss),
        fixed(r.cpuMs / 1000, 1),
        fixed(r.pages / (r.cpuMs / 1000), 0),
        fixed(r.siteCpuMs / 1000, 1),
        String(r.siteRequests),
      ];
    }),
  );
  console.log('');
  for (const r of results) {
    console.log(`${r.tool}, ${r.site}: ${r.detail}`);
    console.log(`   RSS MB along the crawl (time, pages where known, MB): ${memoryLine(r.samples)}`);
  }

  console.log('');
  if (large && SETTINGS.largePages > SETTINGS.pages) {
    // In the same process: V8 sizes its heap differently from one run to the next, so two runs' peaks differ by tens of MB whatever the size.
    const early = large.samples.filter((sample) => sample.pages !== undefined && sample.pages <= SETTINGS.pages);
    const earlyPeak = early.length > 0 ? Math.max(...early.map((sample) => sample.rss)) : Number.NaN;
    const growth = large.peakRss / earlyPeak - 1;
    const signed = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;
    verdicts.push([
      `flat memory: ${large.site} peak ≤ ${(1 + AIM_FLAT_GROWTH).toFixed(2)}× its RSS up to ${SETTINGS.pages} pages`,
      Number.isFinite(growth) ? `${signed(growth)} (${mb(earlyPeak)} → ${mb(large.peakRss)} MB)` : 'no samples',
      Number.isFinite(growth) ? growth <= AIM_FLAT_GROWTH : undefined,
    ]);
    if (small) console.log(`peak RSS, ${large.site} / ${small.site} (separate processes): ${signed(large.peakRss / small.peakRss - 1)}`);
  }
  if (verdicts.length > 0) {
    printTable(
      ['aim', 'measured', 'verdict'],
      verdicts.map(([aim, value, met]) => [aim, value, met === undefined ? 'not judged' : met ? 'met' : 'NOT met']),
    );
  }
  console.log(`load average at the end: ${loadAverage()} (1, 5, 15 min)`);
  if (notes.length > 0) {
    console.log('');
    for (const text of notes) console.log(`note: ${text}`);
  }
}

await runBench(main);
