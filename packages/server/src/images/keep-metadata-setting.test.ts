import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

const PROJECTS = '/api/images/projects';

for (const dialect of testDialects()) {
  describe(`the keepMetadata project setting (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    const patch = (body: unknown, key?: string, id = projectId) =>
      t.request('PATCH', `${PROJECTS}/${id}`, { body, ...(key ? { key } : {}) });

    before(async () => {
      t = await startTestServer(dialect);
      projectId = (await t.request('POST', PROJECTS, { body: { name: 'Settings' } })).body.id;
    });
    after(() => t.close());

    it('is off on a new project', async () => {
      const answer = await t.request('GET', `${PROJECTS}/${projectId}`);
      assert.equal(answer.body.keepMetadata, false);
    });

    it('turns on and off, and is read back', async () => {
      assert.equal((await patch({ keepMetadata: true })).body.keepMetadata, true);
      assert.equal((await t.request('GET', `${PROJECTS}/${projectId}`)).body.keepMetadata, true);
      assert.equal((await t.request('GET', PROJECTS)).body.find((p: { id: string }) => p.id === projectId).keepMetadata, true);
      assert.equal((await patch({ keepMetadata: false })).body.keepMetadata, false);
      assert.equal((await t.request('GET', `${PROJECTS}/${projectId}`)).body.keepMetadata, false);
    });

    it('is left alone by a change of name', async () => {
      await patch({ keepMetadata: true });
      const renamed = await patch({ name: 'Renamed' });
      assert.equal(renamed.body.keepMetadata, true);
      await patch({ keepMetadata: false });
    });

    for (const [label, value] of [
      ['a string', 'true'],
      ['a number', 1],
      ['null', null],
      ['an object', {}],
    ] as const) {
      it(`refuses ${label} with 400 at the field`, async () => {
        const answer = await patch({ keepMetadata: value });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.keepMetadata, JSON.stringify(answer.body));
      });
    }

    it('refuses an unknown field beside it', async () => {
      const answer = await patch({ keepMetadata: true, keepExif: true });
      assert.equal(answer.status, 400);
      assert.equal((await t.request('GET', `${PROJECTS}/${projectId}`)).body.keepMetadata, false);
    });

    it('cannot be changed by a viewer (403), and stays as it was', async () => {
      const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
      const answer = await patch({ keepMetadata: true }, viewer);
      assert.equal(answer.status, 403);
      assert.equal((await t.request('GET', `${PROJECTS}/${projectId}`)).body.keepMetadata, false);
    });

    it('cannot be changed in another workspace’s project (404)', async () => {
      const other = await t.createWorkspace();
      const answer = await patch({ keepMetadata: true }, other.key);
      assert.equal(answer.status, 404);
      assert.equal((await t.request('GET', `${PROJECTS}/${projectId}`)).body.keepMetadata, false);
    });
  });
}
