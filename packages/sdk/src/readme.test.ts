import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { htmlPage } from '@loupe/server/src/testing/html-page.ts';
import { testImagesDir } from '@loupe/server/src/testing/test-images.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import { startTestSite, type TestSite } from '@loupe/server/src/testing/test-site.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const readmePath = new URL('../README.md', import.meta.url);

/** The README's ```ts blocks, in order: together they are one program. */
function readmeExamples(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/**
 * The README's examples run as written, but against a test server and a local site to crawl:
 * its `http://localhost:8080` becomes the server, `https://example.com` the site, and
 * `@loupe/sdk` this checkout's entry, so that the program runs outside the workspace.
 */
function program(examples: string[], server: string, site: string): string {
  return examples
    .join('\n')
    .replaceAll("'@loupe/sdk'", `'${fileURLToPath(new URL('./index.ts', import.meta.url))}'`)
    .replaceAll('http://localhost:8080', server)
    .replaceAll('https://example.com', site);
}

describe('README examples', () => {
  let t: TestServer;
  let site: TestSite;
  let dir: string;

  before(async () => {
    t = await startTestServer('sqlite', { crawlAllowPrivate: true });
    const words = 'Welcome to the example site: what we make, who we are, and how to reach us.';
    site = await startTestSite({
      pages: {
        '/': htmlPage({ path: '/', title: 'Welcome', body: `<p>${words}</p>`, links: ['/about', '/contact', '/missing'] }),
        '/about': htmlPage({ path: '/about', title: 'About us', links: ['/'] }),
        '/contact': htmlPage({ path: '/contact', title: 'Contact', links: ['/'] }),
      },
    });
    dir = await mkdtemp(join(tmpdir(), 'loupe-readme-'));
    const examples = readmeExamples(await readFile(readmePath, 'utf8'));
    await writeFile(join(dir, 'readme.ts'), program(examples, t.url, site.origin));
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: join(root, 'tsconfig.json'),
        // A README example may declare what a reader copies and calls elsewhere (a helper, a client).
        compilerOptions: { typeRoots: [join(root, 'node_modules/@types')], noUnusedLocals: false },
        include: [],
        files: ['readme.ts'],
      }),
    );
    await copyFile(new URL('rocket.jpg', testImagesDir), join(dir, 'cover.jpg'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await site.close();
    await t.close();
  });

  it('has an example for every area', async () => {
    const readme = await readFile(readmePath, 'utf8');
    const areas = readme
      .split(/^## /m)
      .slice(1)
      .filter((section) => /^```ts$/m.test(section))
      .map((section) => section.split('\n')[0]);
    assert.deepEqual(areas, [
      'Client',
      'Team, plan and keys',
      'Image projects and presets',
      'Images',
      'CDN URLs',
      'Crawls',
      'Reports and paging',
      'Diff',
      'Rule packs',
      'Audit projects',
      'Schedules',
      'Alerts',
      'Search',
      'Errors',
      'Retries',
      'In a browser',
      'Types',
    ]);
  });

  it('type-checks', async () => {
    const checked = await run(join(root, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')]).catch((error) => error);
    assert.equal(checked.code ?? 0, 0, `${checked.stdout}${checked.stderr}`);
  });

  it('runs against a real server and prints what the README promises', async () => {
    const ran = await run(process.execPath, [join(dir, 'readme.ts')], {
      cwd: dir,
      env: { ...process.env, LOUPE_API_KEY: t.owner.key },
    }).catch((error) => error);
    assert.equal(ran.code ?? 0, 0, `${ran.stdout}${ran.stderr}`);
    const printed: string = ran.stdout;
    for (const line of [
      /^workspace Default, owner$/m,
      /^uploaded posts\/spring\/cover\.jpg: \d+×\d+ jpeg$/m,
      /^CDN answered 200 image\/webp$/m,
      /^crawled \d of at most 50 pages$/m,
      /^crawl completed$/m,
      /^page http:\/\/127\.0\.0\.1:\d+\/missing 404$/m,
      /^CSV export: url,status,rule_id,category,severity,title,count,detail,position,instance,lcp_ms,cls,tbt_ms$/m,
      /^rule pack house: 1 rule$/m,
      /^content\/short-pages fires on \d+ of \d+ pages$/m,
      /^hit http:\/\/127\.0\.0\.1:\d+\/: .*<mark>Welcome<\/mark>/im,
      /^402: needs 10000 credits, has \d+$/m,
      /^400: transforms\.width$/m,
    ]) {
      assert.match(printed, line);
    }
  });
});
