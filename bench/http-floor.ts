/**
 * The least latency any HTTP figure of this machine can show: a Fastify server in a child
 * process answering every GET with the same JSON text already made (some 2 KB, ten search hits'
 * worth), and BENCH_CLIENTS clients on keep-alive connections sending their next request as soon
 * as they have the answer, as bench/search.ts's clients do (undici's Pool). Nothing of Loupe
 * runs: what is left is Node's HTTP, the loopback and the two processes sharing the cores, the
 * floor under the search aim (p99 under 20 ms at 20 concurrent queries). Run by hand:
 *
 *   node_modules/.bin/node bench/http-floor.ts
 *
 *   BENCH_CLIENTS  clients at once (default 20)
 *   BENCH_SECONDS  how long they send (default 10)
 */
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { Pool } from 'undici';
import {
  cleanups,
  cpuOf,
  freePort,
  loadAverage,
  printTable,
  quantile,
  readClockTicks,
  runBench,
  sleep,
  stopChild,
  track,
  wholeNumberSetting,
} from './bench-kit.ts';

const CLIENTS = wholeNumberSetting('BENCH_CLIENTS', 20, 1, 200);
const SECONDS = wholeNumberSetting('BENCH_SECONDS', 10, 1, 3600);

/** The server: one route, one answer, no logging. */
const SERVER = `
  const { default: Fastify } = await import('fastify');
  const hits = Array.from({ length: 10 }, (_, i) => ({ pageId: '01900000-0000-7000-8000-' + String(i).padStart(12, '0'),
    url: 'https://shop.example/page/' + i, title: 'A page of the shop', snippet: 'words around the <mark>match</mark> '.repeat(5), score: 0.1 * i }));
  const body = JSON.stringify(hits);
  const app = Fastify({ logger: false });
  app.get('/', async (request, reply) => reply.type('application/json; charset=utf-8').send(body));
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
`;

async function load(url: string, clients: number, seconds: number) {
  const pool = new Pool(url, { connections: clients });
  const samples: number[] = [];
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  const client = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      const response = await pool.request({ method: 'GET', path: '/' });
      await response.body.text();
      samples.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  await pool.close();
  return { samples, seconds: (performance.now() - t0) / 1000 };
}

async function main(): Promise<void> {
  await readClockTicks();
  console.log(`http floor: ${CLIENTS} clients for ${SECONDS} s; ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load ${loadAverage()}`);
  const port = await freePort();
  const server = track(
    spawn(process.execPath, ['--input-type=module', '-e', SERVER], { env: { ...process.env, PORT: String(port) }, stdio: 'inherit' }),
  );
  cleanups.push(() => stopChild(server, 'SIGTERM'));
  const url = `http://127.0.0.1:${port}`;
  while (
    !(await fetch(url).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await sleep(50);
  await load(url, CLIENTS, 2);
  const rows: string[][] = [];
  for (const clients of [1, CLIENTS]) {
    const cpuBefore = await cpuOf(server.pid!);
    const clientBefore = process.cpuUsage();
    const run = await load(url, clients, SECONDS);
    const serverCpu = ((await cpuOf(server.pid!)) - cpuBefore) / 1000 / run.seconds;
    const clientCpu = process.cpuUsage(clientBefore);
    const ms = run.samples;
    rows.push([
      String(clients),
      String(ms.length),
      (ms.length / run.seconds).toFixed(0),
      quantile(ms, 0.5).toFixed(2),
      quantile(ms, 0.95).toFixed(2),
      quantile(ms, 0.99).toFixed(2),
      ms.reduce((a, b) => Math.max(a, b), 0).toFixed(1),
      `${(serverCpu * 100).toFixed(0)}%`,
      `${(((clientCpu.user + clientCpu.system) / 1e6 / run.seconds) * 100).toFixed(0)}%`,
    ]);
  }
  printTable(['clients', 'n', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'server CPU', 'clients CPU'], rows);
}

await runBench(main);
