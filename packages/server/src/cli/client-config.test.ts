import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LoupeError } from '@loupe/contract';
import { resolveClientConfig, resolveClientSettings } from './client-config.ts';

describe('resolveClientConfig', () => {
  let home: string;
  let file: string;
  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'loupe-config-'));
    file = join(home, 'loupe.json');
    await writeFile(file, JSON.stringify({ url: 'http://file.example:1', key: 'loupe_file', workspace: 'ws-file' }));
  });
  after(() => rm(home, { recursive: true, force: true }));

  it('takes flags over the environment over the config file', () => {
    const env = { HOME: home, LOUPE_CONFIG: file, LOUPE_URL: 'http://env.example:2', LOUPE_API_KEY: 'loupe_env' };
    assert.deepEqual(resolveClientConfig({ key: 'loupe_flag' }, env), {
      baseUrl: 'http://env.example:2',
      apiKey: 'loupe_flag',
      workspaceId: 'ws-file',
    });
  });

  it('reads the default config file under ~/.config/loupe, and XDG_CONFIG_HOME when set', async () => {
    await mkdir(join(home, '.config', 'loupe'), { recursive: true });
    await writeFile(join(home, '.config', 'loupe', 'config.json'), JSON.stringify({ key: 'loupe_home' }));
    assert.equal(resolveClientConfig({}, { HOME: home }).apiKey, 'loupe_home');
    await mkdir(join(home, 'xdg', 'loupe'), { recursive: true });
    await writeFile(join(home, 'xdg', 'loupe', 'config.json'), JSON.stringify({ key: 'loupe_xdg' }));
    assert.equal(resolveClientConfig({}, { HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') }).apiKey, 'loupe_xdg');
  });

  it('defaults to http://localhost:8080 without a workspace, and treats empty variables as unset', () => {
    const config = resolveClientConfig({}, { HOME: join(home, 'none'), LOUPE_API_KEY: 'loupe_k', LOUPE_URL: '', LOUPE_WORKSPACE: '' });
    assert.deepEqual(config, { baseUrl: 'http://localhost:8080', apiKey: 'loupe_k' });
  });

  it('refuses to go on without a key, saying where one can be given', () => {
    assert.throws(
      () => resolveClientConfig({}, { HOME: join(home, 'none') }),
      (error: unknown) => error instanceof LoupeError && error.code === 'unauthorized' && /--key, set LOUPE_API_KEY/.test(error.message),
    );
    assert.equal(resolveClientSettings({}, { HOME: join(home, 'none') }).apiKey, undefined);
  });

  it('refuses a named config file that is missing, not JSON or has unknown fields', async () => {
    const broken = join(home, 'broken.json');
    await writeFile(broken, '{ "url": ');
    const unknown = join(home, 'unknown.json');
    await writeFile(unknown, JSON.stringify({ apiKey: 'loupe_x' }));
    for (const [path, message] of [
      [join(home, 'missing.json'), /Cannot read the config file/],
      [broken, /is not valid JSON/],
      [unknown, /is not valid: .*apiKey/],
    ] as const) {
      assert.throws(
        () => resolveClientConfig({ config: path, key: 'loupe_k' }, { HOME: home }),
        (error: unknown) => error instanceof LoupeError && error.code === 'validation_failed' && message.test(error.message),
      );
    }
  });

  it('refuses a server URL that is not http(s)', () => {
    assert.throws(() => resolveClientConfig({ url: 'ftp://example.com', key: 'loupe_k' }, { HOME: home }), /Not an http\(s\) URL/);
  });
});
