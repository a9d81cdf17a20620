import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import { type Browser, chromium } from 'playwright-core';
import { build } from 'vite';
import { buildPackage } from './build-package.ts';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const scratchSources = new URL('./scratch/', import.meta.url);

/** The system's Node (20 on this machine's kind), beside the repository's own (24) that runs this test. */
const SYSTEM_NODE = '/usr/bin/node';
/** Debian's Chromium, installed by `.ci/run` (never a browser a test tool downloads). */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'];

const missingProject = { status: 404, code: 'not_found', isLoupeError: true };

/** A child's environment with nothing of this process's npm or test runner, so npm and Node behave as in a fresh shell. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

/**
 * The scratch project's lockfile: the packed tarball and the zod version the repository's own lockfile
 * pins, so that `npm ci --offline` installs both from the npm cache `npm ci` filled (no network).
 */
async function scratchLockfile(tarball: string, integrity: string): Promise<object> {
  const repoLock = JSON.parse(await readFile(join(repoRoot, 'package-lock.json'), 'utf8'));
  const sdk = JSON.parse(await readFile(join(repoRoot, 'packages/sdk/package.json'), 'utf8'));
  const zod = repoLock.packages['node_modules/zod'];
  const dependencies = { '@loupe/sdk': `file:${tarball}` };
  return {
    name: 'scratch',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'scratch', dependencies },
      'node_modules/@loupe/sdk': { version: sdk.version, resolved: `file:${tarball}`, integrity, dependencies: { zod: `^${zod.version}` } },
      'node_modules/zod': { version: zod.version, integrity: zod.integrity },
    },
  };
}

describe('the packed SDK, installed outside the repository', () => {
  let t: TestServer;
  let dir: string;
  let app: string;

  before(async () => {
    t = await startTestServer('sqlite');
    dir = await mkdtemp(join(tmpdir(), 'loupe-sdk-pack-'));
    app = join(dir, 'app');
    const packageDir = join(dir, 'package');
    await buildPackage(packageDir);
    const { stdout } = await run('npm', ['pack', packageDir, '--json', '--pack-destination', dir], { env: cleanEnv() });
    const [packed] = JSON.parse(stdout);
    await mkdir(app);
    const tarball = `../${packed.filename}`;
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({ name: 'scratch', private: true, type: 'module', dependencies: { '@loupe/sdk': `file:${tarball}` } }),
    );
    await writeFile(join(app, 'package-lock.json'), JSON.stringify(await scratchLockfile(tarball, packed.integrity)));
    await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: app, env: cleanEnv() });
    for (const file of await readdir(scratchSources)) await copyFile(new URL(file, scratchSources), join(app, file));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await t.close();
  });

  it('carries the bundle, the declarations and a manifest, and neither sources nor the contract package', async () => {
    const installed = join(app, 'node_modules/@loupe/sdk');
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    assert.equal(manifest.private, undefined);
    assert.deepEqual(Object.keys(manifest.dependencies), ['zod']);
    const files = await readdir(installed, { recursive: true });
    assert.ok(files.includes('index.js'));
    assert.ok(files.includes('types/sdk/src/index.d.ts'));
    assert.deepEqual(
      files.filter((file) => extname(file) === '.ts' && !file.endsWith('.d.ts')),
      [],
    );
    await assert.rejects(access(join(app, 'node_modules/@loupe/contract')));
  });

  for (const [name, node] of [
    ['the system Node', SYSTEM_NODE],
    ["the repository's Node", process.execPath],
  ] as const) {
    it(`runs from plain JavaScript on ${name}`, async () => {
      const { stdout: version } = await run(node, ['--version']);
      assert.ok(Number(/^v(\d+)/.exec(version)![1]) >= 20, `${node} is ${version}`);
      const { stdout } = await run(node, ['node-check.mjs'], {
        cwd: app,
        env: cleanEnv({ LOUPE_URL: t.url, LOUPE_API_KEY: t.owner.key }),
      });
      const answer = JSON.parse(stdout);
      assert.equal(answer.node, version.trim());
      assert.equal(answer.workspaceId, t.owner.workspaceId);
      assert.equal(typeof answer.teamName, 'string');
      assert.deepEqual(answer.missing, { ...missingProject, instanceOfLoupeError: true });
      assert.match(answer.signed, /\/blog\/cover%20photo\.jpg\?.*w=320.*&s=/);
    });
  }

  it('typechecks from TypeScript, strict and without skipLibCheck', async () => {
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          lib: ['es2022', 'dom'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          types: [],
        },
        files: ['typed.ts'],
      }),
    );
    const tsc = join(repoRoot, 'node_modules/.bin/tsc');
    await run(tsc, ['-p', join(app, 'tsconfig.json')], { cwd: app }).catch((error) => {
      assert.fail(`tsc refused typed.ts:\n${error.stdout}${error.stderr}`);
    });
  });

  it('bundles for a browser with no Node built-in and talks to the server from Chromium', async () => {
    const web = join(dir, 'web');
    await writeFile(join(app, 'index.html'), '<!doctype html><title>SDK</title><script type="module" src="./browser-check.js"></script>');
    // Served under the test server's own origin (see the route below), so the client's default baseUrl is the server.
    await build({ root: app, base: '/sdk-check/', configFile: false, logLevel: 'silent', build: { outDir: web, emptyOutDir: true } });
    const assets = (await readdir(web, { recursive: true })).filter((file) => file.endsWith('.js'));
    assert.equal(assets.length, 1);
    const bundle = await readFile(join(web, assets[0]!), 'utf8');
    assert.doesNotMatch(bundle, /["']node:[a-z]/);

    await access(CHROMIUM, constants.X_OK);
    const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    try {
      const page = await browser.newPage();
      await page.route(`${t.url}/sdk-check/**`, async (route) => {
        const path = new URL(route.request().url()).pathname.replace('/sdk-check/', '');
        const contentType = path.endsWith('.js') ? 'text/javascript' : 'text/html';
        await route.fulfill({ contentType, body: await readFile(join(web, path)) });
      });
      await page.goto(`${t.url}/sdk-check/index.html`);
      await page.waitForFunction(() => 'checkSdk' in window);
      const answer = await page.evaluate(
        (key) => (window as unknown as { checkSdk(key: string): Promise<unknown> }).checkSdk(key),
        t.owner.key,
      );
      const { teamName, ...rest } = answer as { teamName: unknown };
      assert.equal(typeof teamName, 'string');
      assert.deepEqual(rest, { workspaceId: t.owner.workspaceId, missing: missingProject });
    } finally {
      await browser.close();
    }
  });
});
