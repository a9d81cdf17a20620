/**
 * Loupe's crawler against linkinator on the same loopback site, in one run: `npm run bench:crawl`
 * (Node 24). Aims (the crawl benchmark issue): at least 1.5× linkinator's pages per second at the
 * same concurrency, peak resident memory under 300 MB, and flat memory from 10,000 to 50,000 pages.
 *
 *   BENCH_PAGES            pages of the site both tools crawl (default 10000)
 *   BENCH_LARGE_PAGES      pages of a second site Loupe alone crawls, to see its memory stay flat
 *                          (default 50000; 0 skips it)
 *   BENCH_CONCURRENCY      requests in flight to the site, the same for both tools (default 16; Loupe allows 1–32)
 *   BENCH_LINKS            internal links per page (default 30)
 *   BENCH_LOUPE_SITEMAPS   1: Loupe also starts from the site's sitemaps, as its API does by default (default 0:
 *                          links only, like linkinator, so that both find the pages the same way)
 *   BENCH_TOOLS            which crawls to run, of loupe, linkinator, large (default all three)
 *   BENCH_TIMEOUT_SECONDS  give up on one crawl after this long (default 1800)
 *   BENCH_SERVER_ENV       extra environment of the Loupe servers, `NAME=value` separated by spaces
 *   BENCH_CPU_PROF         a folder: the Loupe servers run with --cpu-prof and write their profiles there
 *
 * The site is `generatedSite` of the test harness (pages built on request from their number, so
 * 50,000 pages cost no memory), served on loopback by this process with `startTestSite`, with three
 * images per page (from a pool of 24) and an og:image that answer a 1×1 PNG. Each page has a title,
 * a description, about 800 words of prose in paragraphs, BENCH_LINKS internal links and the
 * generator's few defects (a 404 link, a 500 link, a redirect, an orphan listed only in the sitemap).
 *
 * Each tool runs as a child process, so its CPU and resident memory are its own:
 *   - Loupe: `node packages/server/src/cli.ts serve` on SQLite in a fresh temp data dir, as `npm start`
 *     runs it (MALLOC_ARENA_MAX=2), with LOUPE_CRAWL_ALLOW_PRIVATE=1; `loupe init` and `loupe admin`
 *     first put its workspace on the business plan with enough credits. The crawl is started with
 *     POST /api/v1/crawls (`sitemaps` as BENCH_LOUPE_SITEMAPS says, its defaults otherwise: robots.txt
 *     read) and followed on /api/v1/crawls/{id}/events; its time runs from the 202 to the crawl's
 *     finishedAt (the report built), its pages are the crawl's pagesCrawled. A fresh server for each
 *     site size. GET /healthz is timed meanwhile, to show how long the API waits behind the crawl.
 *   - linkinator (the root devDependency, 8.x): its CLI, `--recurse --concurrency C --skip <other
 *     origins> --format csv`, under /usr/bin/time for its peak memory. Its pages are the distinct
 *     URLs of the site, images aside, it reported (CSV lists every URL checked once); its time is
 *     the process's, start-up included (about 0.2 s).
 * Peak RSS is the kernel's high-water mark (VmHWM, or /usr/bin/time's maximum RSS), which includes
 * start-up; VmRSS is also sampled every 250 ms to show memory along the crawl. "Flat" compares the
 * large crawl's peak with its own RSS while it had crawled at most BENCH_PAGES pages: two processes'
 * peaks differ by tens of MB from V8's heap sizing alone (the cross-run ratio is printed too).
 *
 * Site and crawler share the machine: the site's CPU time is printed, so that a run where the
 * site, not the crawler, was the limit can be told apart.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedSite, TINY_PNG, type GeneratedSite } from '../packages/server/src/testing/fixture-sites.ts';
import { startTestSite, type PageSpec, type TestSite } from '../packages/server/src/testing/test-site.ts';
import { cleanups, cpuOf, loadAverage, memoryOf, note, notes, printTable, quantile, run, runBench, sleep, stopChild, track, wholeNumberSetting } from './bench-kit.ts';
import { startLoupe, type Loupe } from './loupe-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LINKINATOR_CLI = join(ROOT, 'node_modules/linkinator/build/src/cli.js');
const GNU_TIME = '/usr/bin/time';
const SAMPLE_MS = 250;
const HEALTH_EVERY_MS = 200;
const IMAGES_PER_PAGE = 3;
const IMAGE_POOL = 24;
const AIM_RATIO = 1.5;
const AIM_PEAK_MB = 300;
/** "Flat": the large crawl's peak within this share above its RSS while it had crawled no more than BENCH_PAGES pages. */
const AIM_FLAT_GROWTH = 0.1;

