/**
 * Throughput of the preset endpoints against a bare Fastify route on the same machine, in
 * the same run: `npm run bench:presets` (Node 24).
 *
 *   BENCH_SECONDS         measured seconds per scenario (default 10)
 *   BENCH_WARMUP_SECONDS  unmeasured warm-up before each scenario (default 2; 0 skips it)
 *   DATABASE_URL          run Loupe on this PostgreSQL instead of SQLite, in a schema made
 *                         for the run and dropped afterwards
 *
 * Each server under test (the bare route, then Loupe) runs in a worker thread of this file
 * and autocannon on the main thread, so client and server do not share an event loop: each
 * gets a core of its own, as they would on separate processes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { type Config, loadConfig } from '../packages/server/src/config.ts';
import { startServer } from '../packages/server/src/server.ts';
import { createServerSchema } from '../packages/server/src/testing/test-database.ts';

const CONNECTIONS = 50;
const SEEDED_PRESETS = 10;
const TRANSFORMS = { width: 400, fit: 'cover', format: 'webp' } as const;

/** A fixed list shaped and sized like the answer to GET …/presets with 10 presets. */
const BARE_LIST = Array.from({ length: SEEDED_PRESETS }, (_, i) => ({
  id: `0198a3c4-5e6f-7a8b-9c0d-${String(i).padStart(12, '0')}`,
  name: `preset-${i}`,
  transforms: TRANSFORMS,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
}));

/** What a worker thread serves. */
type Target = { kind: 'bare' } | { kind: 'loupe'; config: Config };

// ---------------------------------------------------------------------------------------
// The worker thread: one server under test, until the main thread says close.

async function serve(target: Target): Promise<void> {
  let url: string;
  let close: () => Promise<void>;
  if (target.kind === 'bare') {
    const app: FastifyInstance = Fastify({ logger: false });
    app.get('/bare', async () => BARE_LIST);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    close = () => app.close();
  } else {
    const server = await startServer(target.config, pino({ level: 'silent' }));
    url = server.url;
    close = () => server.close();
  }
  const port = parentPort!;
  port.on('message', (message: 'cpu' | 'close') => {
    if (message === 'cpu') {
      const { user, system } = process.threadCpuUsage();
      port.postMessage({ cpu: user + system });
      return;
    }
    // A failure to close ends this thread with it, and the main thread reports it.
    void close().then(() => port.close());
  });
  port.postMessage({ url });
}

// ---------------------------------------------------------------------------------------
// The main thread: starts targets, seeds, loads, reports.

interface RunningTarget {
  url: string;
  /** CPU time the server thread has used so far, in µs. */
  cpu(): Promise<number>;
  close(): Promise<void>;
}

/** Starts `target` in a worker thread of this file; resolves once it listens. */
function startTarget(target: Target): Promise<RunningTarget> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: target });
    const exited = new Promise<number>((done) => worker.once('exit', done));
    let failure: unknown;
    worker.on('error', (error) => {
      failure = error;
      reject(error);
    });
    worker.once('message', ({ url }: { url: string }) =>
      resolve({
        url,
        cpu() {
          return new Promise((answer) => {
            worker.once('message', ({ cpu }: { cpu: number }) => answer(cpu));
            worker.postMessage('cpu');
          });
        },
        async close() {
          worker.postMessage('close');
          const code = await exited;
          if (failure) throw failure;
          if (code !== 0) throw new Error(`the ${target.kind} server thread exited with code ${code}`);
        },
      }),
    );
    exited.then((code) => reject(new Error(`the ${target.kind} server thread exited with code ${code} before listening`)));
  });
}

interface Measured {
  title: string;
  result: autocannon.Result;
  /** Server-thread CPU time per completed request, µs: steadier than req/s on a busy machine. */
  cpuPerRequest: number;
}

async function load(
  target: RunningTarget,
  title: string,
  options: Pick<autocannon.Options, 'url' | 'method' | 'headers' | 'requests'>,
  measure: number,
  warmup: number,
): Promise<Measured> {
  const base = { ...options, connections: CONNECTIONS };
  if (warmup > 0) await autocannon({ ...base, duration: warmup });
  const cpuBefore = await target.cpu();
  const result = await autocannon({ ...base, duration: measure });
  const cpu = (await target.cpu()) - cpuBefore;
  return { title, result, cpuPerRequest: cpu / Math.max(1, result.requests.total) };
}

function seconds(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of seconds, got "${raw}"`);
  return value;
}

async function expectJson(response: Response, status: number, what: string): Promise<any> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status}: ${text}`);
  return JSON.parse(text);
}

async function benchBare(measure: number, warmup: number): Promise<Measured> {
  const target = await startTarget({ kind: 'bare' });
  try {
    return await load(target, 'bare Fastify GET /bare', { url: `${target.url}/bare` }, measure, warmup);
  } finally {
    await target.close();
  }
}

