import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import { createClient, isLoupeError, type LoupeClient, LoupeError } from './index.ts';
import { type ScriptedAnswer, startScriptedServer } from './testing/scripted-server.ts';

const MISSING_ID = '0190b8a4-7c1e-7000-8000-000000000000';

describe('SDK errors from the real server', () => {
  let t: TestServer;
  let loupe: LoupeClient;
  before(async () => {
    t = await startTestServer('sqlite', { crawlAllowPrivate: true });
    loupe = createClient({ baseUrl: t.url, apiKey: t.owner.key, workspaceId: t.owner.workspaceId });
  });
  after(() => t.close());

  it('throws validation_failed with status 400 and the field errors', async () => {
    const project = await loupe.createImageProject({ body: { name: 'Errors' } });
    await assert.rejects(
      loupe.createPreset({ projectId: project.id, body: { name: 'bad', transforms: { width: 0 } } }),
      (error: unknown) =>
        error instanceof LoupeError &&
        error.status === 400 &&
        error.code === 'validation_failed' &&
        'transforms.width' in (error.details?.fieldErrors ?? {}),
    );
  });

  it('throws unauthorized with status 401 for an unknown key', async () => {
    const stranger = createClient({ baseUrl: t.url, apiKey: 'loupe_unknownunknownunknownunknown' });
    await assert.rejects(stranger.listImageProjects(), (error) => isLoupeError(error, 'unauthorized') && error.status === 401);
  });

  it('throws not_found with status 404 for an unknown id', async () => {
    await assert.rejects(
      loupe.getImageProject({ projectId: MISSING_ID }),
      (error) => isLoupeError(error, 'not_found') && error.status === 404,
    );
  });

  it('throws team_header_required when a workspace call has no workspace', async () => {
    const noWorkspace = createClient({ baseUrl: t.url, apiKey: t.owner.key });
    await assert.rejects(noWorkspace.getCredits(), (error) => isLoupeError(error, 'team_header_required') && error.status === 400);
  });

  it('carries the 402 extras: required and balance of insufficient_credits', async () => {
    // A free workspace moved to pro keeps its 1,000 credits until the next top-up, under a 10,000-page cap.
    const other = await t.createWorkspace({ plan: 'free' });
    const client = createClient({ baseUrl: t.url, apiKey: other.key, workspaceId: other.workspaceId });
    await client.updateTeam({ body: { plan: 'pro' } });
    const { balance } = await client.getCredits();
    await assert.rejects(client.startCrawl({ body: { url: t.url, mode: 'site', maxPages: 5000 } }), (error) => {
      assert.ok(isLoupeError(error, 'insufficient_credits'), String(error));
      assert.equal(error.status, 402);
      assert.deepEqual(error.extra, { required: 5000, balance });
      return true;
    });
  });

  it('carries the 403 extras: limit and current of plan_limit_reached', async () => {
    const other = await t.createWorkspace({ plan: 'free' });
    const client = createClient({ baseUrl: t.url, apiKey: other.key });
    for (const name of ['one', 'two', 'three']) await client.createImageProject({ body: { name } });
    await assert.rejects(client.createImageProject({ body: { name: 'four' } }), (error) => {
      assert.ok(isLoupeError(error, 'plan_limit_reached'));
      assert.equal(error.status, 403);
      assert.deepEqual(error.extra, { limit: 3, current: 3 });
      return true;
    });
  });
});

describe('SDK errors from answers that are not Loupe error bodies', () => {
  async function failure(answer: ScriptedAnswer): Promise<LoupeError> {
    const server = await startScriptedServer([answer]);
    try {
      const client = createClient({ baseUrl: server.url, retries: 0 });
      const error = await client.listImageProjects().then(
        () => assert.fail('it answered'),
        (error: unknown) => error,
      );
      assert.ok(error instanceof LoupeError);
      return error;
    } finally {
      await server.close();
    }
  }

  it("keeps the status of a proxy's HTML 502, with the start of the page", async () => {
    const page = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    const error = await failure({ status: 502, headers: { 'content-type': 'text/html' }, body: page });
    assert.equal(error.status, 502);
    assert.equal(error.code, 'internal_error');
    assert.match(error.message, /502 Bad Gateway \(text\/html\)/);
    assert.equal(error.extra.body, page);
  });

  it('gives an empty 404 the not_found code', async () => {
    const error = await failure({ status: 404 });
    assert.equal(error.status, 404);
    assert.equal(error.code, 'not_found');
  });

  it('keeps the message, status and extras of a code this SDK does not know', async () => {
    const error = await failure({ status: 409, body: { error: 'Newer conflict.', code: 'brand_new_conflict', holder: 'x' } });
    assert.equal(error.status, 409);
    assert.equal(error.message, 'Newer conflict.');
    assert.deepEqual(error.extra, { holder: 'x', unrecognizedCode: 'brand_new_conflict' });
  });

  it('throws when a success is not JSON', async () => {
    const error = await failure({ status: 200, body: '<html>captive portal</html>' });
    assert.equal(error.status, 200);
    assert.equal(error.code, 'internal_error');
    assert.match(error.message, /instead of JSON/);
  });
});

describe('isLoupeError', () => {
  const error = new LoupeError('not_found');

  it('is true for a LoupeError, and with a code only for that code', () => {
    assert.equal(isLoupeError(error), true);
    assert.equal(isLoupeError(error, 'not_found'), true);
    assert.equal(isLoupeError(error, 'forbidden', 'not_found'), true);
    assert.equal(isLoupeError(error, 'forbidden'), false);
  });

  it('is false for anything else', () => {
    assert.equal(isLoupeError(new Error('not_found')), false);
    assert.equal(isLoupeError({ code: 'not_found', status: 404 }), false);
    assert.equal(isLoupeError(undefined), false);
  });
});
