/**
 * What unauthenticated request bodies cost the server (issue #22, point 4): the real server as
 * `npm start` runs it, then BENCH_BODIES concurrent bodies of BENCH_BODY_MB each, sent whole by
 * clients that hold no credential, first as PUTs to an upload URL whose token was never issued,
 * then as POSTs to /mcp with a key that does not exist. Each kind runs on a server of its own, so
 * its peak (VmHWM) is its own. Printed: the server's resident memory (/proc/<pid>/status) before,
 * the highest sampled while the bodies are sent, its VmHWM after, and what the clients got back.
 * Run by hand:
 *
 *   node_modules/.bin/node bench/unauthenticated-bodies.ts
 *
 *   BENCH_BODIES   bodies at once (default 6)
 *   BENCH_BODY_MB  size of each body in MiB (default 45)
 */
import { request } from 'node:http';
import { cpus } from 'node:os';
import { loadAverage, memoryOf, printTable, runBench, sleep, wholeNumberSetting } from './bench-kit.ts';
import { type Loupe, startLoupe } from './loupe-server.ts';

const BODIES = wholeNumberSetting('BENCH_BODIES', 6, 1, 100);
const BODY_MB = wholeNumberSetting('BENCH_BODY_MB', 45, 1, 1024);
const CHUNK = Buffer.alloc(1024 * 1024, 'A');

interface Sent {
  status: number | 'reset';
  /** Bytes of the body written before the answer came or the connection closed. */
  written: number;
}

/**
 * Sends a body of BODY_MB MiB as fast as the socket takes it, and resolves with the answer's
 * status once the answer has come and the body is done (all written, or cut by the server).
 */
function sendBody(url: string, method: string, headers: Record<string, string>, prefix: string, suffix: string): Promise<Sent> {
  return new Promise((resolve) => {
    const total = BODY_MB * CHUNK.length;
    const req = request(url, { method, headers: { ...headers, 'content-length': String(total) } });
    let status: number | 'reset' = 'reset';
    let written = 0;
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      resolve({ status, written });
    };
    req.on('response', (response) => {
      status = response.statusCode ?? 0;
      response.resume();
      response.on('end', () => {
        // The server answered before the body was sent: nothing more of it is wanted.
        if (written < total) req.destroy();
        done();
      });
    });
    req.on('error', done);
    req.on('close', done);
    const write = () => {
      while (written < total) {
        let piece: Buffer = CHUNK;
        if (written === 0) piece = Buffer.concat([Buffer.from(prefix), CHUNK.subarray(prefix.length)]);
        else if (written + CHUNK.length >= total)
          piece = Buffer.concat([CHUNK.subarray(0, CHUNK.length - suffix.length), Buffer.from(suffix)]);
        written += piece.length;
        if (!req.write(piece)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

/** Samples the server's resident memory every 20 ms while `work` runs; the highest seen. */
async function peakWhile<T>(pid: number, work: Promise<T>): Promise<{ result: T; peakKb: number }> {
  let peakKb = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peakKb = Math.max(peakKb, (await memoryOf(pid))?.rss ?? 0);
      await sleep(20);
    }
  })();
  const result = await work;
  running = false;
  await sampler;
  return { result, peakKb };
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

async function measure(label: string, send: (loupe: Loupe) => Promise<Sent>): Promise<string[]> {
  const loupe = await startLoupe({ label: 'unauthenticated-bodies' });
  // A few authenticated requests first, so the baseline is a server that has served something.
  for (let i = 0; i < 5; i++)
    await fetch(`${loupe.url}/api/v1/teams`, { headers: { authorization: `Bearer ${loupe.key}` } }).then((r) => r.text());
  await sleep(500);
  const before = (await memoryOf(loupe.pid))!;
  const started = performance.now();
  const { result, peakKb } = await peakWhile(loupe.pid, Promise.all(Array.from({ length: BODIES }, () => send(loupe))));
  const seconds = (performance.now() - started) / 1000;
  await sleep(500);
  const after = (await memoryOf(loupe.pid))!;
  await loupe.stop();
  const statuses = [...new Set(result.map((sent) => String(sent.status)))].join(', ');
  const read = result.reduce((sum, sent) => sum + sent.written, 0) / 1024 / 1024;
  return [label, mb(before.rss), mb(peakKb), mb(after.rss), mb(after.hwm), statuses, `${read.toFixed(0)} MiB`, `${seconds.toFixed(2)} s`];
}

async function main(): Promise<void> {
  console.log(`unauthenticated bodies: ${BODIES} × ${BODY_MB} MiB at once; ${cpus().length} CPUs, load ${loadAverage()}`);
  const rows = [
    await measure('PUT /api/images/uploads/<unknown token>', (loupe) =>
      sendBody(`${loupe.url}/api/images/uploads/${'x'.repeat(43)}`, 'PUT', { 'content-type': 'application/octet-stream' }, '', ''),
    ),
    await measure('POST /mcp with an unknown key', (loupe) =>
      sendBody(
        `${loupe.url}/mcp`,
        'POST',
        { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer loupe_not-a-key' },
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"data":"',
        '"}}}',
      ),
    ),
  ];
  printTable(['bodies', 'RSS before', 'RSS peak', 'RSS after', 'VmHWM', 'answers', 'sent by clients', 'time'], rows);
}

await runBench(main);
