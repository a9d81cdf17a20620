/**
 * A Loupe server for a benchmark, as `npm start` runs it (package.json's start script: its
 * environment and Node flags): a fresh data dir (SQLite) or a fresh PostgreSQL database, `loupe
 * init`, then `loupe serve` in a child process, so its CPU and memory are its own; stopped and
 * removed by the bench kit's clean-up, unless kept for the next run (`keepDir`). Shared by every
 * bench that runs the server.
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
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
  /** Set for a kept data dir (StartLoupeOptions.keepDir): what it holds, and what an earlier run recorded. */
  kept?: KeptLoupe;
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
  /** A file the server's whole output is appended to (what --trace-gc prints, say); unset, only its last lines are kept, for an error. */
  logFile?: string;
  /** `loupe` commands to run once the workspace exists, before the server starts (e.g. `admin set-plan`). */
  setUp?: (workspaceId: string) => string[][];
  /**
   * A directory whose data outlives the bench: made and kept (with its PostgreSQL database)
   * when new, started again as it was left when a run kept it before (`kept` then says what
   * that run recorded). Unset, the data dir and database are fresh and removed at the end.
   */
  keepDir?: string;
}

/** What a kept data dir holds besides the server's data, in KEPT_FILE: how to start on it again, and what its bench recorded. */
export interface KeptLoupe {
  key: string;
  workspaceId: string;
  databaseUrl?: string;
  /** A bench's own record (search.ts: its project, pages and build time). */
  bench?: Record<string, unknown>;
}

const KEPT_FILE = 'loupe-bench.json';

function readKept(dir: string): KeptLoupe | undefined {
  const file = join(dir, KEPT_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as KeptLoupe) : undefined;
}

/** Records a bench's own facts in a kept data dir, beside how to start on it. */
export function recordKept(loupe: Loupe, bench: Record<string, unknown>): void {
  if (!loupe.kept) return;
  loupe.kept.bench = bench;
  writeFileSync(join(loupe.dataDir, KEPT_FILE), JSON.stringify(loupe.kept, null, 2));
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

/** A database of its own beside `url`'s, dropped at clean-up unless kept. */
async function freshPostgresDatabase(url: string, label: string, keep: boolean): Promise<string> {
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
  if (!keep) cleanups.push(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

export async function startLoupe(options: StartLoupeOptions): Promise<Loupe> {
  const { label, dialect = 'sqlite', keepDir } = options;
  const earlier = keepDir === undefined ? undefined : readKept(keepDir);
  let dataDir: string;
  if (keepDir === undefined) {
    dataDir = await mkdtemp(join(tmpdir(), `loupe-bench-${label}-${dialect}-`));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  } else {
    dataDir = keepDir;
    await mkdir(dataDir, { recursive: true });
  }
  const port = await freePort();
  const key = earlier?.key ?? `loupe_${randomBytes(24).toString('base64url')}`;
  // Only the variables set here: an operator's DATABASE_URL, S3_* or LOUPE_* would change what is measured.
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(LOUPE_|S3_|DATABASE_URL$)/.test(name)),
  );
  Object.assign(
    env,
    { LOUPE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOUPE_BOOTSTRAP_KEY: key, LOG_LEVEL: 'warn' },
    START_SCRIPT.env,
    options.env,
  );
  if (dialect === 'postgres') {
    if (!options.databaseUrl) throw new Error('postgres needs a databaseUrl');
    env.DATABASE_URL = earlier?.databaseUrl ?? (await freshPostgresDatabase(options.databaseUrl, label, keepDir !== undefined));
  }
  // The data dir as working directory: no `.env` of the repo is read.
  const cli = async (...args: string[]) => {
    const answer = await run(process.execPath, [LOUPE_CLI, ...args], { env, cwd: dataDir });
    if (answer.code !== 0) throw new Error(`loupe ${args.join(' ')} exited with ${answer.code}:\n${answer.stderr}${answer.stdout}`);
    return answer.stdout;
  };
  let workspaceId = earlier?.workspaceId;
  if (workspaceId === undefined) {
    const init = JSON.parse(await cli('init', '--json')) as { initialized: boolean; workspaceId?: string };
    if (!init.initialized || !init.workspaceId) throw new Error(`loupe init did not bootstrap a fresh data dir: ${JSON.stringify(init)}`);
    workspaceId = init.workspaceId;
    for (const command of options.setUp?.(workspaceId) ?? []) await cli(...command);
  }
  const kept: KeptLoupe | undefined = keepDir === undefined ? undefined : (earlier ?? { key, workspaceId, databaseUrl: env.DATABASE_URL });
  if (keepDir !== undefined && !earlier) writeFileSync(join(dataDir, KEPT_FILE), JSON.stringify(kept, null, 2));

  const nodeFlags = [...START_SCRIPT.nodeFlags, ...(options.nodeFlags ?? [])];
  const child = track(
    spawn(process.execPath, [...nodeFlags, LOUPE_CLI, 'serve'], { cwd: dataDir, env, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    if (options.logFile) appendFileSync(options.logFile, chunk);
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ; ) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`Loupe (${label}) exited at start:\n${output}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
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
  return { url, pid: child.pid!, key, workspaceId, env, dataDir, kept, output: () => output, stop };
}

/** A workspace API call with the owner's key; a failure throws with the answer. */
export async function loupeApi(loupe: Loupe, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(loupe.url + path, {
    method,
    headers: {
      authorization: `Bearer ${loupe.key}`,
      'x-service-team': loupe.workspaceId,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}
