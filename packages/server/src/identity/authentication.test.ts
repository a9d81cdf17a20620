import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { BOOTSTRAP_OWNER_EMAIL } from '../provisioning/bootstrap.ts';
import { addMember } from '../provisioning/provisioning.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { type HttpAnswer, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';

const PROJECTS = '/api/images/projects';
const KEYS = '/api/v1/keys';

function assertUnauthorized(answer: HttpAnswer): void {
  assert.equal(answer.status, 401);
  assert.equal(answer.body.code, 'unauthorized');
  assert.equal(typeof answer.body.error, 'string');
  assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer\b/);
}

function assertForbidden(answer: HttpAnswer): void {
  assert.equal(answer.status, 403);
  assert.equal(answer.body.code, 'forbidden');
}

for (const dialect of testDialects()) {
  describe(`authentication (${dialect})`, () => {
    let t: TestServer;
    /** An unlimited workspace, so role tests never meet the free plan's project limit. */
    let ws: TestWorkspace;

    before(async () => {
      t = await startTestServer(dialect);
      ws = await t.createWorkspace({ plan: 'business' });
    });
    after(() => t.close());

    async function createProject(name = 'Photos', key = ws.key): Promise<any> {
      const answer = await t.request('POST', PROJECTS, { key, body: { name } });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body;
    }

    describe('API keys', () => {
      it('answers 401 with a Bearer challenge to a request without an Authorization header', async () => {
        assertUnauthorized(await t.request('GET', PROJECTS, { key: null }));
      });

      it('answers 401 on the workspace API without an Authorization header', async () => {
        assertUnauthorized(await t.request('GET', KEYS, { key: null }));
      });

      it('answers 401 to Basic credentials', async () => {
        assertUnauthorized(await t.request('GET', PROJECTS, { key: null, headers: { authorization: 'Basic x' } }));
      });

      it('answers 401 to a Bearer scheme without a key', async () => {
        assertUnauthorized(await t.request('GET', PROJECTS, { key: null, headers: { authorization: 'Bearer' } }));
      });

      it('answers 401 to a Bearer scheme followed by two words', async () => {
        const authorization = `Bearer ${t.owner.key} extra`;
        assertUnauthorized(await t.request('GET', PROJECTS, { key: null, headers: { authorization } }));
      });

      it('answers 401 to an unknown key', async () => {
        assertUnauthorized(await t.request('GET', PROJECTS, { key: 'loupe_thisKeyWasNeverIssued0000000000000000' }));
      });

      it('answers 401 to an expired key', async () => {
        const expiresAt = new Date(Date.now() - 1000).toISOString();
        const expired = await t.createMemberKey(ws.workspaceId, 'member', { expiresAt });
        assertUnauthorized(await t.request('GET', PROJECTS, { key: expired }));
      });

      it('accepts a key that has not expired yet', async () => {
        const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
        const valid = await t.createMemberKey(ws.workspaceId, 'member', { expiresAt });
        const answer = await t.request('GET', PROJECTS, { key: valid });
        assert.equal(answer.status, 200);
      });

      it('accepts the auth scheme in any case', async () => {
        const authorization = `bearer ${t.owner.key}`;
        const answer = await t.request('GET', PROJECTS, { key: null, headers: { authorization } });
        assert.equal(answer.status, 200);
      });

      it('checks the key before the input, so a bad id without a key is 401', async () => {
        assertUnauthorized(await t.request('GET', `${PROJECTS}/not-a-uuid`, { key: null }));
      });
    });

    describe('workspace header', () => {
      it('answers 400 team_header_required on the workspace API without x-service-team', async () => {
        const answer = await t.request('GET', KEYS, { team: null });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'team_header_required');
      });

      it('answers 400 team_header_required to a blank x-service-team', async () => {
        const answer = await t.request('GET', KEYS, { team: null, headers: { 'x-service-team': '   ' } });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'team_header_required');
      });

      it('answers 403 not_a_member for a workspace the key user does not belong to', async () => {
        const other = await t.createWorkspace();
        const answer = await t.request('GET', KEYS, { team: other.workspaceId });
        assert.equal(answer.status, 403);
        assert.equal(answer.body.code, 'not_a_member');
      });

      it('answers 403 not_a_member for a workspace id that does not exist', async () => {
        const answer = await t.request('GET', KEYS, { team: randomUUID() });
        assert.equal(answer.status, 403);
        assert.equal(answer.body.code, 'not_a_member');
      });

      it('does not need x-service-team on the image API', async () => {
        const answer = await t.request('GET', PROJECTS, { team: null });
        assert.equal(answer.status, 200);
      });

      it("acts on the image API in the key's own workspace whatever x-service-team names", async () => {
        const mine = await createProject('Mine');
        const other = await t.createWorkspace();
        const answer = await t.request('GET', PROJECTS, { key: ws.key, team: other.workspaceId });
        assert.equal(answer.status, 200);
        assert.ok(answer.body.some((project: any) => project.id === mine.id));
      });

      it('acts in the workspace x-service-team names when the user belongs to several', async () => {
        const second = await t.createWorkspace();
        await addMember(t.server.database, { workspaceId: second.workspaceId, email: BOOTSTRAP_OWNER_EMAIL, role: 'admin' });
        const answer = await t.request('GET', KEYS, { team: second.workspaceId });
        assert.equal(answer.status, 200);
        assert.deepEqual(
          answer.body.map((key: any) => key.userId),
          [second.userId],
        );
      });

      it('applies the role the user holds in the named workspace', async () => {
        const second = await t.createWorkspace();
        await addMember(t.server.database, { workspaceId: second.workspaceId, email: BOOTSTRAP_OWNER_EMAIL, role: 'viewer' });
        assertForbidden(await t.request('GET', KEYS, { team: second.workspaceId }));
      });
    });

    describe('roles', () => {
      let viewer: string;
      let member: string;
      let project: any;
      before(async () => {
        viewer = await t.createMemberKey(ws.workspaceId, 'viewer');
        member = await t.createMemberKey(ws.workspaceId, 'member');
        project = await createProject('Shared');
      });

      it('lets a viewer list projects', async () => {
        const answer = await t.request('GET', PROJECTS, { key: viewer });
        assert.equal(answer.status, 200);
        assert.ok(answer.body.some((listed: any) => listed.id === project.id));
      });

      it('lets a viewer read a project', async () => {
        const answer = await t.request('GET', `${PROJECTS}/${project.id}`, { key: viewer });
        assert.equal(answer.status, 200);
      });

      it('refuses a viewer a new project with 403 forbidden', async () => {
        const answer = await t.request('POST', PROJECTS, { key: viewer, body: { name: 'Nope' } });
        assertForbidden(answer);
        assert.deepEqual(answer.body.missingScopes, ['images:write']);
      });

      it('refuses a viewer a new preset with 403 forbidden', async () => {
        const answer = await t.request('POST', `${PROJECTS}/${project.id}/presets`, {
          key: viewer,
          body: { name: 'thumb', transforms: { width: 100 } },
        });
        assertForbidden(answer);
      });

      it('refuses a viewer a project rename with 403 forbidden and leaves the name', async () => {
        assertForbidden(await t.request('PATCH', `${PROJECTS}/${project.id}`, { key: viewer, body: { name: 'Renamed' } }));
        const own = await t.request('GET', `${PROJECTS}/${project.id}`, { key: ws.key });
        assert.equal(own.body.name, 'Shared');
      });

      it('refuses a viewer a project delete with 403 forbidden and keeps the project', async () => {
        assertForbidden(await t.request('DELETE', `${PROJECTS}/${project.id}`, { key: viewer }));
        const read = await t.request('GET', `${PROJECTS}/${project.id}`, { key: ws.key });
        assert.equal(read.status, 200);
      });

      it('lets a member create a project', async () => {
        const answer = await t.request('POST', PROJECTS, { key: member, body: { name: 'By member' } });
        assert.equal(answer.status, 201);
      });

      it('lets a member create a preset', async () => {
        const answer = await t.request('POST', `${PROJECTS}/${project.id}/presets`, {
          key: member,
          body: { name: 'member-thumb', transforms: { width: 100 } },
        });
        assert.equal(answer.status, 201);
      });

      it('lets a member rename and delete a project', async () => {
        const created = await createProject('Temporary', member);
        const renamed = await t.request('PATCH', `${PROJECTS}/${created.id}`, { key: member, body: { name: 'Renamed' } });
        assert.equal(renamed.status, 200);
        const deleted = await t.request('DELETE', `${PROJECTS}/${created.id}`, { key: member });
        assert.equal(deleted.status, 200);
      });

      it("shows a member's project to the workspace owner", async () => {
        const created = await createProject('Team work', member);
        const answer = await t.request('GET', `${PROJECTS}/${created.id}`, { key: ws.key });
        assert.equal(answer.status, 200);
      });
    });

    describe('isolation', () => {
      it("keeps each workspace's projects out of the other's list", async () => {
        const first = await t.createWorkspace();
        const second = await t.createWorkspace();
        const a = await createProject('First', first.key);
        const b = await createProject('Second', second.key);
        const firstList = await t.request('GET', PROJECTS, { key: first.key });
        const secondList = await t.request('GET', PROJECTS, { key: second.key });
        assert.deepEqual(
          firstList.body.map((project: any) => project.id),
          [a.id],
        );
        assert.deepEqual(
          secondList.body.map((project: any) => project.id),
          [b.id],
        );
      });
    });
  });
}
