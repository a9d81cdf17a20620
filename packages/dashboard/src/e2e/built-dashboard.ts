import { mkdir, readdir, rm, stat, watch } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const DASHBOARD = fileURLToPath(new URL('../../', import.meta.url));
const INDEX = join(DASHBOARD, 'dist', 'index.html');
/** Held (a directory: mkdir is atomic) by the one test process rebuilding `dist`. */
const LOCK = join(DASHBOARD, '.dist-building');
/** A lock older than this was left by a process that died while building. */
const STALE_LOCK_MS = 120_000;

async function newestSource(): Promise<number> {
  const entries = await readdir(join(DASHBOARD, 'src'), { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && !entry.parentPath.includes(`${join('src', 'e2e')}`))
    .map((entry) => join(entry.parentPath, entry.name));
  files.push(join(DASHBOARD, 'index.html'), join(DASHBOARD, 'vite.config.ts'));
  const times = await Promise.all(files.map(async (file) => (await stat(file)).mtimeMs));
  return Math.max(...times);
}

/**
 * The server serves `packages/dashboard/dist`, which `npm install` builds. A test run after
 * a change to the dashboard's sources builds it again first, so the browser never tests an
 * old build.
 */
export async function ensureDashboardBuilt(): Promise<void> {
  if (await isFresh()) return;
  // Test files run in parallel processes: one rebuilds while the others wait, then find it fresh
  // (two builds at once empty each other's output under the servers using it).
  await takeLock();
  try {
    if (!(await isFresh())) await build({ root: DASHBOARD, logLevel: 'warn' });
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
}

async function isFresh(): Promise<boolean> {
  const built = await stat(INDEX).then(
    (info) => info.mtimeMs,
    () => 0,
  );
  return built >= (await newestSource());
}

async function takeLock(): Promise<void> {
  for (;;) {
    const watching = new AbortController();
    // Watching starts before the attempt, so a release between the two is not missed.
    const events = watch(DASHBOARD, { signal: watching.signal });
    try {
      await mkdir(LOCK);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = await stat(LOCK).then(
        (info) => info.mtimeMs,
        () => undefined,
      );
      if (held !== undefined && Date.now() - held > STALE_LOCK_MS) {
        await rm(LOCK, { recursive: true, force: true });
        continue;
      }
      if (held !== undefined) await released(events);
    } finally {
      watching.abort();
    }
  }
}

/** Settles when the lock directory goes (or the watch is aborted). */
async function released(events: AsyncIterable<{ filename: string | null }>): Promise<void> {
  try {
    for await (const event of events) {
      if (
        event.filename === '.dist-building' &&
        (await stat(LOCK).then(
          () => false,
          () => true,
        ))
      )
        return;
    }
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
  }
}
