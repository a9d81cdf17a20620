import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '../testing/test-server.ts';

/** The `loupe` entry, run as a process as a user would run it. */
export const loupeEntry = new URL('../cli.ts', import.meta.url).pathname;

export interface LoupeRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * An empty folder for HOME and the working directory, so no real config file or .env is read;
 * removed when the test file's process ends (node:test runs each file in a process of its own).
 */
const sandbox = mkdtempSync(join(tmpdir(), 'loupe-cli-home-'));
process.once('exit', () => rmSync(sandbox, { recursive: true, force: true }));

/**
 * Runs `loupe` with these arguments and only the environment given (plus PATH and a sandbox
 * HOME); never throws on a non-zero exit.
 */
export function runLoupe(args: readonly string[], env: Record<string, string> = {}, options: { input?: string } = {}): Promise<LoupeRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [loupeEntry, ...args],
      { cwd: sandbox, env: { PATH: process.env.PATH ?? '', HOME: sandbox, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(options.input ?? '');
  });
}

/** The environment that points `loupe` at a test server as its bootstrap owner. */
export function serverEnv(t: TestServer, key = t.owner.key): Record<string, string> {
  return { LOUPE_URL: t.url, LOUPE_API_KEY: key };
}

/** stdout as the one JSON document a --json run prints. */
export function json<T = any>(run: LoupeRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`loupe exited ${run.code} without a JSON document on stdout:\n${run.stdout}\n${run.stderr}`);
  }
}
