/**
 * The CDN against the tools it replaces, in one run on this machine: `npm run bench:cdn`
 * (Node 24). Needs the Debian packages libvips-tools, nginx, libnginx-mod-http-image-filter,
 * wrk and hyperfine; a missing one skips its comparison with a note (autocannon stands in
 * for wrk, spawning for hyperfine).
 *
 *   BENCH_SECONDS          measured seconds per throughput run (default 10)
 *   BENCH_WARMUP_SECONDS   unmeasured warm-up before each throughput run (default 2)
 *   BENCH_ROUNDS           throughput runs per target, alternating Loupe and nginx; the best counts (default 2)
 *   BENCH_COLD_REQUESTS    timed requests or processes per cold-transform row (default 15)
 *   BENCH_MIXED_SECONDS    length of the mixed load of part 4 (default 60; 600 for the 10-minute figure)
 *   BENCH_MIXED_CLIENTS    concurrent clients of the mixed load (default 8)
 *   BENCH_MIXED_FORMATS    output formats of its cold variants (default webp,jpeg,png,avif,jxl)
 *   BENCH_SEED             seed of the mixed load's choices (default 1)
 *   BENCH_PARTS            which parts to run (default 1,2,3,4,5)
 *   BENCH_ORIGIN_ROUNDS    distinct paths per photo in part 5 (default 5)
 *   BENCH_SERVER_ENV       extra environment of the Loupe servers, `NAME=value` separated by spaces
 *                          (e.g. `MALLOC_ARENA_MAX=2 LOUPE_MEMORY_CACHE_BYTES=0`), to find where memory goes
 *   BENCH_CPU_PROF         a folder: the Loupe servers run with --cpu-prof and write their profiles there
 *
 * Loupe runs as a child process (`node packages/server/src/cli.ts serve`) on SQLite in a temp
 * data dir, so its CPU and resident memory are its own: the load generators (this process,
 * wrk) never share its event loop, and its RSS is read from /proc/<pid>/status.
 *
 *   1. Cold transform of a 4000×3000 JPEG to 800 wide: Loupe (WebP and JPEG; each request a
 *      distinct width, 800, 801, 802…, so each is a cache miss) against `vips thumbnail` per
 *      process and nginx's image_filter (JPEG).
 *   2. Warm variant throughput, 50 connections: Loupe against nginx (one worker, like Loupe's one
 *      process) serving the same bytes as a file; runs alternate, the best of each counts, and
 *      server CPU per request (from /proc) is shown too, since req/s moves with whatever else runs.
 *   3. 100 concurrent identical cold requests: how many transforms the usage counters record.
 *   4. Server RSS through a mixed load of cold variants (all five formats), warm hits and uploads.
 *   5. Origin fetch (cdn-origin.ts): the first request of an image fetched from a loopback origin
 *      serving the real photos, against a cold transform of it once held and a warm request.
 *
 * Other processes on the machine move every figure here; the load average is printed at the
 * start and the end so that a busy run can be told apart.
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { mulberry32 } from '../packages/server/src/testing/seeded-random.ts';
import {
  cleanups,
  cpuOf,
  freePort,
  loadAverage,
  memoryOf,
  note,
  notes,
  numberSetting,
  printTable,
  quantile,
  readClockTicks,
  run,
  runBench,
  sleep,
  stopChild,
  track,
} from './bench-kit.ts';
import { originFetchBench } from './cdn-origin.ts';
import { type Loupe, startLoupe } from './loupe-server.ts';

const TEST_IMAGES = fileURLToPath(new URL('../packages/server/testdata/images/', import.meta.url));
const CONNECTIONS = 50;
const BIG = { width: 4000, height: 3000, name: 'big.jpg' };
const TARGET_WIDTH = 800;
const JPEG_QUALITY = 80; // Loupe's default for JPEG and WebP; the others are set to match.
const IMAGE_FILTER_MODULE = '/usr/lib/nginx/modules/ngx_http_image_filter_module.so';

// ---------------------------------------------------------------------------------------
// Settings, cleanup, small helpers.

const SETTINGS = {
  seconds: numberSetting('BENCH_SECONDS', 10, 1),
  warmup: numberSetting('BENCH_WARMUP_SECONDS', 2),
  coldRequests: Math.round(numberSetting('BENCH_COLD_REQUESTS', 15, 3)),
  mixedSeconds: numberSetting('BENCH_MIXED_SECONDS', 60, 1),
  mixedClients: Math.round(numberSetting('BENCH_MIXED_CLIENTS', 8, 1)),
  rounds: Math.round(numberSetting('BENCH_ROUNDS', 2, 1)),
  seed: Math.round(numberSetting('BENCH_SEED', 1)),
  cpuProf: process.env.BENCH_CPU_PROF || undefined,
  mixedFormats: (process.env.BENCH_MIXED_FORMATS || 'webp,jpeg,png,avif,jxl').split(',').map((format) => format.trim()),
  parts: new Set((process.env.BENCH_PARTS || '1,2,3,4,5').split(',').map((part) => Number(part.trim()))),
  serverEnv: Object.fromEntries(
    (process.env.BENCH_SERVER_ENV ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  ) as Record<string, string>,
};

/** The absolute path of a command on PATH (and the sbin folders, where nginx lives), or undefined. */
function which(command: string): string | undefined {
  const folders = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const folder of folders) {
    if (folder && existsSync(join(folder, command))) return join(folder, command);
  }
  return undefined;
}

