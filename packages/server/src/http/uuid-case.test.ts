import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** Issue #27: UUIDs compare case-insensitively (RFC 9562) in paths, queries, bodies and x-service-team. */
for (const dialect of testDialects()) {
  describe(`ids in capitals (${dialect})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
    });
    after(() => t.close());

    it('reach the same resource in a path, a body and the team header', async () => {
      const created = await t.request('POST', '/api/images/projects', { body: { name: 'Case' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const upper = String(created.body.id).toUpperCase();
      const found = await t.request('GET', `/api/images/projects/${upper}`);
      assert.deepEqual([found.status, found.body.id], [200, created.body.id]);

      const project = await t.request('POST', '/api/v1/projects', { body: { name: 'Case', siteUrl: 'http://127.0.0.1:9/' } });
      assert.equal(project.status, 201, JSON.stringify(project.body));
      const estimate = await t.request('POST', '/api/v1/crawls/estimate', {
        body: { url: 'http://127.0.0.1:9/', projectId: String(project.body.id).toUpperCase() },
        team: t.owner.workspaceId.toUpperCase(),
      });
      assert.equal(estimate.status, 200, JSON.stringify(estimate.body));
    });

    it('still refuse what is not a UUID', async () => {
      const answer = await t.request('GET', '/api/images/projects/NOT-A-UUID');
      assert.deepEqual([answer.status, answer.body.code], [400, 'validation_failed']);
    });
  });
}
