import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generatedSite } from '../testing/fixture-sites.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

const cli = new URL('../cli.ts', import.meta.url).pathname;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The embedded default (SQLite, jobs in `loupe serve`) killed with SIGKILL in the middle of a
 * crawl: the next process takes the job again once its lease lapses, continues from the
 * frontier and charges the crawl once.
 */
describe('a crawl survives kill -9 of its server', () => {
  let dataDir: string;
  let site: TestSite;
  let port: number;
  const key = `loupe_${randomBytes(24).toString('base64url')}`;
  const children: ChildProcess[] = [];

  const startServer = async () => {
    const child = spawn(process.execPath, [cli, 'serve'], {
      env: {
        ...process.env,
        LOUPE_DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOUPE_BOOTSTRAP_KEY: key,
        LOUPE_CRAWL_ALLOW_PRIVATE: 'true',
        LOUPE_JOB_LEASE_SECONDS: '1',
        // A metered plan: the crawl must be charged once across the kill.
        LOUPE_DEFAULT_PLAN: 'free',
        // info: the "listening" line tells the test the server is up.
        LOG_LEVEL: 'info',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    // The first start's notice is on stderr, away from the JSON log lines: it may be read after them.
    child.stderr?.on('data', (chunk: Buffer) => {
      workspaceId ??= /workspace id: ([0-9a-f-]{36})/.exec(chunk.toString())?.[1];
      if (workspaceId) noticed.resolve();
    });
    // The server logs (pino, JSON on stdout) once it listens.
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Loupe listening')) resolve();
      });
    });
    return child;
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const teams = workspaceId ?? '';
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'x-service-team': teams, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: await response.json() };
  };
  let workspaceId: string | undefined;
  const noticed = Promise.withResolvers<void>();

  /** Reads the crawl's server-sent events until one matches. */
  const untilEvent = async (crawlId: string, matches: (event: { type: string; status?: string; pagesCrawled?: number }) => boolean) => {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/crawls/${crawlId}/events`, {
      headers: { authorization: `Bearer ${key}`, 'x-service-team': workspaceId ?? '' },
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error('the event stream ended first');
      buffered += decoder.decode(value, { stream: true });
      const blocks = buffered.split('\n\n');
      buffered = blocks.pop() ?? '';
      for (const block of blocks) {
        if (block.startsWith('data: ') && matches(JSON.parse(block.slice(6)))) {
          await reader.cancel();
          return;
        }
      }
    }
  };

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'loupe-resume-'));
    site = await startTestSite(generatedSite(300), { record: true });
    port = await freePort();
  });
  after(async () => {
    for (const child of children) child.kill('SIGKILL');
    await site.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('resumes after the restart and charges exactly the pages crawled, once', async () => {
    const first = await startServer();
    await noticed.promise;
    const started = await api('POST', '/api/v1/crawls', {
      url: site.url('/'),
      maxPages: 120,
      concurrency: 1,
      delayMs: 15,
      sitemaps: false,
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const crawlId = started.body.id;

    await untilEvent(crawlId, (event) => event.type === 'progress' && (event.pagesCrawled ?? 0) >= 20);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const fetchedBeforeCrash = site.requests.total;

    await startServer();
    await untilEvent(crawlId, (event) => event.type === 'status' && event.status !== 'running' && event.status !== 'queued');
    const crawl = (await api('GET', `/api/v1/crawls/${crawlId}`)).body;
    assert.equal(crawl.status, 'completed');
    assert.equal(crawl.pagesCrawled, 120);
    assert.equal(crawl.creditsCharged, 120);
    assert.ok(site.requests.total > fetchedBeforeCrash, 'the second process went on crawling');
    const ledger = (await api('GET', '/api/v1/team/credits/ledger?limit=100')).body as { kind: string; crawlId: string; amount: number }[];
    const charges = ledger.filter((entry) => entry.crawlId === crawlId && entry.kind === 'charge');
    assert.deepEqual(
      charges.map((entry) => entry.amount),
      [-120],
    );
    assert.equal((await api('GET', '/api/v1/team/credits')).body.balance, 1000 - 120);
    // One report, over every page, pages fetched again after the crash counted once.
    const report = (await api('GET', `/api/v1/reports/${crawl.reportId}`)).body;
    assert.equal(report.pages.crawled, 120);
    assert.equal((await api('GET', '/api/v1/reports?limit=100')).body.length, 1);
  });
});
