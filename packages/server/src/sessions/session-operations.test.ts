import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { addPasswordMember, setUpOwner, signIn, type TestSession } from './test-session.ts';

const PROJECTS = '/api/images/projects';

/** Registry operations called with a session cookie instead of an API key (DESIGN.md §5). */
for (const dialect of testDialects()) {
  describe(`sessions on the APIs (${dialect})`, () => {
    let t: TestServer;
    let owner: TestSession;
    let other: TestWorkspace;
    before(async () => {
      t = await startTestServer(dialect);
      owner = await setUpOwner(t);
      other = await t.createWorkspace();
    });
    after(() => t.close());

    const ws = () => t.owner.workspaceId;

    it('reads the workspace API in the workspace named by x-service-team', async () => {
      const answer = await owner.request('GET', '/api/v1/team', { team: ws() });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.id, ws());
    });

    it('reads the image API in the workspace named by x-service-team too', async () => {
      const answer = await owner.request('GET', PROJECTS, { team: ws() });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, []);
    });

    it('answers 400 team_header_required on either API without x-service-team', async () => {
      for (const path of [PROJECTS, '/api/v1/team']) {
        const answer = await owner.request('GET', path);
        assert.equal(answer.status, 400, path);
        assert.equal(answer.body.code, 'team_header_required');
      }
    });

    it('lists your workspaces without the header', async () => {
      const answer = await owner.request('GET', '/api/v1/teams');
      assert.equal(answer.status, 200);
      assert.deepEqual(
        answer.body.map((team: { id: string }) => team.id),
        [ws()],
      );
    });

    it('writes with the CSRF token', async () => {
      const answer = await owner.request('POST', PROJECTS, { team: ws(), body: { name: 'Session photos' } });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
    });

    it('refuses a write without the CSRF token with 403 csrf_failed and changes nothing', async () => {
      const answer = await owner.request('POST', PROJECTS, { team: ws(), body: { name: 'Forged' }, csrf: false });
      assert.equal(answer.status, 403);
      assert.equal(answer.body.code, 'csrf_failed');
      assert.equal(typeof answer.body.error, 'string');
      const names = (await owner.request('GET', PROJECTS, { team: ws() })).body.map((project: { name: string }) => project.name);
      assert.ok(!names.includes('Forged'));
    });

    it('refuses a write with a wrong CSRF token, on PATCH and DELETE too', async () => {
      const created = await owner.request('POST', PROJECTS, { team: ws(), body: { name: 'Target' } });
      for (const method of ['PATCH', 'DELETE']) {
        const answer = await owner.request(method, `${PROJECTS}/${created.body.id}`, {
          team: ws(),
          body: method === 'PATCH' ? { name: 'Renamed' } : undefined,
          csrf: owner.csrfToken.slice(0, -1) + (owner.csrfToken.endsWith('A') ? 'B' : 'A'),
        });
        assert.equal(answer.status, 403, method);
        assert.equal(answer.body.code, 'csrf_failed');
      }
    });

    it('answers 403 not_a_member in a workspace the user is not in, on both APIs', async () => {
      for (const path of [PROJECTS, '/api/v1/team']) {
        const answer = await owner.request('GET', path, { team: other.workspaceId });
        assert.equal(answer.status, 403, path);
        assert.equal(answer.body.code, 'not_a_member');
      }
    });

    it('answers 401 to a cookie that names no session', async () => {
      const answer = await t.request('GET', PROJECTS, { key: null, team: ws(), headers: { cookie: `loupe_session=${'x'.repeat(43)}` } });
      assert.equal(answer.status, 401);
      assert.equal(answer.body.code, 'unauthorized');
    });

    it('lets an API key act as itself when a session cookie comes along, with no CSRF token', async () => {
      const answer = await t.request('POST', PROJECTS, { key: other.key, body: { name: 'Keyed' }, headers: { cookie: owner.cookie } });
      assert.equal(answer.status, 201);
      const inOther = await t.request('GET', PROJECTS, { key: other.key });
      assert.ok(inOther.body.some((project: { id: string }) => project.id === answer.body.id));
    });

    it('creates an API key for the signed-in user with every scope of their role', async () => {
      const answer = await owner.request('POST', '/api/v1/keys', { team: ws(), body: { name: 'From the dashboard' } });
      assert.equal(answer.status, 201);
      assert.equal(answer.body.userId, t.owner.userId);
      assert.ok(answer.body.scopes.includes('team:admin'));
    });

    describe('a viewer signed in', () => {
      let viewer: TestSession;
      before(async () => {
        viewer = await signIn(t, await addPasswordMember(t, ws(), t.owner.key, 'viewer'));
      });

      it('reads', async () => {
        assert.equal((await viewer.request('GET', PROJECTS, { team: ws() })).status, 200);
        assert.equal((await viewer.request('GET', '/api/v1/team/members', { team: ws() })).status, 200);
      });

      it('gets 403 forbidden, naming the missing scope, for a write even with the CSRF token', async () => {
        const answer = await viewer.request('POST', PROJECTS, { team: ws(), body: { name: 'Nope' } });
        assert.equal(answer.status, 403);
        assert.equal(answer.body.code, 'forbidden');
        assert.deepEqual(answer.body.missingScopes, ['images:write']);
      });

      it('gets 403 for team administration', async () => {
        const answer = await viewer.request('GET', '/api/v1/keys', { team: ws() });
        assert.equal(answer.status, 403);
        assert.deepEqual(answer.body.missingScopes, ['team:admin']);
      });

      it('sees the role in the session answer', async () => {
        const answer = await viewer.request('GET', '/api/session');
        assert.deepEqual(
          answer.body.workspaces.map((w: { role: string }) => w.role),
          ['viewer'],
        );
      });
    });
  });
}
