import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

for (const dialect of testDialects()) {
  describe(`image projects (${dialect})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(dialect);
    });
    after(() => t.close());

    it('creates a project with a slug from its name and the workspace plan', async () => {
      const created = await t.request('POST', '/api/images/projects', { body: { name: 'Summer Photos' } });
      assert.equal(created.status, 201);
      assert.match(created.body.slug, /^summer-photos-[a-z0-9]{6}$/);
      assert.equal(created.body.plan, 'free');
      assert.equal(created.body.customDomain, null);
      assert.equal(created.body.requireSignedUrls, false);
    });
  });
}