async function benchLoupe(measure: number, warmup: number, databaseUrl: string | undefined): Promise<Measured[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'loupe-bench-'));
  let postgres: Awaited<ReturnType<typeof createServerSchema>> | undefined;
  let target: RunningTarget | undefined;
  try {
    postgres = databaseUrl ? await createServerSchema(databaseUrl, 'bench') : undefined;
    const bootstrapKey = `loupe_${randomBytes(24).toString('base64url')}`;
    const config: Config = {
      ...loadConfig({}),
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl,
      databaseSchema: postgres?.schema,
      bootstrapKey,
      logLevel: 'silent',
    };
    target = await startTarget({ kind: 'loupe', config });
    const auth = { authorization: `Bearer ${bootstrapKey}` };
    const json = { ...auth, 'content-type': 'application/json' };

    const project = await expectJson(
      await fetch(`${target.url}/api/images/projects`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Bench' }),
      }),
      201,
      'create project',
    );
    const presetsUrl = `${target.url}/api/images/projects/${project.id}/presets`;
    for (let i = 0; i < SEEDED_PRESETS; i++) {
      await expectJson(
        await fetch(presetsUrl, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ name: `seed-${i}`, transforms: TRANSFORMS }),
        }),
        201,
        `create preset seed-${i}`,
      );
    }
    const listed = await expectJson(await fetch(presetsUrl, { headers: auth }), 200, 'list presets');
    if (!Array.isArray(listed) || listed.length !== SEEDED_PRESETS) {
      throw new Error(`list presets: expected ${SEEDED_PRESETS} items, got ${JSON.stringify(listed).slice(0, 200)}`);
    }

    // GET first, so it lists exactly the 10 seeded presets, not the thousands the POST run adds.
    const get = await load(target, 'Loupe GET …/presets', { url: presetsUrl, headers: auth }, measure, warmup);
    let counter = 0;
    const post = await load(
      target,
      'Loupe POST …/presets',
      {
        url: presetsUrl,
        method: 'POST',
        headers: json,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({ name: `b-${++counter}`, transforms: TRANSFORMS }),
            }),
          },
        ],
      },
      measure,
      warmup,
    );
    return [get, post];
  } finally {
    await target?.close();
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function printTable(rows: Measured[]): void {
  const cells = [
    ['scenario', 'req/s (avg)', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'requests', 'server CPU µs/req'],
    ...rows.map(({ title, result: r, cpuPerRequest }) => [
      title,
      r.requests.average.toFixed(0),
      String(r.latency.p50),
      String(r.latency.p99),
      String(r.non2xx),
      String(r.errors),
      String(r.requests.total),
      cpuPerRequest.toFixed(0),
    ]),
  ];
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  console.log(line(cells[0]!));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of cells.slice(1)) console.log(line(row));
  for (const { title, result: r } of rows) {
    if (r.non2xx === 0 && r.errors === 0) continue;
    const codes = Object.entries(r.statusCodeStats ?? {}).map(([code, stats]) => `${code}×${stats.count ?? 0}`);
    console.log(`  ${title}: status codes ${codes.join(', ')}; ${r.timeouts} timeouts`);
  }
}

async function main(): Promise<void> {
  const measure = seconds('BENCH_SECONDS', 10);
  const warmup = seconds('BENCH_WARMUP_SECONDS', 2);
  if (measure <= 0) throw new Error('BENCH_SECONDS must be above 0');
  const databaseUrl = process.env.DATABASE_URL || undefined;

  console.log('Loupe preset benchmark');
  console.log(`date:      ${new Date().toISOString()}`);
  console.log(`node:      ${process.version} (${process.platform} ${process.arch})`);
  console.log(`cpus:      ${availableParallelism()} × ${cpus()[0]?.model.trim() ?? 'unknown'}`);
  console.log(`database:  ${databaseUrl ? `PostgreSQL at ${new URL(databaseUrl).host}` : 'SQLite (node:sqlite, temp dir)'}`);
  console.log(`load:      autocannon, ${CONNECTIONS} connections, ${measure} s measured after ${warmup} s warm-up, each`);
  console.log('');

  const bare = await benchBare(measure, warmup);
  const [get, post] = (await benchLoupe(measure, warmup, databaseUrl)) as [Measured, Measured];
  printTable([bare, get, post]);

  const ratio = get.result.requests.average / bare.result.requests.average;
  const p99 = get.result.latency.p99;
  const met = ratio >= 0.5 && p99 < 20 && get.result.non2xx === 0;
  console.log('');
  console.log(`Loupe GET throughput / bare route: ${(ratio * 100).toFixed(1)}%`);
  console.log(`Loupe GET server CPU per request / bare route: ${(get.cpuPerRequest / bare.cpuPerRequest).toFixed(1)}×`);
  console.log(`target (GET ≥ 50% of bare, p99 < 20 ms, all 2xx): ${met ? 'met' : 'NOT met'}`);
}

if (isMainThread) await main();
else await serve(workerData as Target);
