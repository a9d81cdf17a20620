/**
 * A Loupe server for a benchmark, as `npm start` runs it (package.json's start script: its
 * environment and Node flags): a fresh data dir (SQLite) or a fresh PostgreSQL database, `loupe
 * init`, then `loupe serve` in a child process, so its CPU and memory are its own; stopped and
 * removed by the bench kit's clean-up. Shared by every bench that runs the server.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cleanups, freePort, run, sleep, stopChild, track } from './bench-kit.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LOUPE_CLI = join(ROOT, 'packages/server/src/cli.ts');

export interface Loupe {
  url: string;
  pid: number;
  /** The bootstrap owner's API key. */
  key: string;
  workspaceId: string;
  env: NodeJS.ProcessEnv;
  dataDir: string;
  /** The last lines it wrote (warnings and errors: LOG_LEVEL=warn). */
  output(): string;
  stop(): Promise<void>;
}

export interface StartLoupeOptions {
  /** Names the temporary data dir and database, e.g. `search`. */
  label: string;
  /** Defaults to sqlite. */
  dialect?: 'sqlite' | 'postgres';
  /** A PostgreSQL server the bench may create a database on (and drop it after); needed for postgres. */
  databaseUrl?: string;
  /** More environment for the server (LOUPE_* settings). */
  env?: Record<string, string>;
  /** Node flags beside the start script's, e.g. --cpu-prof. */
  nodeFlags?: string[];
  /** `loupe` commands to run once the workspace exists, before the server starts (e.g. `admin set-plan`). */
  setUp?: (workspaceId: string) => string[][];
}

/**
 * The `start` script of package.json, taken apart: `NAME=value` words before `node` are its
 * environment, `--flags` after it are Node's. The benches run the server exactly so.
 */
function readStartScript(): { env: Record<string, string>; nodeFlags: string[] } {
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = script.split(/\s+/);
  const nodeAt = words.indexOf('node');
  if (nodeAt < 0) throw new Error(`package.json start script does not run node: ${script}`);
  const env = Object.fromEntries(words.slice(0, nodeAt).map((word) => word.split('=') as [string, string]));
  const nodeFlags = words.slice(nodeAt + 1).filter((word) => word.startsWith('--'));
  return { env, nodeFlags };
}
const START_SCRIPT = readStartScript();

/** A database of its own beside `url`'s, dropped at clean-up. */
async function freshPostgresDatabase(url: string, label: string): Promise<string> {
  const name = `loupe_bench_${label}_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  cleanups.push(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

export async function startLoupe(options: StartLoupeOptions): Promise<Loupe> {
  const { label, dialect = 'sqlite' } = options;
  const dataDir = await mkdtemp(join(tmpdir(), `loupe-bench-${label}-${dialect}-`));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const key = `loupe_${randomBytes(24).toString('base64url')}`;
  // Only the variables set here: an operator's DATABASE_URL, S3_* or LOUPE_* would change what is measured.
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(LOUPE_|S3_|DATABASE_URL$)/.test(name)));
  Object.assign(
    env,
    { LOUPE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOUPE_BOOTSTRAP_KEY: key, LOG_LEVEL: 'warn' },
    START_SCRIPT.env,
    options.env,
  );
  if (dialect === 'postgres') {
    if (!options.databaseUrl) throw new Error('postgres needs a databaseUrl');
    env.DATABASE_URL = await freshPostgresDatabase(options.databaseUrl, label);
  }
  // The data dir as working directory: no `.env` of the repo is read.
  const cli = async (...args: string[]) => {
    const answer = await run(process.execPath, [LOUPE_CLI, ...args], { env, cwd: dataDir });
    if (answer.code !== 0) throw new Error(`loupe ${args.join(' ')} exited with ${answer.code}:\n${answer.stderr}${answer.stdout}`);
    return answer.stdout;
  };
  const init = JSON.parse(await cli('init', '--json')) as { initialized: boolean; workspaceId?: string };
  if (!init.initialized || !init.workspaceId) throw new Error(`loupe init did not bootstrap a fresh data dir: ${JSON.stringify(init)}`);
  const workspaceId = init.workspaceId;
  for (const command of options.setUp?.(workspaceId) ?? []) await cli(...command);

  const nodeFlags = [...START_SCRIPT.nodeFlags, ...(options.nodeFlags ?? [])];
  const child = track(spawn(process.execPath, [...nodeFlags, LOUPE_CLI, 'serve'], { cwd: dataDir, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ; ) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`Loupe (${label}) exited at start:\n${output}`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      await stopChild(child, 'SIGKILL');
      throw new Error(`Loupe (${label}) did not answer /healthz within 30 s:\n${output}`);
    }
    await sleep(100);
  }
  let stopping = false;
  // A server that dies under a bench leaves only "fetch failed" in the bench: say why it died.
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`Loupe (${label}) exited (code ${code}, signal ${signal}); its last output:\n${output}`);
  });
  const stop = () => {
    stopping = true;
    return stopChild(child, 'SIGTERM');
  };
  cleanups.push(stop);
  return { url, pid: child.pid!, key, workspaceId, env, dataDir, output: () => output, stop };
}

/** A workspace API call with the owner's key; a failure throws with the answer. */
export async function loupeApi(loupe: Loupe, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(loupe.url + path, {
    method,
    headers: { authorization: `Bearer ${loupe.key}`, 'x-service-team': loupe.workspaceId, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}
