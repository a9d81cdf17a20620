/**
 * A Loupe server for a benchmark, as `npm start` runs it: a fresh data dir (SQLite) or a fresh
 * PostgreSQL database, `loupe init`, then `loupe serve` in a child process, stopped and removed
 * by the bench kit's clean-up. Shared by bench/search.ts and bench/dashboard.ts.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cleanups, freePort, run, sleep, stopChild, track } from './bench-kit.ts';

const LOUPE_CLI = fileURLToPath(new URL('../packages/server/src/cli.ts', import.meta.url));

export interface Loupe {
  url: string;
  pid: number;
  /** The bootstrap owner's API key. */
  key: string;
  workspaceId: string;
  env: NodeJS.ProcessEnv;
  dataDir: string;
  stop(): Promise<void>;
}

export interface StartLoupeOptions {
  /** Names the temporary data dir and database, e.g. `search`. */
  label: string;
  dialect: 'sqlite' | 'postgres';
  /** A PostgreSQL server the bench may create a database on (and drop it after); needed for postgres. */
  databaseUrl?: string;
  /** More environment for the server (LOUPE_* settings). */
  env?: Record<string, string>;
}

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
  const { label, dialect } = options;
  const dataDir = await mkdtemp(join(tmpdir(), `loupe-bench-${label}-${dialect}-`));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const key = `loupe_${randomBytes(24).toString('base64url')}`;
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(LOUPE_|S3_|DATABASE_URL$)/.test(name)));
  Object.assign(env, { LOUPE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOUPE_BOOTSTRAP_KEY: key, LOG_LEVEL: 'warn', MALLOC_ARENA_MAX: '2' }, options.env);
  if (dialect === 'postgres') {
    if (!options.databaseUrl) throw new Error('postgres needs a databaseUrl');
    env.DATABASE_URL = await freshPostgresDatabase(options.databaseUrl, label);
  }
  const init = await run(process.execPath, [LOUPE_CLI, 'init', '--json'], { env, cwd: dataDir });
  if (init.code !== 0) throw new Error(`loupe init: ${init.stderr}${init.stdout}`);
  const { workspaceId } = JSON.parse(init.stdout) as { workspaceId: string };
  const child = track(spawn(process.execPath, ['--max-semi-space-size=2', LOUPE_CLI, 'serve'], { cwd: dataDir, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ; ) {
    if (child.exitCode !== null) throw new Error(`Loupe exited at start:\n${output}`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error(`Loupe did not answer /healthz within 30 s:\n${output}`);
    await sleep(100);
  }
  let stopping = false;
  // A server that dies under a bench leaves only "fetch failed" in the bench: say why it died.
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`Loupe exited (code ${code}, signal ${signal}); its last output:\n${output}`);
  });
  const stop = () => {
    stopping = true;
    return stopChild(child, 'SIGTERM');
  };
  cleanups.push(stop);
  return { url, pid: child.pid!, key, workspaceId, env, dataDir, stop };
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
