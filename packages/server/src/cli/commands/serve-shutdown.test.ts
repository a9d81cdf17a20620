import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, type ClientRequest, request } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { generatedSite, TINY_PNG } from '../../testing/fixture-sites.ts';
import { testDatabaseUrl } from '../../testing/test-database.ts';
import { type Dialect, testDialects } from '../../testing/test-dialects.ts';
import { startTestSite, type TestSite } from '../../testing/test-site.ts';
import { loupeEntry } from '../test-loupe-run.ts';

/** A port nobody listens on now (the server then takes it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

type LogLine = { msg?: string; level?: number; [key: string]: unknown };

/** One `loupe serve` (or `loupe worker`) process: its log lines (pino JSON on stdout) and its exit, to await rather than sleep on. */
class ServeProcess {
  readonly child: ChildProcess;
  readonly lines: LogLine[] = [];
  readonly output: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #waiters: { match: (line: LogLine) => boolean; resolve(line: LogLine): void }[] = [];

  constructor(env: Record<string, string>, command: 'serve' | 'worker' = 'serve') {
    this.child = spawn(process.execPath, [loupeEntry, command], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    // The log is on stdout; the first start's notice on stderr.
    for (const stream of [this.child.stdout, this.child.stderr]) {
      let pending = '';
      stream?.on('data', (chunk: Buffer) => {
        pending += chunk.toString();
        const complete = pending.split('\n');
        pending = complete.pop() ?? '';
        for (const text of complete) this.#add(text);
      });
    }
  }

  #add(text: string): void {
    this.output.push(text);
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      line = { msg: text };
    }
    this.lines.push(line);
    for (const waiter of this.#waiters.filter((w) => w.match(line))) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  }

  /** The first log line (past or to come) that matches; fails if the process exits first. */
  logged(match: (line: LogLine) => boolean, what = 'a log line'): Promise<LogLine> {
    const seen = this.lines.find(match);
    if (seen) return Promise.resolve(seen);
    return Promise.race([
      new Promise<LogLine>((resolve) => this.#waiters.push({ match, resolve })),
      this.exited.then(({ code }) => {
        // The line may be among the last ones read before the exit.
        const late = this.lines.find(match);
        if (late) return late;
        throw new Error(`exited (${code}) before ${what}:\n${this.output.join('\n')}`);
      }),
    ]);
  }

  text(): string {
    return this.output.join('\n');
  }
}

const says = (text: string) => (line: LogLine) => typeof line.msg === 'string' && line.msg.includes(text);

/** A crawl's server-sent events as they arrive, and the end of the stream. */
class EventStream {
  readonly events: { type: string; status?: string; pagesCrawled?: number }[] = [];
  readonly ended: Promise<void>;
  #waiters: { match: (event: EventStream['events'][number]) => boolean; resolve(): void }[] = [];

  constructor(body: ReadableStream<Uint8Array>) {
    this.ended = this.#read(body);
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of body) {
      buffered += decoder.decode(chunk, { stream: true });
      const blocks = buffered.split('\n\n');
      buffered = blocks.pop() ?? '';
      for (const block of blocks.filter((b) => b.startsWith('data: '))) {
        const event = JSON.parse(block.slice(6));
        this.events.push(event);
        for (const waiter of this.#waiters.filter((w) => w.match(event))) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    }
  }

  until(match: (event: EventStream['events'][number]) => boolean): Promise<void> {
    if (this.events.some(match)) return Promise.resolve();
    return Promise.race([
      new Promise<void>((resolve) => this.#waiters.push({ match, resolve })),
      this.ended.then(() => {
        if (!this.events.some(match)) throw new Error('the event stream ended first');
      }),
    ]);
  }
}

/** A database of its own on the PostgreSQL server, so the job queue's schema is this test's alone. */
async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = testDatabaseUrl();
  const name = `shutdown_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => run(`drop database if exists ${name} with (force)`) };
}

for (const dialect of testDialects() as Dialect[]) {
  describe(`loupe serve stops within its deadline on SIGTERM (${dialect})`, { timeout: 180_000 }, () => {
    let dataDir: string;
    let databaseUrl = '';
    let dropDatabase: (() => Promise<void>) | undefined;
    let site: TestSite;
    let port: number;
    let workspaceId = '';
    const key = `loupe_${randomBytes(24).toString('base64url')}`;
    const servers: ServeProcess[] = [];

    const serve = async (env: Record<string, string> = {}, command: 'serve' | 'worker' = 'serve') => {
      const server = new ServeProcess(
        {
          LOUPE_DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOUPE_BOOTSTRAP_KEY: key,
          LOUPE_CRAWL_ALLOW_PRIVATE: 'true',
          // Longer than any test waits: a job the next server runs was handed back, not left to lapse.
          LOUPE_JOB_LEASE_SECONDS: '600',
          LOUPE_SHUTDOWN_SECONDS: '60',
          LOG_LEVEL: 'debug',
          ...env,
        },
        command,
      );
      servers.push(server);
      await server.logged(says(command === 'serve' ? 'Loupe listening' : 'Loupe worker taking jobs'), 'ready');
      if (command === 'worker') return server;
      if (!workspaceId) {
        const notice = await server.logged(says('workspace id:'), 'the first start notice');
        workspaceId = /workspace id: ([0-9a-f-]{36})/.exec(String(notice.msg))?.[1] ?? '';
      }
      return server;
    };
    /** Stops the processes earlier tests left running, so the next one has the port. */
    const stopAll = async () => {
      for (const server of servers) server.child.kill('SIGTERM');
      await Promise.all(servers.map((server) => server.exited));
    };
    const headers = () => ({ authorization: `Bearer ${key}`, 'x-service-team': workspaceId });
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: { ...headers(), ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, body: await response.json() };
    };
    const follow = async (crawlId: string) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/crawls/${crawlId}/events`, { headers: headers() });
      assert.equal(response.status, 200);
      return new EventStream(response.body as ReadableStream<Uint8Array>);
    };
    /** An upload whose request (headers and half the file) has reached the server; `finish` sends the rest. */
    const keepAlive = new Agent({ keepAlive: true });
    const startUpload = async (server: ServeProcess, projectId: string, path: string) => {
      const boundary = `----loupe${randomBytes(8).toString('hex')}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\n${path}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const half = Math.floor(TINY_PNG.length / 2);
      const url = `/api/images/projects/${projectId}/images`;
      let sent: ClientRequest | undefined;
      const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
        sent = request(
          {
            host: '127.0.0.1',
            port,
            // Keeps the connection open once answered, as long as the server lets it.
            agent: keepAlive,
            method: 'POST',
            path: url,
            headers: {
              ...headers(),
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'content-length': head.length + TINY_PNG.length + tail.length,
            },
          },
          (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => {
              body += chunk.toString();
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        sent.on('error', reject);
        sent.write(Buffer.concat([head, TINY_PNG.subarray(0, half)]));
      });
      await server.logged((line) => says('incoming request')(line) && JSON.stringify(line).includes(url), 'the upload arriving');
      return {
        answered,
        finish: () => (sent as ClientRequest).end(Buffer.concat([TINY_PNG.subarray(half), tail])),
      };
    };

    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'loupe-shutdown-'));
      if (dialect === 'postgres') {
        const database = await createDatabase();
        databaseUrl = database.url;
        dropDatabase = database.drop;
      }
      site = await startTestSite(generatedSite(300), { record: true });
      port = await freePort();
    });
    after(async () => {
      keepAlive.destroy();
      for (const server of servers) server.child.kill('SIGKILL');
      await Promise.all(servers.map((server) => server.exited));
      await site.close();
      await dropDatabase?.();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('ends event streams, finishes an upload in flight, hands the crawl back; the next start finishes it, charged once', async (t) => {
      const first = await serve();
      assert.ok(workspaceId, 'the first start printed the workspace id');
      const project = await api('POST', '/api/v1/projects', { name: 'Shop', siteUrl: site.url('/') });
      assert.equal(project.status, 201, JSON.stringify(project.body));
      const images = await api('POST', '/api/images/projects', { name: 'Photos' });
      assert.equal(images.status, 201, JSON.stringify(images.body));
      const started = await api('POST', '/api/v1/crawls', {
        url: site.url('/'),
        projectId: project.body.id,
        maxPages: 150,
        concurrency: 1,
        delayMs: 20,
        sitemaps: false,
      });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      const crawlId: string = started.body.id;
      const events = await follow(crawlId);
      await events.until((event) => event.type === 'progress' && (event.pagesCrawled ?? 0) >= 10);
      const upload = await startUpload(first, images.body.id, 'shutdown/photo.png');

      first.child.kill('SIGTERM');
      await first.logged(says('SIGTERM: shutting down'), 'the shutdown starting');
      upload.finish();
      const answer = await upload.answered;
      assert.equal(answer.status, 201, answer.body);
      await events.ended;
      assert.ok(!events.events.some((event) => event.type === 'status' && event.status !== 'running' && event.status !== 'queued'));
      // Exit 0 is before the deadline: past it the process exits 1.
      assert.deepEqual(await first.exited, { code: 0, signal: null }, first.text());
      await first.logged((line) => says('job crawl.run released')(line), 'the crawl handed back');
      const began = await first.logged(says('SIGTERM: shutting down'));
      const ended = await first.logged((line) => line.msg === 'shut down');
      t.diagnostic(`SIGTERM to shut down: ${Number(ended.time) - Number(began.time)} ms (upload finished after the signal)`);
      const fetchedBefore = site.requests.total;

      await serve();
      const resumed = await follow(crawlId);
      await resumed.until((event) => event.type === 'status' && event.status !== 'running' && event.status !== 'queued');
      await resumed.ended;
      const crawl = (await api('GET', `/api/v1/crawls/${crawlId}`)).body;
      assert.equal(crawl.status, 'completed');
      assert.equal(crawl.pagesCrawled, 150);
      assert.ok(site.requests.total > fetchedBefore, 'the second server went on crawling');
      // Charged once, every page (a plan without credits charges nothing at all).
      const ledger = (await api('GET', '/api/v1/team/credits/ledger?limit=100')).body as {
        kind: string;
        crawlId: string;
        amount: number;
      }[];
      const charges = ledger.filter((entry) => entry.crawlId === crawlId && entry.kind === 'charge').map((entry) => entry.amount);
      assert.deepEqual(charges, crawl.creditsCharged === 0 ? [] : [-150]);
      assert.ok([0, 150].includes(crawl.creditsCharged), `charged ${crawl.creditsCharged}`);
      // Pages fetched before the shutdown are not fetched again: at most the one in flight then (concurrency 1).
      const gets = site.requests.entries.filter((entry) => entry.method === 'GET' && entry.path !== '/robots.txt');
      const twice = [...new Set(gets.map((entry) => entry.path))].filter((path) => site.requests.count(path) > 1);
      assert.ok(twice.length <= 1, `fetched twice: ${twice.join(', ')}`);
      const stored = (await api('GET', `/api/images/projects/${images.body.id}/images`)).body as { path: string }[];
      assert.deepEqual(
        stored.map((image) => image.path),
        ['shutdown/photo.png'],
      );
    });

    it('hands a search index build back, and the next start completes it', async (t) => {
      const server = servers.at(-1) as ServeProcess;
      const projects = (await api('GET', '/api/v1/projects')).body as { id: string }[];
      const building = await api('POST', `/api/v1/projects/${projects[0]?.id}/search-index`);
      assert.equal(building.status, 202, JSON.stringify(building.body));
      server.child.kill('SIGTERM');
      assert.deepEqual(await server.exited, { code: 0, signal: null }, server.text());
      t.diagnostic(server.lines.some(says('job search-index.build released')) ? 'the build was handed back' : 'the build ended first');
      const next = await serve();
      const state = (await api('GET', `/api/v1/projects/${projects[0]?.id}/search-index`)).body;
      // Built before the signal, or handed back and built now: never failed.
      if (state.state !== 'ready') await next.logged(says('job search-index.build done'), 'the build completing');
      assert.equal((await api('GET', `/api/v1/projects/${projects[0]?.id}/search-index`)).body.state, 'ready');
    });

    it('answers a request that comes during the shutdown 503 not_ready, in the error body, and closes its connection', async () => {
      await stopAll();
      const server = await serve();
      const images = (await api('GET', '/api/images/projects')).body as { id: string }[];
      const url = `/api/images/projects/${images[0]?.id}/images`;
      const boundary = `----loupe${randomBytes(8).toString('hex')}`;
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\npipelined/photo.png\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        TINY_PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const head =
        `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nX-Service-Team: ${workspaceId}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`;
      // One connection: the upload, half sent before the signal, then a second request behind it.
      const socket = connect(port, '127.0.0.1');
      let answers = '';
      socket.on('data', (chunk: Buffer) => {
        answers += chunk.toString('latin1');
      });
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.write(Buffer.concat([Buffer.from(head), body.subarray(0, 100)]));
      await server.logged((line) => says('incoming request')(line) && JSON.stringify(line).includes(url), 'the upload arriving');
      server.child.kill('SIGTERM');
      await server.logged(says('SIGTERM: shutting down'));
      socket.write(Buffer.concat([body.subarray(100), Buffer.from(`GET /api/v1/crawls HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)]));
      await closed;
      assert.match(answers, /^HTTP\/1\.1 201 /);
      const refusal = answers.slice(answers.lastIndexOf('HTTP/1.1 '));
      assert.match(refusal, /^HTTP\/1\.1 503 /);
      assert.match(refusal, /\r\nretry-after: 1\r\n/i);
      assert.match(refusal, /\r\nconnection: close\r\n/i);
      const error = JSON.parse(refusal.slice(refusal.indexOf('\r\n\r\n') + 4));
      assert.equal(error.code, 'not_ready');
      assert.match(error.error, /shutting down/);
      assert.deepEqual(await server.exited, { code: 0, signal: null }, server.text());
    });

    it('exits 1 past its deadline, naming what it cut short', async () => {
      await stopAll();
      const short = await serve({ LOUPE_SHUTDOWN_SECONDS: '1' });
      const images = (await api('GET', '/api/images/projects')).body as { id: string }[];
      const upload = await startUpload(short, images[0]?.id as string, 'never/finished.png');
      upload.answered.catch(() => {});
      short.child.kill('SIGTERM');
      assert.deepEqual(await short.exited, { code: 1, signal: null }, short.text());
      const cut = await short.logged(says('exiting anyway'));
      assert.deepEqual(cut.unfinished, ['HTTP requests in flight']);
    });

    // `loupe worker` needs PostgreSQL's queue: on SQLite the server runs its own jobs, and there is no such test.
    if (dialect === 'postgres')
      it('with PostgreSQL, `loupe worker` hands its crawl back on SIGTERM and the next worker finishes it', async () => {
        await stopAll();
        await serve({ LOUPE_SERVE_JOBS: 'false' });
        const started = await api('POST', '/api/v1/crawls', {
          url: site.url('/'),
          maxPages: 120,
          concurrency: 1,
          delayMs: 20,
          sitemaps: false,
        });
        assert.equal(started.status, 202, JSON.stringify(started.body));
        const events = await follow(started.body.id);
        const worker = await serve({}, 'worker');
        await events.until((event) => event.type === 'progress' && (event.pagesCrawled ?? 0) >= 10);
        worker.child.kill('SIGTERM');
        assert.deepEqual(await worker.exited, { code: 0, signal: null }, worker.text());
        await worker.logged(says('job crawl.run released'), 'the crawl handed back');
        await serve({}, 'worker');
        await events.until((event) => event.type === 'status' && event.status !== 'running' && event.status !== 'queued');
        const crawl = (await api('GET', `/api/v1/crawls/${started.body.id}`)).body;
        assert.equal(crawl.status, 'completed');
        assert.equal(crawl.pagesCrawled, 120);
      });

    it('exits at once on a second signal', async () => {
      await stopAll();
      const server = await serve();
      const images = (await api('GET', '/api/images/projects')).body as { id: string }[];
      const upload = await startUpload(server, images[0]?.id as string, 'never/finished.png');
      upload.answered.catch(() => {});
      server.child.kill('SIGTERM');
      await server.logged(says('SIGTERM: shutting down'));
      server.child.kill('SIGINT');
      assert.deepEqual(await server.exited, { code: 130, signal: null }, server.text());
      await server.logged(says('SIGINT again: exiting at once'));
      // The uploads cut short, here and past the deadline, stored nothing; those that finished are kept.
      await serve();
      const stored = (await api('GET', `/api/images/projects/${images[0]?.id}/images`)).body as { path: string }[];
      assert.deepEqual(stored.map((image) => image.path).sort(), ['pipelined/photo.png', 'shutdown/photo.png']);
    });
  });
}
