/**
 * What every benchmark under bench/ needs around the thing it measures: child processes that
 * are cleaned up on any exit, free ports, /proc readings of memory and CPU, and a plain table.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';

/** Run in reverse order at the end, on failure too, and on Ctrl-C. */
export const cleanups: (() => Promise<void>)[] = [];
/** Every child still running, killed outright if this process exits without cleaning up. */
const children = new Set<ChildProcess>();
/** What `note` said, for the summary at the end. */
export const notes: string[] = [];
/** USER_HZ, the unit of CPU times in /proc/<pid>/stat; `readClockTicks` asks the system. */
let clockTicks = 100;

let cleaning: Promise<void> | undefined;
let interrupted = false;

/** Once, however many callers (the end of main and a signal can both ask). */
export function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length > 0) {
      const step = cleanups.pop()!;
      await step().catch((error: unknown) => console.error(`cleanup: ${error instanceof Error ? error.message : String(error)}`));
    }
  })();
  return cleaning;
}

/** Whether the run was stopped by a signal (its errors are then expected, not worth a stack). */
export function wasInterrupted(): boolean {
  return interrupted;
}

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: stopping children and removing temp dirs`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/**
 * Runs a benchmark's main, then always cleans up; a failure sets the exit code, and its stack
 * is printed unless the run was interrupted (the failures that follow a signal, a server
 * stopped under a request, are not news).
 */
export async function runBench(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    process.exitCode = 1;
    if (!wasInterrupted()) console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  } finally {
    await cleanUp();
  }
}

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Asks a child to stop, then kills it after `graceMs`. Resolves once it has exited. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Runs a command to completion, capturing its output. */
export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = track(spawn(command, args, { env: options.env ?? process.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A numeric setting from the environment (BENCH_…), or `fallback` when unset; anything else than a number in range stops the bench. */
export function numberSetting(name: string, fallback: number, minimum = 0, maximum = Number.POSITIVE_INFINITY): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < minimum || value > maximum)
    throw new Error(`${name} must be a number from ${minimum} to ${maximum}, got "${raw}"`);
  return value;
}

/** As numberSetting, for a whole number. */
export function wholeNumberSetting(name: string, fallback: number, minimum = 0, maximum = Number.POSITIVE_INFINITY): number {
  const value = numberSetting(name, fallback, minimum, maximum);
  if (!Number.isInteger(value)) throw new Error(`${name} must be a whole number, got "${process.env[name]}"`);
  return value;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

/** Linear interpolation between the closest ranks. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

export function printTable(header: string[], rows: string[][]): void {
  const cells = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

export function note(text: string): void {
  notes.push(text);
  console.log(`  note: ${text}`);
}

/** Current and peak resident memory of a process, in kB, from /proc/<pid>/status. */
export async function memoryOf(pid: number): Promise<{ rss: number; hwm: number } | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return undefined;
  }
}

/**
 * One thread of a process (its main thread unless `tid` says another): CPU time in ms, and how
 * often it was switched out while it could run (preempted: nonvoluntary_ctxt_switches). NaN
 * fields once it is gone.
 */
export async function threadOf(pid: number, tid = pid): Promise<{ cpuMs: number; preempted: number }> {
  const status = await readFile(`/proc/${pid}/task/${tid}/status`, 'utf8').catch(() => '');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
  const cpuMs = ((await ticksIn(`/proc/${pid}/task/${tid}/stat`, Number.NaN)) * 1000) / clockTicks;
  return { cpuMs, preempted: field('nonvoluntary_ctxt_switches') };
}

/** CPU time in ms of each process of this machine whose command is `command` (e.g. `postgres`: a server, its backends and workers), by pid. */
export async function cpuByProcess(command: string): Promise<Map<number, number>> {
  const used = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const name = await readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '');
    const ms = name.trim() === command ? await cpuOf(Number(entry)) : Number.NaN;
    if (!Number.isNaN(ms)) used.set(Number(entry), ms);
  }
  return used;
}

/** The CPU ms the processes named `command` used since `before` (cpuByProcess): one started since, all of its own; one ended since, none. */
export async function cpuUsedSince(command: string, before: Map<number, number>): Promise<number> {
  let total = 0;
  for (const [pid, ms] of await cpuByProcess(command)) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** Asks the system for USER_HZ (`getconf CLK_TCK`); 100 stays when it cannot say. */
export async function readClockTicks(): Promise<void> {
  const ticks = Number((await run('getconf', ['CLK_TCK']).catch(() => ({ stdout: '' }))).stdout.trim());
  if (Number.isInteger(ticks) && ticks > 0) clockTicks = ticks;
}

/**
 * CPU time (user + system) a process and, with `withChildren`, its live children have used, in
 * ms. NaN once the process is gone (so a sampler keeps its last reading); a child that ended
 * between listing and reading counts 0.
 */
export async function cpuOf(pid: number, withChildren = false): Promise<number> {
  let total = await ticksIn(`/proc/${pid}/stat`, Number.NaN);
  if (withChildren) {
    const listed = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
    for (const child of listed.trim().split(/\s+/).filter(Boolean)) total += await ticksIn(`/proc/${child}/stat`, 0);
  }
  return (total * 1000) / clockTicks;
}

/** utime + stime in clock ticks from a /proc stat file (a process's or a thread's); `gone` when it cannot be read. */
async function ticksIn(statFile: string, gone: number): Promise<number> {
  const stat = await readFile(statFile, 'utf8').catch(() => '');
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11] ?? gone) + Number(fields[12] ?? gone);
}
