import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Role, Scope } from '@loupe/contract';
import { testDialects } from '../testing/test-dialects.ts';
import { type HttpAnswer, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { addTestMember } from './test-member.ts';

const INVITES = '/api/v1/team/invites';
const MEMBERS = '/api/v1/team/members';
const READ: Scope[] = ['images:read', 'reports:read', 'search:read'];

function assertForbidden(answer: HttpAnswer, missingScopes?: Scope[]): void {
  assert.equal(answer.status, 403, JSON.stringify(answer.body));
  assert.equal(answer.body.code, 'forbidden');
  if (missingScopes) assert.deepEqual([...answer.body.missingScopes].sort(), [...missingScopes].sort());
}

const newEmail = () => `grant-${randomBytes(4).toString('hex')}@example.test`;

/** Issue #22, point 2: no invite or role change gives more than the caller's role and key hold. */
for (const dialect of testDialects()) {
  describe(`granting roles (${dialect})`, () => {
    let t: TestServer;
    let ws: TestWorkspace;

    before(async () => {
      t = await startTestServer(dialect);
      ws = await t.createWorkspace({ plan: 'business' });
    });
    after(() => t.close());

    /** A key of the workspace's owner with only these scopes. */
    async function ownerKeyWith(scopes: Scope[]): Promise<string> {
      const answer = await t.request('POST', '/api/v1/keys', { key: ws.key, team: ws.workspaceId, body: { name: 'narrow', scopes } });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.key;
    }
    const invite = (key: string, role: Role, email = newEmail()) =>
      t.request('POST', INVITES, { key, team: ws.workspaceId, body: { email, role } });
    const changeRole = (key: string, userId: string, role: Role) =>
      t.request('PATCH', `${MEMBERS}/${userId}`, { key, team: ws.workspaceId, body: { role } });
    async function roleOf(userId: string): Promise<Role> {
      const answer = await t.request('GET', `${MEMBERS}?limit=100`, { key: ws.key, team: ws.workspaceId });
      return answer.body.find((member: any) => member.userId === userId).role;
    }

    describe('in an invite', () => {
      it("stops the escalation of the report: an owner's team:admin-only key cannot invite an owner, so no one accepts, signs in or mints a full key", async () => {
        const teamAdminOnly = await ownerKeyWith(['team:admin']);
        const email = newEmail();
        assertForbidden(await invite(teamAdminOnly, 'owner', email), [
          ...READ,
          'images:write',
          'crawls:write',
          'reports:write',
          'projects:write',
          'rules:write',
        ]);
        const pending = await t.request('GET', `${INVITES}?limit=100`, { key: ws.key, team: ws.workspaceId });
        assert.equal(
          pending.body.some((i: any) => i.email === email),
          false,
          'no invite to accept',
        );
      });

      it('refuses a team:admin-only key an invite even as a viewer, whose reading it cannot do', async () => {
        assertForbidden(await invite(await ownerKeyWith(['team:admin']), 'viewer'), READ);
      });

      it('lets a key with team:admin and the read scopes invite a viewer, and not a member', async () => {
        const key = await ownerKeyWith(['team:admin', ...READ]);
        assert.equal((await invite(key, 'viewer')).status, 201);
        assertForbidden(await invite(key, 'member'), ['images:write', 'crawls:write', 'reports:write', 'projects:write', 'rules:write']);
      });

      it("refuses an admin with every scope an owner invite, whose role ranks above an admin's", async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        assertForbidden(await invite(admin.key, 'owner'));
      });

      it('lets an owner key with every scope invite an owner', async () => {
        assert.equal((await invite(ws.key, 'owner')).status, 201);
      });
    });

    describe('in a role change', () => {
      it("refuses an owner's team:admin-only key making a member an admin, and the role stays", async () => {
        const member = await addTestMember(t, ws.workspaceId, 'member');
        assertForbidden(await changeRole(await ownerKeyWith(['team:admin']), member.userId, 'admin'), [
          ...READ,
          'images:write',
          'crawls:write',
          'reports:write',
          'projects:write',
          'rules:write',
        ]);
        assert.equal(await roleOf(member.userId), 'member');
      });

      it('refuses an admin making themself owner, and they stay admin', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        assertForbidden(await changeRole(admin.key, admin.userId, 'owner'));
        assert.equal(await roleOf(admin.userId), 'admin');
      });

      it('refuses an admin making a viewer owner', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        const viewer = await addTestMember(t, ws.workspaceId, 'viewer');
        assertForbidden(await changeRole(admin.key, viewer.userId, 'owner'));
        assert.equal(await roleOf(viewer.userId), 'viewer');
      });

      it('lets a key with team:admin and the read scopes make a member a viewer', async () => {
        const member = await addTestMember(t, ws.workspaceId, 'member');
        const answer = await changeRole(await ownerKeyWith(['team:admin', ...READ]), member.userId, 'viewer');
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(await roleOf(member.userId), 'viewer');
      });

      it('lets an admin make a viewer an admin', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        const viewer = await addTestMember(t, ws.workspaceId, 'viewer');
        assert.equal((await changeRole(admin.key, viewer.userId, 'admin')).status, 200);
        assert.equal(await roleOf(viewer.userId), 'admin');
      });
    });
  });
}
