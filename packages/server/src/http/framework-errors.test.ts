import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RawAnswer, rawRequest } from '../testing/raw-request.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** Failures the fuzz pass (fuzz-operations.test.ts) found answered outside DESIGN.md §4 or as 500s. */
describe('requests that fail before their route runs', () => {
  let t: TestServer;
  let projectId: string;
  const auth = () => ({ authorization: `Bearer ${t.owner.key}` });
  before(async () => {
    t = await startTestServer('sqlite');
    projectId = (await t.request('POST', '/api/images/projects', { body: { name: 'Uploads' } })).body.id;
  });
  after(() => t.close());

  const multipart = (body: string, contentType = 'multipart/form-data; boundary=b') =>
    rawRequest(t.url, {
      method: 'POST',
      path: `/api/images/projects/${projectId}/images`,
      headers: { ...auth(), 'content-type': contentType },
      body,
    });

  it('answers a malformed percent escape in the path with 400 and the error body', async () => {
    for (const path of ['/api/images/projects/%E0', '/cdn/x/%E0.png', '/api/v1/reports/%']) {
      const answer = await rawRequest(t.url, { method: 'GET', path, headers: auth() });
      assert.equal(answer.status, 400, path);
      assert.deepEqual(JSON.parse(answer.text), { error: 'The URL has a malformed percent escape.', code: 'validation_failed' });
    }
  });

  it('answers a path parameter longer than any id with 400 and the error body', async () => {
    // GET falls through to the dashboard's routes (404); a write meets the router's length limit.
    const answer = await rawRequest(t.url, {
      method: 'PATCH',
      path: `/api/images/projects/${'x'.repeat(300)}`,
      headers: { ...auth(), 'content-type': 'application/json' },
      body: '{"name":"x"}',
    });
    assert.equal(answer.status, 400, answer.text);
    assert.deepEqual(JSON.parse(answer.text), { error: 'A path parameter is longer than any id.', code: 'validation_failed' });
  });

  it('answers a multipart body without a boundary, or cut short, with 400', async () => {
    const noBoundary = await multipart('abc', 'multipart/form-data');
    const cutShort = await multipart('--b\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\n\r\nabc');
    for (const answer of [noBoundary, cutShort]) {
      assert.equal(answer.status, 400, answer.text);
      assert.equal(JSON.parse(answer.text).code, 'validation_failed');
      assert.match(JSON.parse(answer.text).error, /^The multipart body is malformed/);
    }
  });

  it('answers a multipart field named __proto__ with 400', async () => {
    const answer = await multipart('--b\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nx\r\n--b--\r\n');
    assert.equal(answer.status, 400);
    assert.deepEqual(JSON.parse(answer.text), { error: 'A field may not be named __proto__ or constructor.', code: 'validation_failed' });
  });
});

/** Failures the fuzz pass over the routes outside the registry (fuzz-routes.test.ts) found answered as 500s or outside §4. */
describe('requests refused by the file servers and by the HTTP parser', () => {
  let t: TestServer;
  const css = '/api/docs/static/index.css';
  before(async () => {
    t = await startTestServer('sqlite');
  });
  after(() => t.close());

  const assertRefused = (answer: RawAnswer, status: number, code: string) => {
    assert.equal(answer.status, status, answer.text);
    assert.match(answer.contentType, /^application\/json/);
    assert.equal(JSON.parse(answer.text).code, code);
  };

  it("answers a path that climbs out of Swagger UI's folder with 404 and the error body", async () => {
    for (const path of ['/api/docs/static/..', '/api/docs/static/%2e%2e/package.json', '/api/docs/static/../../package.json']) {
      assertRefused(await rawRequest(t.url, { method: 'GET', path }), 404, 'not_found');
    }
  });

  it('answers a Range a file does not have, or a malformed one, with 416 and the error body', async () => {
    for (const range of ['bytes=999999-', 'bytes=x']) {
      assertRefused(await rawRequest(t.url, { method: 'GET', path: css, headers: { range } }), 416, 'range_not_satisfiable');
    }
  });

  it('answers a precondition a file fails (If-Match) with 412 and the error body', async () => {
    assertRefused(
      await rawRequest(t.url, { method: 'GET', path: css, headers: { 'if-match': '"not-this-one"' } }),
      412,
      'precondition_failed',
    );
  });

  it('answers a request line and headers past 16 KB with 431 and the error body', async () => {
    const wire = `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;
    const answer = await rawRequest(t.url, { method: 'GET', path: '/a…', wire });
    assertRefused(answer, 431, 'headers_too_large');
    assert.match(JSON.parse(answer.text).error, /16 KB/);
  });

  it('answers a request it cannot parse (a NUL in the path, an unknown method, a bad Content-Length) with 400 and the error body', async () => {
    const request = (line: string, header = '') => `${line}\r\nHost: 127.0.0.1\r\n${header}Connection: close\r\n\r\n`;
    for (const wire of [
      request('GET /a\u0000b HTTP/1.1'),
      request('BREW / HTTP/1.1'),
      request('POST /mcp HTTP/1.1', 'Content-Length: abc\r\n'),
    ]) {
      assertRefused(
        await rawRequest(t.url, { method: 'RAW', path: JSON.stringify(wire.split('\r\n')[0]), wire }),
        400,
        'validation_failed',
      );
    }
  });
});
