import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type ClientOptions, createClient, isLoupeError, MAX_RETRY_DELAY_MS, type RetryNotice } from './index.ts';
import { type ScriptedAnswer, type ScriptedServer, startScriptedServer } from './testing/scripted-server.ts';

/**
 * The Loupe server answers 429 and 503 only under load it cannot be made to produce on demand
 * (no rate limiter; the transform queue's 503 is on /cdn, outside the API), so these tests
 * run against a real loopback server scripted to answer "not now" and then succeed.
 */
const project = { id: '0190b8a4-7c1e-7000-8000-000000000001', name: 'Blog' };
const ok: ScriptedAnswer = { status: 200, body: [project] };
const notNow = (status: 429 | 503, retryAfter?: string): ScriptedAnswer => ({
  status,
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  body: { error: 'Too many requests.', code: status === 429 ? 'rate_limited' : 'not_ready' },
});

describe('retries on 429 and 503', () => {
  const servers: ScriptedServer[] = [];
  after(() => Promise.all(servers.map((server) => server.close())));

  async function scripted(answers: ScriptedAnswer[], options: Partial<ClientOptions> = {}) {
    const server = await startScriptedServer(answers);
    servers.push(server);
    const notices: RetryNotice[] = [];
    const loupe = createClient({ baseUrl: server.url, apiKey: 'loupe_test', onRetry: (notice) => notices.push(notice), ...options });
    return { server, loupe, notices };
  }

  it('retries a 429 after the Retry-After seconds and answers the success', async () => {
    const { server, loupe, notices } = await scripted([notNow(429, '0'), ok]);
    assert.deepEqual(await loupe.listImageProjects(), [project]);
    assert.equal(server.received.length, 2);
    assert.deepEqual(notices, [{ operationId: 'listImageProjects', status: 429, attempt: 1, delayMs: 0 }]);
  });

  it('waits as long as Retry-After says', async () => {
    const { loupe, notices } = await scripted([notNow(503, '1'), ok]);
    assert.deepEqual(await loupe.listImageProjects(), [project]);
    assert.deepEqual(
      notices.map((notice) => [notice.status, notice.delayMs]),
      [[503, 1000]],
    );
  });

  it('reads Retry-After as an HTTP date', async () => {
    const { loupe, notices } = await scripted([notNow(503, new Date(Date.now() - 60_000).toUTCString()), ok]);
    assert.deepEqual(await loupe.listImageProjects(), [project]);
    assert.equal(notices[0]!.delayMs, 0);
  });

  it('backs off exponentially when there is no Retry-After', async () => {
    const { loupe, notices } = await scripted([notNow(503), notNow(503), ok]);
    assert.deepEqual(await loupe.listImageProjects(), [project]);
    const [first, second] = notices.map((notice) => notice.delayMs);
    assert.ok(first! >= 250 && first! <= 500, `first wait ${first}`);
    assert.ok(second! >= 500 && second! <= 1000, `second wait ${second}`);
  });

  it('gives up after `retries` retries with the last answer as a LoupeError', async () => {
    const { server, loupe } = await scripted([notNow(429, '0')], { retries: 2 });
    await assert.rejects(loupe.listImageProjects(), (error) => isLoupeError(error, 'rate_limited') && error.status === 429);
    assert.equal(server.received.length, 3);
  });

  it('does not retry with retries: 0', async () => {
    const { server, loupe } = await scripted([notNow(503, '0'), ok], { retries: 0 });
    await assert.rejects(loupe.listImageProjects(), (error) => isLoupeError(error, 'not_ready') && error.status === 503);
    assert.equal(server.received.length, 1);
  });

  it(`does not wait beyond ${MAX_RETRY_DELAY_MS / 1000} s: a longer Retry-After is thrown at once, with retryAfter`, async () => {
    const { server, loupe, notices } = await scripted([notNow(429, '3600'), ok]);
    await assert.rejects(loupe.listImageProjects(), (error) => isLoupeError(error, 'rate_limited') && error.extra.retryAfter === 3600);
    assert.equal(server.received.length, 1);
    assert.deepEqual(notices, []);
  });

  it('does not retry other failures', async () => {
    const { server, loupe } = await scripted([{ status: 500, body: { error: 'Boom.', code: 'internal_error', requestId: 'req-1' } }, ok]);
    await assert.rejects(loupe.listImageProjects(), (error) => isLoupeError(error, 'internal_error') && error.extra.requestId === 'req-1');
    assert.equal(server.received.length, 1);
  });

  it('sends a JSON body again on the retry', async () => {
    const { server, loupe } = await scripted([notNow(429, '0'), { status: 201, body: project }]);
    assert.deepEqual(await loupe.createImageProject({ body: { name: 'Blog' } }), project);
    assert.deepEqual(
      server.received.map((request) => JSON.parse(request.body.toString())),
      [{ name: 'Blog' }, { name: 'Blog' }],
    );
  });

  it('sends an upload again on the retry', async () => {
    const { server, loupe } = await scripted([notNow(503, '0'), { status: 201, body: project }]);
    const file = new TextEncoder().encode('not really a png');
    await loupe.uploadImage({
      projectId: project.id,
      upload: { file, filename: 'a.png', contentType: 'image/png', fields: { path: 'x/a.png' } },
    });
    assert.equal(server.received.length, 2);
    for (const request of server.received) {
      assert.match(String(request.headers['content-type']), /^multipart\/form-data; boundary=/);
      assert.match(request.body.toString(), /name="path"\r\n\r\nx\/a\.png\r\n/);
      assert.match(request.body.toString(), /filename="a\.png"\r\nContent-Type: image\/png\r\n\r\nnot really a png\r\n/);
    }
  });

  it('stops waiting when the call is aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('user left');
    // Aborted just after the SDK has started to wait out the 429's Retry-After.
    const onRetry = () => setImmediate(() => controller.abort(reason));
    const { server, loupe } = await scripted([notNow(429, '30'), ok], { onRetry });
    await assert.rejects(loupe.listImageProjects({}, { signal: controller.signal }), (error) => error === reason);
    assert.equal(server.received.length, 1);
  });

  it('retries each page of client.all', async () => {
    const first: ScriptedAnswer = {
      status: 200,
      headers: { link: '</api/images/projects?limit=1&cursor=c2>; rel="next"' },
      body: [project],
    };
    const { server, loupe } = await scripted([first, notNow(429, '0'), { status: 200, body: [{ ...project, name: 'Docs' }] }]);
    const names: string[] = [];
    for await (const item of loupe.all.listImageProjects({ limit: 1 })) names.push(item.name);
    assert.deepEqual(names, ['Blog', 'Docs']);
    assert.deepEqual(
      server.received.map((request) => request.url),
      ['/api/images/projects?limit=1', '/api/images/projects?limit=1&cursor=c2', '/api/images/projects?limit=1&cursor=c2'],
    );
  });
});
