import { readdir, readFile } from 'node:fs/promises';

/**
 * Memory of every process below `root` whose command name matches `name` (Linux /proc):
 * Chromium is a browser process, a GPU or utility process and a renderer per site, and only
 * their sum says what rendering costs. Each counts its proportional set size (PSS: pages it
 * shares divided among their sharers), since summed RSS counts the shared libraries once per
 * process. Processes that exit meanwhile are skipped.
 */
export async function processTreeMemory(root: number, name: RegExp): Promise<number> {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
    if (!stat) continue;
    // `pid (comm) state ppid …`: the name may hold spaces and parentheses, so split at the last ')'.
    const close = stat.lastIndexOf(')');
    names.set(pid, stat.slice(stat.indexOf('(') + 1, close));
    parents.set(pid, Number(stat.slice(close + 2).split(' ')[1]));
  }
  let bytes = 0;
  for (const [pid, processName] of names) {
    if (!name.test(processName) || !descendsFrom(pid, root, parents)) continue;
    bytes += await processMemory(pid);
  }
  return bytes;
}

/** One process's proportional set size in bytes; 0 once it has exited. */
export async function processMemory(pid: number): Promise<number> {
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
  const kilobytes = /^Pss:\s+(\d+) kB/m.exec(rollup)?.[1];
  return kilobytes ? Number(kilobytes) * 1024 : 0;
}

function descendsFrom(pid: number, root: number, parents: Map<number, number>): boolean {
  for (let current = parents.get(pid); current !== undefined && current > 1; current = parents.get(current)) {
    if (current === root) return true;
  }
  return false;
}
