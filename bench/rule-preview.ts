/**
 * The rule pack preview end to end: a real Loupe server crawls the generated shop pages, then
 * the preview of the 50-rule pack over them is timed over HTTP. Aim (issue #5): under 2 s for
 * 300 pages and 50 rules. Run by hand: `node_modules/.bin/node bench/rule-preview.ts` (Node 24).
 *
 *   BENCH_PAGES    generated pages the site serves and the crawl stores (default 300)
 *   BENCH_ROUNDS   timed previews of each endpoint after one warm-up (default 5)
 *   BENCH_SEED     seed of the pages and pack (default 1)
 *   BENCH_SAMPLES  the previews' `samples` (default 5, the API's default)
 *   BENCH_CPU_PROF a file: a CPU profile of the timed previews alone (not the crawl) is written there
 *   DATABASE_URL   run the server on this PostgreSQL (e.g. postgres://postgres@127.0.0.1:5432/test)
 *                  in a schema made for the run and dropped afterwards; SQLite in a temp dir otherwise
 *
 * Pages and pack are those of `rule-bench-fixtures.ts`, served on loopback by `startTestSite`
 * and crawled from `/` by links alone (no sitemap). Server, site and client share this
 * process: the site is idle while previews run, and the client's share of the CPU (one JSON
 * request and answer per preview) is small. "CPU" is this process's user + system time per
 * preview (the PostgreSQL server's own is not in it). The bodies of the answers are hashed,
 * origin and page ids left out, so runs before and after a change can be compared: `counts`
 * covers each rule's tallies, `answer` the sample messages too (which pages are the samples
 * follows the order the crawl stored them in, so that one may differ from crawl to crawl).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { type Config, loadConfig } from '../packages/server/src/config.ts';
import { issueKey, provisionWorkspace } from '../packages/server/src/provisioning/provisioning.ts';
import { startServer } from '../packages/server/src/server.ts';
import { TINY_PNG } from '../packages/server/src/testing/fixture-sites.ts';
import { createServerSchema } from '../packages/server/src/testing/test-database.ts';
import { type PageSpec, startTestSite } from '../packages/server/src/testing/test-site.ts';
import { cleanups, loadAverage, printTable, quantile, runBench } from './bench-kit.ts';
import { BENCH_ASSETS, benchRulePack, generatePages } from './rule-bench-fixtures.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 5);
const DATABASE_URL = process.env.DATABASE_URL || undefined;
const CPU_PROF = process.env.BENCH_CPU_PROF || undefined;
const AIM_MS = 2000;

interface Answer {
  status: number;
  body: any;
}

async function main(): Promise<void> {
  console.log('Loupe rule pack preview benchmark');
  console.log(`date:      ${new Date().toISOString()}`);
  console.log(`node:      ${process.version} (${process.platform} ${process.arch})`);
  console.log(`cpus:      ${availableParallelism()} × ${cpus()[0]?.model.trim() ?? 'unknown'}; load average ${loadAverage()}`);
  console.log(`database:  ${DATABASE_URL ? `PostgreSQL at ${new URL(DATABASE_URL).host}` : 'SQLite (node:sqlite, temp dir)'}`);

  const pages = generatePages(PAGES, SEED);
  const packInput = benchRulePack(SEED);
  const served: Record<string, PageSpec> = {};
  for (const page of pages) served[page.path.split('?')[0] as string] = { status: page.status, headers: page.headers, body: page.html };
  for (const asset of BENCH_ASSETS) {
    served[asset] = asset.endsWith('.css')
      ? { body: '.c{color:#333}', contentType: 'text/css' }
      : { body: TINY_PNG, contentType: 'image/png' };
  }
  const htmlBytes = pages.reduce((sum, page) => sum + page.html.length, 0);
  console.log(
    `site:      ${PAGES} pages, ${(htmlBytes / PAGES / 1024).toFixed(1)} KB of HTML on average; pack of ${packInput.rules.length} rules`,
  );
  console.log(`previews:  ${ROUNDS} timed rounds per endpoint after one warm-up, samples ${SAMPLES}\n`);

  const site = await startTestSite({ pages: served }, { record: false });
  cleanups.push(() => site.close());
  const dataDir = await mkdtemp(join(tmpdir(), 'loupe-bench-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const postgres = DATABASE_URL ? await createServerSchema(DATABASE_URL, 'bench') : undefined;
  if (postgres) cleanups.push(() => postgres.drop());
  const config: Config = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: DATABASE_URL,
    databaseSchema: postgres?.schema,
    bootstrapKey: `loupe_${randomBytes(24).toString('base64url')}`,
    logLevel: 'silent',
    crawlAllowPrivate: true,
  };
  const server = await startServer(config, pino({ level: 'silent' }));
  cleanups.push(() => server.close());

  const { workspaceId, userId } = await provisionWorkspace(server.database, server.plans, {
    name: 'Bench',
    plan: 'pro',
    ownerEmail: 'bench@example.test',
  });
  const { secret } = await issueKey(server.database, { workspaceId, userId, role: 'owner', name: 'bench' });
  const headers = { authorization: `Bearer ${secret}`, 'x-service-team': workspaceId };
  const request = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(server.url + path, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
  const expect = (answer: Answer, status: number, what: string) => {
    if (answer.status !== status)
      throw new Error(`${what}: expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
    return answer.body;
  };

  const project = expect(
    await request('POST', '/api/v1/projects', { name: 'Bench shop', siteUrl: site.url('/'), crawlDefaults: { sitemaps: false } }),
    201,
    'create the project',
  );
  const crawlStart = performance.now();
  const crawl = expect(await request('POST', `/api/v1/projects/${project.id}/crawls`, {}), 202, 'start the crawl');
  // The event stream ends when the crawl does (its report built).
  const events = await fetch(`${server.url}/api/v1/crawls/${crawl.id}/events`, { headers });
  if (events.status !== 200) throw new Error(`crawl events: ${events.status}`);
  await events.text();
  const crawlMs = performance.now() - crawlStart;
  const ended = expect(await request('GET', `/api/v1/crawls/${crawl.id}`), 200, 'read the crawl');
  console.log(`crawl:     ${ended.status}, ${ended.pagesCrawled} pages in ${(crawlMs / 1000).toFixed(1)} s`);
  if (ended.status !== 'completed') throw new Error(`the crawl ended ${ended.status}: ${ended.error}`);

  const pack = expect(await request('POST', '/api/v1/rule-packs', { name: 'bench', pack: packInput }), 201, 'save the pack');

  const endpoints = [
    {
      title: 'saved pack: POST /rule-packs/{id}/preview',
      path: `/api/v1/rule-packs/${pack.id}/preview`,
      body: { projectId: project.id, samples: SAMPLES },
    },
    {
      title: 'unsaved pack: POST /rule-packs/preview',
      path: '/api/v1/rule-packs/preview',
      body: { projectId: project.id, samples: SAMPLES, pack: packInput },
    },
  ];
  const profiler = CPU_PROF ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const rows: string[][] = [];
  const hashes = new Set<string>();
  let medianOfSaved = Number.NaN;
  let lastAnswer: any;
  for (const endpoint of endpoints) {
    const times: number[] = [];
    const cpu: number[] = [];
    let evaluated = 0;
    for (let round = 0; round <= ROUNDS; round++) {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      const answer = expect(await request('POST', endpoint.path, endpoint.body), 200, endpoint.title);
      const elapsed = performance.now() - start;
      const used = process.cpuUsage(cpuStart);
      if (round === 0) continue; // warm-up
      times.push(elapsed);
      cpu.push((used.user + used.system) / 1000);
      evaluated = answer.pagesEvaluated;
      hashes.add(digest(answer, site.origin));
      lastAnswer = answer;
    }
    const median = quantile(times, 0.5);
    if (Number.isNaN(medianOfSaved)) medianOfSaved = median;
    rows.push([
      endpoint.title,
      `${median.toFixed(0)} ms`,
      `${Math.max(...times).toFixed(0)} ms`,
      `${(median / Math.max(1, evaluated)).toFixed(2)} ms`,
      `${quantile(cpu, 0.5).toFixed(0)} ms`,
      String(evaluated),
    ]);
  }
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    await writeFile(CPU_PROF as string, JSON.stringify(profile));
    profiler.disconnect();
    console.log(`CPU profile of the previews: ${CPU_PROF}`);
  }
  printTable(['endpoint', 'median', 'max', 'per page', 'CPU (median)', 'pages evaluated'], rows);

  const rules: any[] = lastAnswer?.rules ?? [];
  const sum = (key: string) => rules.reduce((total, rule) => total + rule[key], 0);
  console.log(
    `\nanswer: ${rules.length} rules; pages in scope ${sum('pagesInScope')}, failing ${sum('pagesFailing')}, not applicable ${sum('pagesNotApplicable')}; ${rules.reduce((n, rule) => n + rule.samples.length, 0)} samples`,
  );
  console.log(`hashes: ${[...hashes].join(' | ')}${hashes.size === 1 ? '' : '  (answers differed between rounds or endpoints!)'}`);
  console.log(
    `aim: median under ${AIM_MS} ms for the saved pack: ${medianOfSaved < AIM_MS ? 'met' : 'NOT met'} (${medianOfSaved.toFixed(0)} ms)`,
  );
}

/** The tallies alone, then the whole answer with samples, without what differs from run to run (origin, ids). */
function digest(answer: any, origin: string): string {
  const counts = answer.rules.map((rule: any) => [rule.ruleId, rule.pagesInScope, rule.pagesFailing, rule.pagesNotApplicable]);
  const samples = answer.rules.map((rule: any) => rule.samples.map((sample: any) => [sample.url, sample.message]));
  const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(value).replaceAll(origin, '')).digest('hex').slice(0, 12);
  return `counts ${hash(counts)} answer ${hash([counts, samples])}`;
}

await runBench(main);
