/**
 * The rendering browser pool on the real PostgreSQL manual: `node bench/render.ts` (Node 24, Debian's
 * chromium). Issue #28's aims: at least 4 rendered pages per second on this 2-core machine at the
 * default concurrency, peak memory (this process and the browser together) under 1.5 GB.
 *
 *   BENCH_PGDOCS_DIR       the manual, unpacked (default /tmp/pgdocs; made with
 *                          ../shared/testdata/sites/postgres-docs.sh when missing)
 *   BENCH_PAGES            pages rendered, in the manual's file order (default 300; 0 = all 1,169)
 *   BENCH_CONCURRENCY      pages rendered at once (default 4)
 *   BENCH_ACCESSIBILITY    1: run axe-core on each page (default 1)
 *   BENCH_SCREENSHOT       1: keep a screenshot of each page (default 1)
 *   BENCH_PAGES_PER_CONTEXT  a context serves this many pages (default 50)
 *
 * The pool runs in this process as a crawl runs it in the server's: the manual is served on loopback
 * by sirv (static-site.ts), and Chromium reaches it through the guarded proxy (private addresses
 * allowed, as LOUPE_CRAWL_ALLOW_PRIVATE does for local sites). Memory is sampled every second (a reading of Chromium's PSS costs tens of ms of CPU): this
 * process's RSS plus every Chromium process below it (/proc).
 */

import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { BrowserPool } from '../packages/server/src/rendering/browser-pool.ts';
import type { RenderSteps } from '../packages/server/src/rendering/page-renderer.ts';
import { processMemory, processTreeMemory } from '../packages/server/src/rendering/process-memory.ts';
import { DEFAULT_CHROMIUM } from '../packages/server/src/rendering/rendering-browser.ts';
import { cpuOf, loadAverage, numberSetting, printTable, quantile, readClockTicks, run, runBench, wholeNumberSetting } from './bench-kit.ts';
import { startStaticSite } from './static-site.ts';

const dir = process.env.BENCH_PGDOCS_DIR ?? '/tmp/pgdocs';
const pageCount = wholeNumberSetting('BENCH_PAGES', 300);
const concurrency = wholeNumberSetting('BENCH_CONCURRENCY', 4, 1, 32);
const accessibility = numberSetting('BENCH_ACCESSIBILITY', 1) === 1;
const screenshot = numberSetting('BENCH_SCREENSHOT', 1) === 1;
const pagesPerContext = wholeNumberSetting('BENCH_PAGES_PER_CONTEXT', 50, 1);

