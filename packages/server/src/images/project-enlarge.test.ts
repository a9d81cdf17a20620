import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

const PROJECTS = '/api/images/projects';

for (const dialect of testDialects()) {
  describe(`a project's enlarge setting (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    before(async () => {
      t = await startTestServer(dialect);
      projectId = (await t.request('POST', PROJECTS, { body: { name: 'Enlarging' } })).body.id;
    });
    after(() => t.close());

    const patch = (body: unknown, key?: string) => t.request('PATCH', `${PROJECTS}/${projectId}`, { body, ...(key ? { key } : {}) });

    it('allows enlarging in a new project, as projects did before the setting', async () => {
      const created = await t.request('POST', PROJECTS, { body: { name: 'Fresh' } });
      assert.equal(created.body.enlarge, 'allow');
      const listed = await t.request('GET', PROJECTS);
      assert.ok(listed.body.every((project: { enlarge: string }) => project.enlarge === 'allow'));
    });

    it('changes to never and back, and reads as set', async () => {
      const never = await patch({ enlarge: 'never' });
      assert.equal(never.status, 200, JSON.stringify(never.body));
      assert.equal(never.body.enlarge, 'never');
      assert.equal((await t.request('GET', `${PROJECTS}/${projectId}`)).body.enlarge, 'never');
      assert.equal((await patch({ name: 'Renamed' })).body.enlarge, 'never', 'another change keeps it');
      assert.equal((await patch({ enlarge: 'allow' })).body.enlarge, 'allow');
    });

    for (const value of ['sometimes', '', 'Never', true, false, 1, null, ['never']]) {
      it(`refuses enlarge ${JSON.stringify(value)} with 400 on the field`, async () => {
        const answer = await patch({ enlarge: value });
        assert.equal(answer.status, 400, JSON.stringify(answer.body));
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.enlarge?.length > 0, JSON.stringify(answer.body));
      });
    }

    it('refuses enlarge when creating: a new project starts with allow', async () => {
      const answer = await t.request('POST', PROJECTS, { body: { name: 'Eager', enlarge: 'never' } });
      assert.equal(answer.status, 400);
    });

    it('does not let a viewer change it', async () => {
      const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
      assert.equal((await t.request('GET', `${PROJECTS}/${projectId}`, { key: viewer })).body.enlarge, 'allow');
      const answer = await patch({ enlarge: 'never' }, viewer);
      assert.equal(answer.status, 403, JSON.stringify(answer.body));
      assert.equal((await t.request('GET', `${PROJECTS}/${projectId}`)).body.enlarge, 'allow');
    });

    it('does not let another workspace change it, or learn that the project exists', async () => {
      const other = await t.createWorkspace();
      const answer = await patch({ enlarge: 'never' }, other.key);
      assert.equal(answer.status, 404);
      assert.equal((await t.request('GET', `${PROJECTS}/${projectId}`)).body.enlarge, 'allow');
    });
  });
}
