import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { loadConfig } from './config.ts';
import { startServer } from './server.ts';

const run = promisify(execFile);
const cli = new URL('./cli.ts', import.meta.url).pathname;

describe('loupe init', () => {
  let dataDir: string;
  const env = () => ({ ...process.env, LOUPE_DATA_DIR: dataDir, DATABASE_URL: '', LOUPE_BOOTSTRAP_KEY: '' });
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'loupe-init-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('creates the workspace and prints a working key once, then does nothing on a second run', async () => {
    const first = JSON.parse((await run(process.execPath, [cli, 'init', '--json'], { env: env() })).stdout);
    assert.equal(first.initialized, true);
    assert.match(first.key, /^loupe_[A-Za-z0-9_-]{43}$/);

    const second = JSON.parse((await run(process.execPath, [cli, 'init', '--json'], { env: env() })).stdout);
    assert.deepEqual(second, { initialized: false });

    const server = await startServer({ ...loadConfig({}), port: 0, dataDir, logLevel: 'silent' }, pino({ level: 'silent' }));
    try {
      assert.equal(server.bootstrapped, null);
      const response = await fetch(`${server.url}/api/images/projects`, {
        headers: { authorization: `Bearer ${first.key}` },
      });
      assert.equal(response.status, 200);
    } finally {
      await server.close();
    }
  });

  it('says so in words without --json', async () => {
    const { stdout } = await run(process.execPath, [cli, 'init'], { env: env() });
    assert.match(stdout, /Already initialized/);
  });
});