/** Deterministic choices for the mixed load. */
const random = mulberry32;

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–');
const mb = (kilobytes: number) => `${(kilobytes / 1024).toFixed(1)} MB`;
const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '–');

// ---------------------------------------------------------------------------------------
// Loupe as a child process, and its API.

/** Loupe as `npm start` runs it, on a data dir of its own. */
function startCdnLoupe(label: string): Promise<Loupe> {
  return startLoupe({
    label: `cdn-${label}`,
    env: SETTINGS.serverEnv,
    nodeFlags: SETTINGS.cpuProf
      ? ['--cpu-prof', `--cpu-prof-dir=${SETTINGS.cpuProf}`, `--cpu-prof-name=loupe-${label}-${Date.now()}.cpuprofile`]
      : [],
  });
}

class Api {
  readonly base: string;
  readonly #auth: Record<string, string>;

  constructor(base: string, key: string) {
    this.base = base;
    this.#auth = { authorization: `Bearer ${key}` };
  }

  async json(method: string, path: string, body: unknown, status: number): Promise<any> {
    const response = await fetch(this.base + path, {
      method,
      headers: { ...this.#auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text);
  }

  /** Multipart upload to `path`; resolves with the HTTP status. */
  async upload(projectId: string, path: string, data: Buffer, filename: string): Promise<number> {
    const form = new FormData();
    form.set('path', path);
    form.set('file', new Blob([new Uint8Array(data)]), filename);
    const response = await fetch(`${this.base}/api/images/projects/${projectId}/images`, {
      method: 'POST',
      headers: this.#auth,
      body: form,
    });
    await response.arrayBuffer();
    return response.status;
  }

  async transforms(projectId: string): Promise<number> {
    const days = (await this.json('GET', `/api/images/projects/${projectId}/usage?days=1`, undefined, 200)) as { transforms: number }[];
    return days.reduce((total, day) => total + day.transforms, 0);
  }
}

/** One GET; the time to the last byte of the body. */
async function timedGet(
  url: string,
): Promise<{ ms: number; status: number; cache: string | null; etag: string | null; bytes: number; type: string | null }> {
  const started = performance.now();
  const response = await fetch(url);
  const body = await response.arrayBuffer();
  return {
    ms: performance.now() - started,
    status: response.status,
    cache: response.headers.get('x-cache'),
    etag: response.headers.get('etag'),
    bytes: body.byteLength,
    type: response.headers.get('content-type'),
  };
}

// ---------------------------------------------------------------------------------------
// nginx, started on a free loopback port from a generated config.

interface Nginx {
  url: string;
  /** The master's; its workers are its children. */
  pid: number;
  stop(): Promise<void>;
}

async function startNginx(binary: string, directory: string, www: string, workers: string, imageFilter: boolean): Promise<Nginx> {
  await mkdir(directory, { recursive: true });
  await chmod(directory, 0o755);
  const port = await freePort();
  const config = `
${imageFilter ? `load_module ${IMAGE_FILTER_MODULE};` : ''}
daemon off;
master_process on;
worker_processes ${workers};
pid ${join(directory, 'nginx.pid')};
error_log ${join(directory, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 1000000;
  keepalive_timeout 65;
  client_body_temp_path ${join(directory, 'body')};
  proxy_temp_path ${join(directory, 'proxy')};
  fastcgi_temp_path ${join(directory, 'fastcgi')};
  uwsgi_temp_path ${join(directory, 'uwsgi')};
  scgi_temp_path ${join(directory, 'scgi')};
  types { image/jpeg jpg; image/webp webp; }
  server {
    listen 127.0.0.1:${port};
    root ${www};
    location = /ping { return 200 'ok'; }
    ${
      imageFilter
        ? `location = /resize/${BIG.name} {
      alias ${join(www, BIG.name)};
      image_filter_buffer 64M;
      image_filter_jpeg_quality ${JPEG_QUALITY};
      image_filter resize ${TARGET_WIDTH} -;
    }`
        : ''
    }
  }
}
`;
  const configFile = join(directory, 'nginx.conf');
  await writeFile(configFile, config);
  const child = track(
    spawn(binary, ['-e', join(directory, 'error.log'), '-p', directory, '-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  // SIGQUIT: graceful shutdown of the master and its workers.
  const stop = () => stopChild(child, 'SIGQUIT', 5_000);
  cleanups.push(stop);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const log = await readFile(join(directory, 'error.log'), 'utf8').catch(() => '');
      throw new Error(`nginx exited at start: ${output}${log}`);
    }
    const up = await fetch(`${url}/ping`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not answer within 10 s: ${output}`);
    }
    await sleep(50);
  }
  return { url, pid: child.pid!, stop };
}

// ---------------------------------------------------------------------------------------
// Measurements.

interface Timing {
  title: string;
  times: number[];
  /** Output size of one answer, bytes. */
  bytes?: number;
  detail?: string;
}

/** `count` sequential GETs, each URL given by `url(i)`; every answer must be a 200 of `type`, and `miss` when asked. */
async function timeRequests(
  title: string,
  count: number,
  url: (i: number) => string,
  expect: { type: string; miss: boolean },
): Promise<Timing> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const answer = await timedGet(url(i));
    if (answer.status !== 200) throw new Error(`${title}: ${url(i)} answered ${answer.status}`);
    if (answer.type !== expect.type) throw new Error(`${title}: ${url(i)} answered ${answer.type}, expected ${expect.type}`);
    if (expect.miss && answer.cache !== 'miss') throw new Error(`${title}: ${url(i)} was a cache ${answer.cache}, not a miss`);
    times.push(answer.ms);
    bytes = answer.bytes;
  }
  return { title, times, bytes };
}

/** Processes timed by hyperfine (no shell), or by spawning them one after another. */
async function timeProcesses(
  title: string,
  command: string[],
  env: Record<string, string>,
  tools: Tools,
  workDir: string,
  output?: string,
): Promise<Timing> {
  const count = SETTINGS.coldRequests;
  const fullEnv = { ...process.env, ...env };
  let times: number[];
  let how: string;
  if (tools.hyperfine) {
    const exportFile = join(workDir, `hyperfine-${randomBytes(4).toString('hex')}.json`);
    const result = await run(
      tools.hyperfine,
      ['-N', '--style', 'none', '--warmup', '2', '--runs', String(count), '--export-json', exportFile, command.join(' ')],
      fullEnv,
    );
    if (result.code !== 0) throw new Error(`hyperfine ${command.join(' ')}: ${result.stderr}`);
    const exported = JSON.parse(await readFile(exportFile, 'utf8')) as { results: { times: number[] }[] };
    times = exported.results[0]!.times.map((seconds) => seconds * 1000);
    how = 'hyperfine';
  } else {
    times = [];
    for (let i = 0; i < count + 2; i++) {
      const started = performance.now();
      const result = await run(command[0]!, command.slice(1), { env: fullEnv });
      const elapsed = performance.now() - started;
      if (result.code !== 0) throw new Error(`${command.join(' ')}: ${result.stderr}`);
      if (i >= 2) times.push(elapsed);
    }
    how = 'spawned';
  }
  const bytes = output ? (await readFile(output)).length : undefined;
  return { title, times, bytes, detail: how };
}

interface Throughput {
  title: string;
  rps: number;
  /** Server CPU time per answered request, µs (user + system, from /proc): steadier than req/s on a busy machine. */
  cpuPerRequest: number;
  p50: number;
  p99: number;
  total: number;
  bad: number;
  tool: string;
}

/** Milliseconds from wrk's `1.23ms`, `456.00us`, `1.02s`. */
function wrkTime(text: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? '');
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 'ms' ? value : match[2] === 's' ? value * 1000 : value * 60_000;
}

/** 50 connections for BENCH_SECONDS after an unmeasured warm-up: wrk with one thread, or autocannon here. */
async function throughput(title: string, url: string, tools: Tools, server: { pid: number; withChildren: boolean }): Promise<Throughput> {
  const cpu = () => cpuOf(server.pid, server.withChildren);
  if (tools.wrk) {
    const wrk = tools.wrk;
    const go = (seconds: number) => run(wrk, ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', url]);
    if (SETTINGS.warmup > 0) await go(SETTINGS.warmup);
    const cpuBefore = await cpu();
    const { code, stdout, stderr } = await go(SETTINGS.seconds);
    const cpuUsed = (await cpu()) - cpuBefore;
    if (code !== 0) throw new Error(`wrk ${url}: ${stderr}`);
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
    const total = Number(/(\d+) requests in/.exec(stdout)?.[1]);
    const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
    const errors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
    return {
      title,
      rps,
      cpuPerRequest: (cpuUsed * 1000) / Math.max(1, total),
      p50: wrkTime(/^\s+50%\s+(\S+)/m.exec(stdout)?.[1]),
      p99: wrkTime(/^\s+99%\s+(\S+)/m.exec(stdout)?.[1]),
      total,
      bad: non2xx + errors,
      tool: 'wrk -t1',
    };
  }
  const options = { url, connections: CONNECTIONS };
  if (SETTINGS.warmup > 0) await autocannon({ ...options, duration: SETTINGS.warmup });
  const cpuBefore = await cpu();
  const result = await autocannon({ ...options, duration: SETTINGS.seconds });
  const cpuUsed = (await cpu()) - cpuBefore;
  return {
    title,
    rps: result.requests.average,
    cpuPerRequest: (cpuUsed * 1000) / Math.max(1, result.requests.total),
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    bad: result.non2xx + result.errors,
    tool: 'autocannon',
  };
}

// ---------------------------------------------------------------------------------------
// The run.

interface Tools {
  vips?: string;
  nginx?: string;
  imageFilter: boolean;
  wrk?: string;
  hyperfine?: string;
}

async function versionOf(command: string | undefined, args: string[]): Promise<string> {
  if (!command) return 'not installed';
  const { stdout, stderr } = await run(command, args).catch(() => ({ stdout: '', stderr: 'unknown' }));
  return (stdout.trim() || stderr.trim()).split('\n')[0]!.trim();
}

async function printEnvironment(tools: Tools): Promise<void> {
  console.log('Loupe CDN benchmark');
  console.log(`date:       ${new Date().toISOString()}`);
  console.log(`node:       ${process.version} (${process.platform} ${process.arch})`);
  console.log(`cpus:       ${availableParallelism()} × ${cpus()[0]?.model.trim() ?? 'unknown'}`);
  console.log(`load avg:   ${loadAverage()} (1, 5, 15 min) at start: other processes share these cores with the run`);
  console.log(`sharp:      ${sharp.versions.sharp} (bundled libvips ${sharp.versions.vips})`);
  console.log(`vips CLI:   ${await versionOf(tools.vips, ['--version'])}`);
  console.log(
    `nginx:      ${await versionOf(tools.nginx, ['-v'])}${tools.nginx ? `; image_filter module ${tools.imageFilter ? 'present' : 'MISSING'}` : ''}`,
  );
  console.log(`wrk:        ${await versionOf(tools.wrk, ['-v'])}`);
  console.log(`hyperfine:  ${await versionOf(tools.hyperfine, ['--version'])}`);
  console.log(`database:   SQLite (node:sqlite) in a temp data dir; Loupe is a child process, LOG_LEVEL=warn`);
  if (Object.keys(SETTINGS.serverEnv).length > 0) {
    console.log(
      `server env: ${Object.entries(SETTINGS.serverEnv)
        .map(([name, value]) => `${name}=${value}`)
        .join(' ')} (BENCH_SERVER_ENV)`,
    );
  }
  console.log('');
}

interface Summary {
  aim: string;
  value: string;
  met: boolean | undefined;
}

async function main(): Promise<void> {
  if ([...SETTINGS.parts].some((part) => ![1, 2, 3, 4, 5].includes(part))) {
    throw new Error(`BENCH_PARTS lists parts 1 to 5, separated by commas; got "${process.env.BENCH_PARTS}"`);
  }
  const tools: Tools = {
    vips: which('vips'),
    nginx: which('nginx'),
    imageFilter: existsSync(IMAGE_FILTER_MODULE),
    wrk: which('wrk'),
    hyperfine: which('hyperfine'),
  };
  await readClockTicks();
  await printEnvironment(tools);
  if (!tools.vips) note('vips CLI not found (apt-get install -y libvips-tools): the vips comparison is skipped.');
  if (!tools.nginx) note('nginx not found (apt-get install -y nginx): the nginx comparisons are skipped.');
  else if (!tools.imageFilter)
    note(`${IMAGE_FILTER_MODULE} not found (libnginx-mod-http-image-filter): the image_filter comparison is skipped.`);
  if (!tools.wrk) note('wrk not found: autocannon (in this process) generates the throughput load instead.');
  if (!tools.hyperfine) note('hyperfine not found: vips processes are timed by spawning them one after another.');

  const temp = await mkdtemp(join(tmpdir(), 'loupe-bench-cdn-'));
  cleanups.push(() => rm(temp, { recursive: true, force: true }));
  // nginx's workers may run as another user (nobody, when started as root): they must read the files.
  await chmod(temp, 0o755);
  const www = join(temp, 'www');
  await mkdir(www);
  await chmod(www, 0o755);
  const bigFile = join(www, BIG.name);
  await sharp(join(TEST_IMAGES, 'hubble_deep_field.jpg'))
    .resize(BIG.width, BIG.height, { fit: 'cover' })
    .jpeg({ quality: 90 })
    .toFile(bigFile);
  await chmod(bigFile, 0o644);
  const big = await readFile(bigFile);
  console.log(
    `input: ${BIG.width}×${BIG.height} JPEG (hubble_deep_field.jpg enlarged with sharp, quality 90), ${(big.length / 1e6).toFixed(2)} MB`,
  );
  console.log('');

  const summary: Summary[] = [];
  if ([1, 2, 3].some((part) => SETTINGS.parts.has(part))) {
    let nginx: Nginx | undefined;
    if (tools.nginx && (SETTINGS.parts.has(1) || SETTINGS.parts.has(2))) {
      try {
        nginx = await startNginx(tools.nginx, join(temp, 'nginx-1'), www, '1', tools.imageFilter);
      } catch (error) {
        note(`nginx could not start, its comparisons are skipped: ${error instanceof Error ? error.message : String(error)}`);
      }
    }

    const loupe = await startCdnLoupe('a');
    const api = new Api(loupe.url, loupe.key);
    const project = (await api.json('POST', '/api/images/projects', { name: 'CDN bench' }, 201)) as { id: string; slug: string };
    const uploaded = await api.upload(project.id, BIG.name, big, BIG.name);
    if (uploaded !== 201) throw new Error(`uploading ${BIG.name} answered ${uploaded}`);
    const cdn = (query: string) => `${loupe.url}/cdn/${project.slug}/${BIG.name}?${query}`;

    if (SETTINGS.parts.has(1)) {
      // --- 1. Cold transforms -----------------------------------------------------------------
      const n = SETTINGS.coldRequests;
      console.log(`1. Cold transform, ${BIG.width}×${BIG.height} JPEG → ${TARGET_WIDTH} wide, ${n} requests or processes one at a time`);
      console.log(
        `   Loupe: request i asks w=${TARGET_WIDTH}+i (${TARGET_WIDTH}…${TARGET_WIDTH + n - 1}), a distinct variant, so every one is a cache miss and transforms;`,
      );
      console.log("   two unmeasured requests at other widths warm the server first. Quality 80 everywhere (Loupe's default).");
      for (const width of [700, 701]) await timedGet(cdn(`w=${width}&f=webp`));
      const rows: Timing[] = [];
      const loupeWebp = await timeRequests('Loupe /cdn → WebP', n, (i) => cdn(`w=${TARGET_WIDTH + i}&f=webp`), {
        type: 'image/webp',
        miss: true,
      });
      const loupeJpeg = await timeRequests('Loupe /cdn → JPEG', n, (i) => cdn(`w=${TARGET_WIDTH + i}&f=jpeg`), {
        type: 'image/jpeg',
        miss: true,
      });
      rows.push(loupeWebp, loupeJpeg);
      let vipsWebp: Timing | undefined;
      let vipsJpeg: Timing | undefined;
      if (tools.vips) {
        const webpOut = join(temp, 'vips-out.webp');
        const jpegOut = join(temp, 'vips-out.jpg');
        vipsWebp = await timeProcesses(
          'vips thumbnail → WebP',
          [tools.vips, 'thumbnail', bigFile, `${webpOut}[Q=${JPEG_QUALITY}]`, String(TARGET_WIDTH)],
          {},
          tools,
          temp,
          webpOut,
        );
        vipsJpeg = await timeProcesses(
          'vips thumbnail → JPEG',
          [tools.vips, 'thumbnail', bigFile, `${jpegOut}[Q=${JPEG_QUALITY}]`, String(TARGET_WIDTH)],
          {},
          tools,
          temp,
          jpegOut,
        );
        const vipsWebpOne = await timeProcesses(
          'vips thumbnail → WebP, VIPS_CONCURRENCY=1',
          [tools.vips, 'thumbnail', bigFile, `${webpOut}[Q=${JPEG_QUALITY}]`, String(TARGET_WIDTH)],
          { VIPS_CONCURRENCY: '1' },
          tools,
          temp,
          webpOut,
        );
        rows.push(vipsWebp, vipsJpeg, vipsWebpOne);
      }
      let nginxResize: Timing | undefined;
      if (nginx && tools.imageFilter) {
        const url = `${nginx.url}/resize/${BIG.name}`;
        for (let i = 0; i < 2; i++) await timedGet(url);
        nginxResize = await timeRequests('nginx image_filter → JPEG', n, () => url, { type: 'image/jpeg', miss: false });
        nginxResize.detail = '1 worker; not cached';
        rows.push(nginxResize);
      }
      const base = vipsWebp ? quantile(vipsWebp.times, 0.5) : Number.NaN;
      printTable(
        ['', 'median ms', 'p90 ms', 'min ms', 'max ms', 'output bytes', '÷ vips WebP median', 'timed by'],
        rows.map((row) => [
          row.title,
          ms(quantile(row.times, 0.5)),
          ms(quantile(row.times, 0.9)),
          ms(Math.min(...row.times)),
          ms(Math.max(...row.times)),
          row.bytes === undefined ? '–' : String(row.bytes),
          ratio(quantile(row.times, 0.5) / base),
          row.detail ?? 'fetch, time to last byte',
        ]),
      );
      const webpMedian = quantile(loupeWebp.times, 0.5);
      const jpegMedian = quantile(loupeJpeg.times, 0.5);
      if (vipsWebp) {
        const r = webpMedian / quantile(vipsWebp.times, 0.5);
        const r90 = quantile(loupeWebp.times, 0.9) / quantile(vipsWebp.times, 0.9);
        console.log(`   Loupe WebP / vips WebP: median ${ratio(r)}, p90 ${ratio(r90)} (aim ≤ 1.30×)`);
        console.log(`   Loupe JPEG / vips JPEG: median ${ratio(jpegMedian / quantile(vipsJpeg!.times, 0.5))}`);
        summary.push({ aim: 'cold WebP: Loupe ≤ 1.3× vips (median)', value: ratio(r), met: r <= 1.3 });
      } else summary.push({ aim: 'cold WebP: Loupe ≤ 1.3× vips (median)', value: 'skipped', met: undefined });
      if (nginxResize) {
        const nginxMedian = quantile(nginxResize.times, 0.5);
        console.log(
          `   nginx image_filter JPEG / Loupe JPEG: median ${ratio(nginxMedian / jpegMedian)}; / Loupe WebP: ${ratio(nginxMedian / webpMedian)} (aim ≥ 2×: Loupe at least twice as fast)`,
        );
        summary.push({
          aim: 'cold JPEG: nginx image_filter ≥ 2× Loupe (median)',
          value: ratio(nginxMedian / jpegMedian),
          met: nginxMedian / jpegMedian >= 2,
        });
      } else summary.push({ aim: 'cold JPEG: nginx image_filter ≥ 2× Loupe (median)', value: 'skipped', met: undefined });
      console.log('');
    }
    if (SETTINGS.parts.has(2)) {
      // --- 2. Warm throughput -------------------------------------------------------------------
      console.log(
        `2. Warm variant (w=${TARGET_WIDTH}&f=webp, cached), ${CONNECTIONS} connections, ${SETTINGS.seconds} s after ${SETTINGS.warmup} s warm-up`,
      );
      const warmUrl = cdn(`w=${TARGET_WIDTH}&f=webp`);
      await timedGet(warmUrl); // computed by part 1 already, unless it was skipped
      const warm = await timedGet(warmUrl);
      if (warm.status !== 200 || warm.cache !== 'hit') throw new Error(`the warm variant answered ${warm.status} ${warm.cache}`);
      const variantBytes = Buffer.from(await (await fetch(warmUrl)).arrayBuffer());
      const variantFile = join(www, 'variant.webp');
      await writeFile(variantFile, variantBytes);
      await chmod(variantFile, 0o644);
      const loupeRuns: Throughput[] = [];
      const nginxRuns: Throughput[] = [];
      for (let round = 1; round <= SETTINGS.rounds; round++) {
        loupeRuns.push(await throughput(`Loupe /cdn (1 process), run ${round}`, warmUrl, tools, { pid: loupe.pid, withChildren: false }));
        if (nginx) {
          nginxRuns.push(
            await throughput(`nginx static file, 1 worker, run ${round}`, `${nginx.url}/variant.webp`, tools, {
              pid: nginx.pid,
              withChildren: true,
            }),
          );
        }
      }
      const loads = [...loupeRuns, ...nginxRuns];
      if (nginx) {
        try {
          const nginxAuto = await startNginx(tools.nginx!, join(temp, 'nginx-auto'), www, 'auto', false);
          loads.push(
            await throughput(`nginx static file, ${availableParallelism()} workers (reference)`, `${nginxAuto.url}/variant.webp`, tools, {
              pid: nginxAuto.pid,
              withChildren: true,
            }),
          );
          await nginxAuto.stop();
        } catch (error) {
          note(`nginx with worker_processes auto could not run: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      const best = (runs: Throughput[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));
      const loupeBest = best(loupeRuns);
      printTable(
        ['', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'non-2xx+errors', 'server CPU µs/req', 'best Loupe ÷ this', 'load'],
        loads.map((row) => [
          row.title,
          row.rps.toFixed(0),
          ms(row.p50),
          ms(row.p99),
          String(row.total),
          String(row.bad),
          row.cpuPerRequest.toFixed(1),
          `${((loupeBest.rps / row.rps) * 100).toFixed(1)}%`,
          row.tool,
        ]),
      );
      console.log(
        `   body: ${variantBytes.length} bytes, the same file for both; runs alternate Loupe and nginx, the best of ${SETTINGS.rounds} counts`,
      );
      if (nginxRuns.length > 0) {
        const nginxBest = best(nginxRuns);
        const share = loupeBest.rps / nginxBest.rps;
        const cpuShare = Math.min(...nginxRuns.map((r) => r.cpuPerRequest)) / Math.min(...loupeRuns.map((r) => r.cpuPerRequest));
        console.log(`   Loupe / nginx (1 worker), best req/s: ${(share * 100).toFixed(1)}% (aim ≥ 40%)`);
        console.log(`   by server CPU per request (nginx µs ÷ Loupe µs, lowest of each): ${(cpuShare * 100).toFixed(1)}%`);
        summary.push({
          aim: 'warm: Loupe ≥ 40% of nginx static req/s',
          value: `${(share * 100).toFixed(1)}% (CPU/req: ${(cpuShare * 100).toFixed(1)}%)`,
          met: share >= 0.4 && loupeRuns.every((r) => r.bad === 0),
        });
      } else summary.push({ aim: 'warm: Loupe ≥ 40% of nginx static req/s', value: 'skipped', met: undefined });
      console.log('');
    }
    if (SETTINGS.parts.has(3)) {
      // --- 3. Concurrent identical cold requests ------------------------------------------------
      console.log('3. 100 concurrent identical cold requests (w=640&f=webp, never asked before)');
      const before = await api.transforms(project.id);
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 100 }, () => timedGet(cdn('w=640&f=webp'))));
      const wall = performance.now() - started;
      const after = await api.transforms(project.id);
      const statuses = new Map<number, number>();
      for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const etags = new Set(answers.map((answer) => answer.etag));
      printTable(
        ['', 'value'],
        [
          ['transforms before (usage, today)', String(before)],
          ['transforms after', String(after)],
          ['delta', String(after - before)],
          ['statuses', [...statuses].map(([status, count]) => `${status}×${count}`).join(', ')],
          ['distinct ETags', String(etags.size)],
          ['wall time, all 100', `${ms(wall)} ms`],
          [
            'per-request median / max',
            `${ms(
              quantile(
                answers.map((a) => a.ms),
                0.5,
              ),
            )} / ${ms(Math.max(...answers.map((a) => a.ms)))} ms`,
          ],
        ],
      );
      summary.push({
        aim: '100 identical cold requests → exactly 1 transform',
        value: String(after - before),
        met: after - before === 1 && statuses.get(200) === 100,
      });
    }
    const memoryA = await memoryOf(loupe.pid);
    console.log(`   (Loupe server of parts 1–3: RSS now ${memoryA ? mb(memoryA.rss) : '?'}, peak ${memoryA ? mb(memoryA.hwm) : '?'})`);
    console.log('');
    await loupe.stop();
    await nginx?.stop();
  }
  if (SETTINGS.parts.has(4)) {
    // --- 4. Memory through a mixed load -------------------------------------------------------
    summary.push(await mixedLoad(big));
  }
  if (SETTINGS.parts.has(5)) {
    // --- 5. Origin fetch on a missing path -------------------------------------------------------
    summary.push(await originFetchBench(TEST_IMAGES, SETTINGS.serverEnv));
  }

  console.log('');
  console.log('Summary');
  printTable(
    ['aim', 'measured', 'verdict'],
    summary.map((row) => [row.aim, row.value, row.met === undefined ? 'skipped' : row.met ? 'met' : 'NOT met']),
  );
  console.log(`load average at the end: ${loadAverage()} (1, 5, 15 min)`);
  if (notes.length > 0) {
    console.log('');
    for (const text of notes) console.log(`note: ${text}`);
  }
}

interface OpStats {
  times: number[];
  statuses: Map<string, number>;
}

async function mixedLoad(big: Buffer): Promise<Summary> {
  const seconds = SETTINGS.mixedSeconds;
  const clients = SETTINGS.mixedClients;
  console.log(
    `4. Resident memory of a fresh Loupe server through ${seconds} s of mixed load, ${clients} concurrent clients (seed ${SETTINGS.seed})`,
  );
  console.log(
    `   each client loops: 50% warm hit, 40% cold variant (random source, width and format among ${SETTINGS.mixedFormats.join(', ')};`,
  );
  console.log('   webp/jpeg up to 1600 wide, png up to 800, avif and jxl up to 480), 10% upload (test images to 20 rotating paths,');
  console.log('   replacing and purging). Server RSS is read from /proc/<pid>/status every second.');
  const loupe = await startCdnLoupe('b');
  const api = new Api(loupe.url, loupe.key);
  const project = (await api.json('POST', '/api/images/projects', { name: 'Mixed' }, 201)) as { id: string; slug: string };
  const files = ['astronaut.png', 'camera.png', 'chelsea.png', 'coffee.png', 'hubble_deep_field.jpg', 'rocket.jpg'];
  const originals = new Map<string, Buffer>([[BIG.name, big]]);
  for (const name of files) originals.set(name, await readFile(join(TEST_IMAGES, name)));
  for (const [name, data] of originals) {
    const status = await api.upload(project.id, `src/${name}`, data, name);
    if (status !== 201) throw new Error(`uploading ${name} answered ${status}`);
  }
  const url = (path: string, query: string) =>
    `${loupe.url}/cdn/${project.slug}/${path.split('/').map(encodeURIComponent).join('/')}?${query}`;
  const sources = [...originals.keys()].map((name) => `src/${name}`);
  const warmUrls = sources.flatMap((source) => [url(source, 'w=320&f=webp'), url(source, 'w=640&f=jpeg'), url(source, 'w=200&f=avif')]);
  for (const warmUrl of warmUrls) {
    const answer = await timedGet(warmUrl);
    if (answer.status !== 200) throw new Error(`${warmUrl} answered ${answer.status}`);
  }
  const uploadedPaths = new Set<string>();
  const maxWidth: Record<string, number> = { webp: 1600, jpeg: 1600, png: 800, avif: 480, jxl: 480 };
  const formats = SETTINGS.mixedFormats;
  const unknown = formats.filter((format) => !(format in maxWidth));
  if (unknown.length > 0) throw new Error(`BENCH_MIXED_FORMATS: unknown ${unknown.join(', ')}`);
  const rand = random(SETTINGS.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const stats = new Map<string, OpStats>();
  const record = (op: string, ms: number, status: string) => {
    let entry = stats.get(op);
    if (!entry) stats.set(op, (entry = { times: [], statuses: new Map() }));
    entry.times.push(ms);
    entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
  };

  const samples: { t: number; rss: number }[] = [];
  const idle = await memoryOf(loupe.pid);
  const t0 = performance.now();
  const sampler = setInterval(() => {
    void memoryOf(loupe.pid).then((memory) => {
      if (memory) samples.push({ t: (performance.now() - t0) / 1000, rss: memory.rss });
    });
  }, 1000);
  const deadline = t0 + seconds * 1000;

  const client = async () => {
    while (performance.now() < deadline) {
      const roll = rand();
      const started = performance.now();
      try {
        if (roll < 0.5) {
          const answer = await timedGet(pick(warmUrls));
          record('warm hit', answer.ms, `${answer.status} ${answer.cache}`);
        } else if (roll < 0.9) {
          const format = pick(formats);
          const width = 16 + Math.floor(rand() * (maxWidth[format]! - 15));
          const source = pick([...sources, ...uploadedPaths]);
          const answer = await timedGet(url(source, `w=${width}&f=${format}`));
          // A request that found the image just before a re-upload replaced it can find its old original deleted.
          const status =
            answer.status === 404 && source.startsWith('uploads/')
              ? '404 (raced a re-upload)'
              : `${answer.status} ${answer.cache ?? ''}`.trim();
          record(`cold ${format}`, answer.ms, status);
        } else {
          const name = pick(files);
          const path = `uploads/slot-${Math.floor(rand() * 20)}.${name.split('.').pop()}`;
          const status = await api.upload(project.id, path, originals.get(name)!, name);
          if (status === 201) uploadedPaths.add(path);
          record('upload', performance.now() - started, String(status));
        }
      } catch (error) {
        record(
          roll < 0.5 ? 'warm hit' : roll < 0.9 ? 'cold (error)' : 'upload',
          performance.now() - started,
          `error ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  clearInterval(sampler);
  const end = await memoryOf(loupe.pid);
  await sleep(5000);
  const settled = await memoryOf(loupe.pid);
  await loupe.stop();
  const warnings = loupe
    .output()
    .split('\n')
    .filter((line) => line.trim() && !/^(Created the workspace|\s+workspace id:|\s+API key)/.test(line))
    .join('\n');

  printTable(
    ['operation', 'count', 'median ms', 'p90 ms', 'max ms', 'answers'],
    [...stats]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([op, entry]) => [
        op,
        String(entry.times.length),
        ms(quantile(entry.times, 0.5)),
        ms(quantile(entry.times, 0.9)),
        ms(Math.max(...entry.times)),
        [...entry.statuses].map(([status, count]) => `${status}×${count}`).join(', '),
      ]),
  );
  const peakSampled = Math.max(...samples.map((sample) => sample.rss));
  const peakKernel = Math.max(settled?.hwm ?? 0, end?.hwm ?? 0);
  console.log('   RSS over time (MB), every ~10% of the run:');
  const step = Math.max(1, Math.floor(samples.length / 10));
  console.log(
    `   ${samples
      .filter((_, i) => i % step === 0 || i === samples.length - 1)
      .map((sample) => `${sample.t.toFixed(0)}s ${(sample.rss / 1024).toFixed(0)}`)
      .join(' · ')}`,
  );
  printTable(
    ['server RSS', 'value'],
    [
      ['before the load (after seeding)', idle ? mb(idle.rss) : '?'],
      [`peak, sampled every 1 s (${samples.length} samples)`, mb(peakSampled)],
      ['peak, kernel high-water mark (VmHWM)', mb(peakKernel)],
      ['final, at the end of the load', end ? mb(end.rss) : '?'],
      ['final, 5 s after the load', settled ? mb(settled.rss) : '?'],
    ],
  );
  if (warnings)
    console.log(
      `   server warnings (last lines):\n${warnings
        .split('\n')
        .slice(-10)
        .map((line) => `     ${line}`)
        .join('\n')}`,
    );
  const peak = Math.max(peakSampled, peakKernel);
  return { aim: `mixed ${seconds} s: peak RSS < 400 MB`, value: mb(peak), met: peak < 400 * 1024 };
}

await runBench(main);
