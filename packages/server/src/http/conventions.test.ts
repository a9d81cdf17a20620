import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildOpenApiDocument } from '@loupe/contract';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

for (const dialect of testDialects()) {
  describe(`HTTP conventions (${dialect})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(dialect);
    });
    after(() => t.close());

    it('answers /healthz', async () => {
      const answer = await t.request('GET', '/healthz', { key: null });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { status: 'ok' });
    });

    it('answers /readyz with the database it reached', async () => {
      const answer = await t.request('GET', '/readyz', { key: null });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.database, dialect);
    });

    it('gives every answer a request id, keeping a well-formed one from the caller', async () => {
      const generated = await t.request('GET', '/api/images/projects');
      assert.match(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      const given = await t.request('GET', '/api/images/projects', { headers: { 'x-request-id': 'trace-42' } });
      assert.equal(given.headers.get('x-request-id'), 'trace-42');
      const hostile = await t.request('GET', '/api/images/projects', { headers: { 'x-request-id': 'a b\tc' } });
      assert.notEqual(hostile.headers.get('x-request-id'), 'a b\tc');
    });

    it('answers an unknown route with the JSON error body and 404', async () => {
      const answer = await t.request('GET', '/api/nothing-here');
      assert.equal(answer.status, 404);
      assert.equal(answer.body.code, 'not_found');
      assert.equal(typeof answer.body.error, 'string');
    });

    it('refuses a body that is not JSON with 415', async () => {
      const answer = await t.request('POST', '/api/images/projects', {
        body: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(answer.status, 415);
      assert.equal(answer.body.code, 'unsupported_media_type');
    });

    it('refuses text/plain with 415 too', async () => {
      const answer = await t.request('POST', '/api/images/projects', { body: 'x', headers: { 'content-type': 'text/plain' } });
      assert.equal(answer.status, 415);
    });

    it('refuses malformed JSON with 400 invalid_json', async () => {
      const answer = await t.request('POST', '/api/images/projects', { body: '{"name":' });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'invalid_json');
    });

    it('refuses a body over 1 MiB with 413', async () => {
      const answer = await t.request('POST', '/api/images/projects', { body: { name: 'x'.repeat(1024 * 1024) } });
      assert.equal(answer.status, 413);
      assert.equal(answer.body.code, 'payload_too_large');
    });

    it('refuses unknown query parameters', async () => {
      const answer = await t.request('GET', '/api/images/projects?sort=name');
      assert.equal(answer.status, 400);
      assert.deepEqual(Object.keys(answer.body.details.fieldErrors), ['sort']);
    });

    it('serves the OpenAPI document built from the registry', async () => {
      const answer = await t.request('GET', '/api/openapi.json', { key: null });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.paths, (buildOpenApiDocument({ version: 'x' }) as { paths: unknown }).paths);
    });

    it('serves a browsable API reference at /api/docs', async () => {
      const response = await fetch(`${t.url}/api/docs/`, { redirect: 'follow' });
      assert.equal(response.status, 200);
      assert.match(await response.text(), /swagger-ui/i);
    });
  });

  describe(`failures inside the server (${dialect})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(dialect);
    });
    after(() => t.close());

    it('answers 500 with a request id and no stack trace, and /readyz 503, when the database is gone', async () => {
      await t.server.database.db.destroy();
      const answer = await t.request('GET', '/api/images/projects');
      assert.equal(answer.status, 500);
      assert.equal(answer.body.code, 'internal_error');
      assert.equal(answer.body.requestId, answer.headers.get('x-request-id'));
      assert.doesNotMatch(JSON.stringify(answer.body), /at .*\.ts:\d+/);
      const ready = await t.request('GET', '/readyz', { key: null });
      assert.equal(ready.status, 503);
      assert.equal(ready.body.code, 'not_ready');
    });
  });
}