// ---------------------------------------------------------------------------------------
// Settings, cleanup, small helpers.


const TOOLS = ['loupe', 'linkinator', 'large'] as const;
const SETTINGS = {
  pages: wholeNumberSetting('BENCH_PAGES', 10_000, 10, 99_000),
  largePages: wholeNumberSetting('BENCH_LARGE_PAGES', 50_000, 0, 99_000),
  concurrency: wholeNumberSetting('BENCH_CONCURRENCY', 16, 1, 32),
  links: wholeNumberSetting('BENCH_LINKS', 30, 3, 200),
  timeoutSeconds: wholeNumberSetting('BENCH_TIMEOUT_SECONDS', 1800, 10),
  sitemaps: wholeNumberSetting('BENCH_LOUPE_SITEMAPS', 0, 0, 1) === 1,
  tools: new Set((process.env.BENCH_TOOLS || TOOLS.join(',')).split(',').map((tool) => tool.trim())),
  cpuProf: process.env.BENCH_CPU_PROF || undefined,
  serverEnv: Object.fromEntries(
    (process.env.BENCH_SERVER_ENV ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  ) as Record<string, string>,
};
for (const tool of SETTINGS.tools) {
  if (!(TOOLS as readonly string[]).includes(tool)) throw new Error(`BENCH_TOOLS: unknown "${tool}" (known: ${TOOLS.join(', ')})`);
}

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
// The site.

interface BenchSite {
  site: TestSite;
  generated: GeneratedSite;
  /** Paths of the site that are images (not pages). */
  isImage(pathname: string): boolean;
}

/** `generatedSite(pageCount)` with BENCH_LINKS links, three images per page and an og:image that exist. */
async function startBenchSite(pageCount: number): Promise<BenchSite> {
  const generated = generatedSite(pageCount, { linksPerPage: SETTINGS.links });
  const png: PageSpec = { body: TINY_PNG, contentType: 'image/png', headers: { 'cache-control': 'max-age=86400' } };
  const imageTags = (n: number) =>
    Array.from({ length: IMAGES_PER_PAGE }, (_, i) => {
      const k = (n * 7 + i * 5) % IMAGE_POOL;
      return `<p><img src="/images/photo-${k}.png" alt="Photograph ${k} of the test site" width="640" height="480"></p>`;
    }).join('\n');
  const isImage = (pathname: string) => pathname === '/og-image.png' || /^\/images\/photo-\d+\.png$/.test(pathname);
  const fallback = generated.fallback as (path: string) => PageSpec | undefined;
  const site = await startTestSite(
    {
      ...generated,
      fallback: (path) => {
        const pathname = path.split('?')[0]!;
        if (isImage(pathname)) return png;
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
  return { site: { ...site, close }, generated, isImage };
}

// ---------------------------------------------------------------------------------------
// The tools.

interface Result {
  tool: string;
  /** Pages of the site the crawl fetched. */
  pages: number;
  seconds: number;
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
  return startLoupe({
    label: `crawl-${label}`,
    env: { LOUPE_CRAWL_ALLOW_PRIVATE: '1', ...SETTINGS.serverEnv },
    nodeFlags: SETTINGS.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${SETTINGS.cpuProf}`, `--cpu-prof-name=loupe-crawl-${label}-${Date.now()}.cpuprofile`] : [],
    setUp: (workspaceId) => [
      ['admin', 'set-plan', '--workspace', workspaceId, '--plan', 'business', '--json'],
      ['admin', 'grant-credits', '--workspace', workspaceId, '--amount', String(credits), '--note', 'bench:crawl', '--json'],
    ],
  });
}

interface CrawlRow {
  id: string;
  status: string;
  pagesCrawled: number;
  maxPages: number;
  capped: boolean;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

async function crawlWithLoupe(bench: BenchSite, label: string): Promise<Result> {
  const { site, generated } = bench;
  // Room for the pages the generator adds to its N (the orphan, the defects' targets).
  const maxPages = generated.pageCount + 100;
  const loupe = await startCrawlingLoupe(label, maxPages);
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
    const requestsBefore = site.requests.total;
    let pagesSeen = 0;
    const sampler = sampleMemory(() => loupe.pid, () => pagesSeen);
    const health = probeHealth(loupe.url);

    const started = await api<CrawlRow>('POST', '/api/v1/crawls', 202, {
      url: site.url('/'),
      mode: 'site',
      maxPages,
      concurrency: SETTINGS.concurrency,
      sitemaps: SETTINGS.sitemaps,
    });
    const t0 = Date.now();
    if (started.capped) note(`Loupe (${label}): maxPages ${maxPages} was capped to ${started.maxPages}`);

    // Follow the events until the crawl ends; poll getCrawl if the stream breaks.
    const deadline = t0 + SETTINGS.timeoutSeconds * 1000;
    const ended = (status: string) => status !== 'queued' && status !== 'running';
    let final: CrawlRow | undefined;
    /** When the events said the pages were fetched and the report was being built (to about 0.5 s: the server polls). */
    let reportPhaseAt: number | undefined;
    const progress: { at: number; pages: number }[] = [];
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
          const event = JSON.parse(line.slice(5)) as { type: string; status?: string; pagesCrawled?: number; phase?: string };
          if (event.type === 'progress' && event.pagesCrawled !== undefined) {
            pagesSeen = event.pagesCrawled;
            progress.push({ at: Date.now(), pages: event.pagesCrawled });
          }
          if (event.type === 'phase' && event.phase === 'building-report') reportPhaseAt ??= Date.now();
          if (event.type === 'status' && event.status && ended(event.status)) break reading;
        }
      }
    } catch (error) {
      note(`Loupe (${label}): the event stream broke (${message(error)}); polling the crawl instead`);
    }
    for (;;) {
      const row = await api<CrawlRow>('GET', `/api/v1/crawls/${started.id}`, 200);
      pagesSeen = row.pagesCrawled;
      if (ended(row.status)) {
        final = row;
        break;
      }
      if (Date.now() > deadline) throw new Error(`Loupe (${label}): the crawl had not ended after ${SETTINGS.timeoutSeconds} s (${row.pagesCrawled} pages)`);
      await sleep(100);
    }
    const seenAt = Date.now();
    sampler.stop();
    const probes = await health.stop();
    const latencies = probes.map((probe) => probe.ms);
    const slowest = probes.reduce((a, b) => (b.ms > a.ms ? b : a), { at: Number.NaN, ms: Number.NEGATIVE_INFINITY });
    const memory = await memoryOf(loupe.pid);
    const cpuMs = (await cpuOf(loupe.pid)) - cpuBefore;
    const siteCpuMs = ownCpu() - siteCpuBefore;
    const siteRequests = site.requests.total - requestsBefore;
    if (final.status !== 'completed') throw new Error(`Loupe (${label}): the crawl ended ${final.status}: ${final.error ?? ''}\n${loupe.output()}`);
    const finishedAt = final.finishedAt ? Date.parse(final.finishedAt) : seenAt;
    // The crawler writes the final count once the pages are fetched; the report follows.
    const fetchedAt = reportPhaseAt ?? progress.find((event) => event.pages >= final!.pagesCrawled)?.at;
    const queuedMs = final.startedAt ? Date.parse(final.startedAt) - Date.parse(final.createdAt) : Number.NaN;
    const warnings = loupe
      .output()
      .split('\n')
      .filter((line) => line.trim())
      .slice(-5);
    if (warnings.length > 0) note(`Loupe (${label}) server output (last lines):\n${warnings.map((line) => `     ${line}`).join('\n')}`);
    return {
      tool: `Loupe (${label})`,
      pages: final.pagesCrawled,
      seconds: (finishedAt - t0) / 1000,
      peakRss: memory?.hwm ?? Number.NaN,
      idleRss: idle?.rss,
      cpuMs,
      siteCpuMs,
      siteRequests,
      samples: sampler.samples,
      detail: [
        `queued → running in ${fixed(queuedMs, 0)} ms`,
        fetchedAt === undefined
          ? 'no progress event showed the final page count'
          : `${reportPhaseAt === undefined ? 'the final page count' : 'the building-report phase'} first seen on the events ${fixed(Math.max(0, finishedAt - fetchedAt) / 1000, 1)} s before finishedAt (the server reads them every 0.5 s on its event loop)`,
        `the end seen by the client ${seenAt - finishedAt} ms after finishedAt`,
        `GET /healthz every ${HEALTH_EVERY_MS} ms while it ran: median ${fixed(quantile(latencies, 0.5), 0)} ms, p99 ${fixed(quantile(latencies, 0.99), 0)} ms, max ${fixed(slowest.ms, 0)} ms (asked ${fixed(slowest.at, 1)} s into the crawl)`,
      ].join('; '),
    };
  } finally {
    await loupe.stop();
  }
}

async function crawlWithLinkinator(bench: BenchSite): Promise<Result> {
  const { site, isImage } = bench;
  const origin = site.origin;
  // Nothing off the site is checked (the generated site links to nothing outside anyway).
  const skip = `^(?!${origin.replaceAll('.', '\\.')}(/|$))`;
  const args = [LINKINATOR_CLI, site.url('/'), '--recurse', '--concurrency', String(SETTINGS.concurrency), '--skip', skip, '--format', 'csv'];
  const temp = await mkdtemp(join(tmpdir(), 'loupe-bench-linkinator-'));
  cleanups.push(() => rm(temp, { recursive: true, force: true }));
  const timeFile = join(temp, 'time.txt');
  const useTime = existsSync(GNU_TIME);
  if (!useTime) note(`${GNU_TIME} is missing: linkinator's peak memory is the last VmHWM read while it ran (every ${SAMPLE_MS} ms)`);

  const siteCpuBefore = ownCpu();
  const requestsBefore = site.requests.total;
  const t0 = performance.now();
  const child = track(
    spawn(useTime ? GNU_TIME : process.execPath, useTime ? ['-f', '%M %U %S', '-o', timeFile, process.execPath, ...args] : args, {
      cwd: temp,
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
  const sampler = sampleMemory(() => nodePid, () => undefined);

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
      // url,status,state,parent,failureDetails; the URLs of this site hold no comma or quote.
      const [url, , state] = line.split(',');
      if (!url || url === 'url') continue;
      lines++;
      if (state === 'BROKEN') broken++;
      urls.add(url);
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
  const siteRequests = site.requests.total - requestsBefore;
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
  let images = 0;
  for (const url of urls) {
    const parsed = new URL(url);
    if (parsed.origin !== origin) continue;
    if (isImage(parsed.pathname)) images++;
    else pages++;
  }
  return {
    tool: 'linkinator',
    pages,
    seconds,
    peakRss,
    cpuMs,
    siteCpuMs,
    siteRequests,
    samples: sampler.samples,
    detail: `${lines} results (${urls.size} distinct URLs: ${pages} pages, ${images} images; ${broken} broken), exit code ${code}`,
  };
}

// ---------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const version = JSON.parse(await readFile(join(ROOT, 'node_modules/linkinator/package.json'), 'utf8')).version as string;
  if (SETTINGS.cpuProf) await mkdir(SETTINGS.cpuProf, { recursive: true });
  console.log('Loupe crawl benchmark');
  console.log(`date:         ${new Date().toISOString()}`);
  console.log(`node:         ${process.version} (${process.platform} ${process.arch})`);
  console.log(`cpus:         ${availableParallelism()} × ${cpus()[0]?.model.trim() ?? 'unknown'}`);
  console.log(`load average: ${loadAverage()} (1, 5, 15 min)`);
  console.log(`site:         generatedSite, ${SETTINGS.links} links and ${IMAGES_PER_PAGE} images per page, on loopback in this process`);
  console.log(`crawls:       concurrency ${SETTINGS.concurrency}; linkinator ${version}; Loupe on SQLite in a temp dir, ${SETTINGS.sitemaps ? 'from links and sitemaps' : 'from links only (no sitemaps)'}`);
  console.log('');

  const results: Result[] = [];
  let small: Result | undefined;
  let large: Result | undefined;
  let linkinator: Result | undefined;
  if (SETTINGS.tools.has('loupe') || SETTINGS.tools.has('linkinator')) {
    const bench = await startBenchSite(SETTINGS.pages);
    if (SETTINGS.tools.has('loupe')) {
      console.log(`Loupe, ${SETTINGS.pages} pages…`);
      results.push((small = await crawlWithLoupe(bench, `${SETTINGS.pages}`)));
    }
    if (SETTINGS.tools.has('linkinator')) {
      console.log(`linkinator, ${SETTINGS.pages} pages…`);
      results.push((linkinator = await crawlWithLinkinator(bench)));
    }
    await bench.site.close();
  }
  if (SETTINGS.tools.has('large') && SETTINGS.largePages > 0) {
    const bench = await startBenchSite(SETTINGS.largePages);
    console.log(`Loupe, ${SETTINGS.largePages} pages…`);
    results.push((large = await crawlWithLoupe(bench, `${SETTINGS.largePages}`)));
    await bench.site.close();
  }
  if (results.length === 0) return;

  console.log('');
  printTable(
    ['tool', 'pages', 'seconds', 'pages/s', 'peak RSS MB', 'idle RSS MB', 'tool CPU s', 'pages/CPU s', 'site CPU s', 'site requests'],
    results.map((r) => [
      r.tool,
      String(r.pages),
      fixed(r.seconds, 2),
      fixed(r.pages / r.seconds, 0),
      mb(r.peakRss),
      r.idleRss === undefined ? '–' : mb(r.idleRss),
      fixed(r.cpuMs / 1000, 1),
      fixed(r.pages / (r.cpuMs / 1000), 0),
      fixed(r.siteCpuMs / 1000, 1),
      String(r.siteRequests),
    ]),
  );
  console.log('');
  for (const r of results) {
    console.log(`${r.tool}: ${r.detail}`);
    console.log(`   RSS MB along the crawl (time, pages where known, MB): ${memoryLine(r.samples)}`);
  }

  console.log('');
  const summary: [string, string, boolean | undefined][] = [];
  if (small && linkinator) {
    const ratio = small.pages / small.seconds / (linkinator.pages / linkinator.seconds);
    const cpuRatio = small.pages / small.cpuMs / (linkinator.pages / linkinator.cpuMs);
    console.log(`Loupe / linkinator, pages/s: ${fixed(ratio, 2)}×; pages per CPU second: ${fixed(cpuRatio, 2)}×`);
    summary.push([`pages/s ≥ ${AIM_RATIO}× linkinator's (${SETTINGS.pages} pages)`, `${fixed(ratio, 2)}×`, ratio >= AIM_RATIO]);
  }
  for (const r of [small, large]) {
    if (r) summary.push([`${r.tool}: peak RSS < ${AIM_PEAK_MB} MB`, `${mb(r.peakRss)} MB`, r.peakRss < AIM_PEAK_MB * 1024]);
  }
  if (large && SETTINGS.largePages > SETTINGS.pages) {
    // In the same process: V8 sizes its heap differently from one run to the next, so two runs' peaks differ by tens of MB whatever the size.
    const early = large.samples.filter((sample) => sample.pages !== undefined && sample.pages <= SETTINGS.pages);
    const earlyPeak = early.length > 0 ? Math.max(...early.map((sample) => sample.rss)) : Number.NaN;
    const growth = large.peakRss / earlyPeak - 1;
    const signed = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;
    summary.push([
      `flat memory: ${large.tool} peak ≤ ${(1 + AIM_FLAT_GROWTH).toFixed(2)}× its RSS up to ${SETTINGS.pages} pages`,
      Number.isFinite(growth) ? `${signed(growth)} (${mb(earlyPeak)} → ${mb(large.peakRss)} MB)` : 'no samples',
      Number.isFinite(growth) ? growth <= AIM_FLAT_GROWTH : undefined,
    ]);
    if (small) console.log(`peak RSS, ${large.tool} / ${small.tool} (separate processes): ${signed(large.peakRss / small.peakRss - 1)}`);
  }
  if (summary.length > 0) {
    printTable(['aim', 'measured', 'verdict'], summary.map(([aim, value, met]) => [aim, value, met === undefined ? 'skipped' : met ? 'met' : 'NOT met']));
  }
  console.log(`load average at the end: ${loadAverage()} (1, 5, 15 min)`);
  if (notes.length > 0) {
    console.log('');
    for (const text of notes) console.log(`note: ${text}`);
  }
}

await runBench(main);
