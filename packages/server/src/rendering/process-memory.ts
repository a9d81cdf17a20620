import { readdir, readFile } from 'node:fs/promises';

/**
 * Resident bytes of every process below `root` whose command name matches `name` (Linux
 * /proc): Chromium is a browser process, a GPU or utility process and a renderer per site,
 * and only their sum says what rendering costs. Processes that exit meanwhile are skipped.
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
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const kilobytes = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    if (kilobytes) bytes += Number(kilobytes) * 1024;
  }
  return bytes;
}

function descendsFrom(pid: number, root: number, parents: Map<number, number>): boolean {
  for (let current = parents.get(pid); current !== undefined && current > 1; current = parents.get(current)) {
    if (current === root) return true;
  }
  return false;
}