await runBench(async () => {
  if (!existsSync(dir)) await run('bash', [new URL('../../shared/testdata/sites/postgres-docs.sh', import.meta.url).pathname, dir]);
  const files = (await readdir(dir)).filter((name) => name.endsWith('.html')).sort();
  const chosen = pageCount === 0 ? files : files.slice(0, pageCount);
  const site = await startStaticSite(dir);
  console.log(`load average at start: ${loadAverage()}`);
  console.log(`${chosen.length} pages of the manual, concurrency ${concurrency}, axe ${accessibility}, screenshots ${screenshot}`);

  const pool = await BrowserPool.start({
    executablePath: DEFAULT_CHROMIUM,
    allowPrivate: true,
    concurrency,
    pagesPerContext,
    memoryBudgetBytes: 1024 ** 3,
    userAgent: 'LoupeBot/1.0 (bench)',
  });
  let peak = 0;
  const browserCpu = new Map<number, { type: string; cpuMs: number }>();
  const sampler = setInterval(() => {
    void chromiumCpu(browserCpu);
    void processTreeMemory(process.pid, /^chrom/).then(async (browser) => {
      peak = Math.max(peak, browser + (await processMemory(process.pid)));
    });
  }, 1_000);

  await readClockTicks();
  const cpuBefore = await cpuSplit();
  const started = performance.now();
  const results = await Promise.all(
    chosen.map((name) => pool.render(site.url(`/${name}`), { timeoutMs: 30_000, settleMs: 2_000, accessibility, screenshot })),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await chromiumCpu(browserCpu);
  const stats = pool.stats();
  await pool.close();
  await site.close();
  const cpuAfter = await cpuSplit();

  const failed = results.filter((page) => page.error !== null);
  const durations = results.map((page) => page.durationMs);
  const violations = results.reduce((sum, page) => sum + (page.accessibility?.length ?? 0), 0);
  const shots = results.filter((page) => page.screenshot).map((page) => page.screenshot?.length ?? 0);
  printTable(
    ['pages', 'seconds', 'pages/s', 'p50 ms', 'p95 ms', 'failed', 'peak MB', 'browser starts', 'contexts'],
    [
      [
        String(results.length),
        seconds.toFixed(1),
        (results.length / seconds).toFixed(2),
        String(Math.round(quantile(durations, 0.5))),
        String(Math.round(quantile(durations, 0.95))),
        String(failed.length),
        String(Math.round(peak / 1024 ** 2)),
        String(stats.browserStarts),
        String(stats.contexts),
      ],
    ],
  );
  console.log(
    `axe violations (rules) over all pages: ${violations}; screenshots: mean ${Math.round(shots.reduce((a, b) => a + b, 0) / Math.max(1, shots.length) / 1024)} KB`,
  );
  const stepNames = Object.keys(results[0]?.steps ?? {}) as (keyof RenderSteps)[];
  printTable(
    ['step', 'mean ms', 'p50 ms', 'p95 ms'],
    stepNames.map((step) => {
      const times = results.map((page) => page.steps?.[step] ?? 0);
      return [
        step.replace(/Ms$/, ''),
        String(Math.round(times.reduce((a, b) => a + b, 0) / times.length)),
        String(Math.round(quantile(times, 0.5))),
        String(Math.round(quantile(times, 0.95))),
      ];
    }),
  );
  const nodeCpu = cpuAfter.self - cpuBefore.self;
  const byType = new Map<string, number>();
  for (const { type, cpuMs } of browserCpu.values()) byType.set(type, (byType.get(type) ?? 0) + cpuMs);
  const chromiumMs = [...byType.values()].reduce((a, b) => a + b, 0);
  const perPage = (ms: number) => `${Math.round(ms / results.length)} ms`;
  console.log(
    `CPU per page: this process (pool, proxy, static site) ${perPage(nodeCpu)}; Chromium ${perPage(chromiumMs)} (${[...byType]
      .map(([type, ms]) => `${type} ${perPage(ms)}`)
      .join(', ')}); ${(((nodeCpu + chromiumMs) / 1000 / seconds) * 100).toFixed(0)}% of one core over the run`,
  );
  for (const page of failed.slice(0, 5)) console.log(`failed: ${page.url}: ${page.error}`);
  console.log(`load average at end: ${loadAverage()}`);
});

/** CPU ms of this process, all its threads: the pool, the proxy, the static site. */
async function cpuSplit(): Promise<{ self: number }> {
  return { self: await cpuOf(process.pid) };
}

/**
 * CPU ms of each Chromium process below this one, by pid, with its `--type` (renderer, gpu-process,
 * utility; none for the browser process). Sampled as the run goes, since a tab's renderer exits
 * with it and no ancestor of ours reaps it.
 */
async function chromiumCpu(into: Map<number, { type: string; cpuMs: number }>): Promise<void> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (stat) parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  for (const pid of parents.keys()) {
    let ancestor = parents.get(pid);
    while (ancestor !== undefined && ancestor > 1 && ancestor !== process.pid) ancestor = parents.get(ancestor);
    if (ancestor !== process.pid) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.includes('chrom')) continue;
    const cpuMs = await cpuOf(pid);
    if (Number.isNaN(cpuMs)) continue;
    const type = /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser';
    const known = into.get(pid);
    into.set(pid, { type, cpuMs: Math.max(cpuMs, known?.cpuMs ?? 0) });
  }
}
