import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** A lone surrogate is valid JSON but not text: percent-encoding it throws (the fuzz pass found a 500). */
describe('text that is not well-formed Unicode', () => {
  let t: TestServer;
  let projectId: string;
  before(async () => {
    t = await startTestServer('sqlite');
    projectId = (await t.request('POST', '/api/images/projects', { body: { name: 'Signed' } })).body.id;
    await t.request('POST', `/api/images/projects/${projectId}/signing`, { body: { enabled: true } });
  });
  after(() => t.close());

  it('is refused with 400 in the path and the parameters of a URL to sign', async () => {
    for (const [field, body] of [
      ['path', '{"path":"a\\ud800.jpg"}'],
      ['params.t', '{"path":"a.jpg","params":{"t":"\\udc00"}}'],
    ] as const) {
      const answer = await t.request('PUT', `/api/images/projects/${projectId}/signing`, { body });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.ok(Object.keys(answer.body.details.fieldErrors).includes(field), JSON.stringify(answer.body));
    }
  });
});
