import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const DASHBOARD = fileURLToPath(new URL('../../', import.meta.url));
const INDEX = join(DASHBOARD, 'dist', 'index.html');

async function newestSource(): Promise<number> {
  const entries = await readdir(join(DASHBOARD, 'src'), { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && !entry.parentPath.includes(`${join('src', 'e2e')}`)).map((entry) => join(entry.parentPath, entry.name));
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
  const built = await stat(INDEX).then((info) => info.mtimeMs, () => 0);
  if (built >= (await newestSource())) return;
  await build({ root: DASHBOARD, logLevel: 'warn' });
}
