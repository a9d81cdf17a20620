import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { addMember, issueKey } from '../provisioning/provisioning.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { type HttpAnswer, nextPage, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { addTestMember } from './test-member.ts';

const MEMBERS = '/api/v1/team/members';

function assertStatus(answer: HttpAnswer, status: number, code?: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  if (code) assert.equal(answer.body.code, code);
}

for (const dialect of testDialects()) {
  describe(`team members (${dialect})`, () => {
    let t: TestServer;
    let ws: TestWorkspace;

    before(async () => {
      t = await startTestServer(dialect);
    });
    after(() => t.close());

    const as = (key = ws.key, workspace = ws) => ({ key, team: workspace.workspaceId });
    const setRole = (userId: string, role: unknown, key = ws.key) =>
      t.request('PATCH', `${MEMBERS}/${userId}`, { ...as(key), body: { role } });
    const remove = (userId: string, key = ws.key) => t.request('DELETE', `${MEMBERS}/${userId}`, as(key));
    async function roleOf(userId: string): Promise<string | undefined> {
      const answer = await t.request('GET', `${MEMBERS}?limit=100`, as());
      return answer.body.find((m: any) => m.userId === userId)?.role;
    }

    describe('listing', () => {
      before(async () => {
        ws = await t.createWorkspace();
      });

      it('lists every member with email, name, role and when they joined', async () => {
        const viewer = await addTestMember(t, ws.workspaceId, 'viewer');
        const answer = await t.request('GET', MEMBERS, as());
        assertStatus(answer, 200);
        const owner = answer.body.find((m: any) => m.userId === ws.userId);
        assert.equal(owner.role, 'owner');
        assert.match(owner.email, /^owner-.*@example\.test$/);
        const listed = answer.body.find((m: any) => m.userId === viewer.userId);
        assert.deepEqual(Object.keys(listed).sort(), ['email', 'joinedAt', 'name', 'role', 'userId']);
        assert.equal(listed.email, viewer.email);
        assert.equal(listed.name, viewer.email.split('@')[0]);
        assert.equal(listed.role, 'viewer');
        assert.ok(!Number.isNaN(Date.parse(listed.joinedAt)));
      });

      for (const role of ['viewer', 'member', 'admin'] as const) {
        it(`answers a ${role}`, async () => {
          const someone = await addTestMember(t, ws.workspaceId, role);
          const answer = await t.request('GET', MEMBERS, as(someone.key));
          assertStatus(answer, 200);
          assert.ok(answer.body.some((m: any) => m.userId === someone.userId));
        });
      }

      it("leaves out another workspace's members", async () => {
        const other = await t.createWorkspace();
        const answer = await t.request('GET', `${MEMBERS}?limit=100`, as());
        assert.equal(
          answer.body.some((m: any) => m.userId === other.userId),
          false,
        );
      });

      it('pages with limit=1, each member once', async () => {
        const small = await t.createWorkspace();
        const added = [await addTestMember(t, small.workspaceId, 'member'), await addTestMember(t, small.workspaceId, 'viewer')];
        const seen: string[] = [];
        let path: string | undefined = `${MEMBERS}?limit=1`;
        while (path !== undefined) {
          const answer: HttpAnswer = await t.request('GET', path, as(small.key, small));
          assertStatus(answer, 200);
          assert.equal(answer.body.length, 1);
          seen.push(answer.body[0].userId);
          path = nextPage(answer);
        }
        assert.deepEqual(seen, [small.userId, ...added.map((m) => m.userId)].sort());
      });

      it('answers all of them at limit=100 with no next page', async () => {
        const answer = await t.request('GET', `${MEMBERS}?limit=100`, as());
        assertStatus(answer, 200);
        assert.equal(answer.headers.get('link'), null);
      });

      for (const limit of ['0', '101']) {
        it(`refuses limit=${limit}`, async () => {
          const answer = await t.request('GET', `${MEMBERS}?limit=${limit}`, as());
          assertStatus(answer, 400, 'validation_failed');
          assert.ok(answer.body.details.fieldErrors.limit);
        });
      }

      it('refuses an unknown query parameter', async () => {
        const answer = await t.request('GET', `${MEMBERS}?role=owner`, as());
        assertStatus(answer, 400, 'validation_failed');
      });
    });

    describe('changing a role', () => {
      before(async () => {
        ws = await t.createWorkspace({ plan: 'business' });
      });

      it('lets an admin promote a viewer to member, answering the member', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        const viewer = await addTestMember(t, ws.workspaceId, 'viewer');
        const answer = await setRole(viewer.userId, 'member', admin.key);
        assertStatus(answer, 200);
        assert.equal(answer.body.userId, viewer.userId);
        assert.equal(answer.body.role, 'member');
        assert.equal(answer.body.email, viewer.email);
        assert.equal(await roleOf(viewer.userId), 'member');
      });

      it('takes team:admin away from a demoted admin', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        assertStatus(await t.request('GET', '/api/v1/team/invites', as(admin.key)), 200);
        assertStatus(await setRole(admin.userId, 'member'), 200);
        assertStatus(await t.request('GET', '/api/v1/team/invites', as(admin.key)), 403, 'forbidden');
      });

      it('lets an admin demote themself', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        assertStatus(await setRole(admin.userId, 'viewer', admin.key), 200);
        assert.equal(await roleOf(admin.userId), 'viewer');
      });

      it('answers 200 when the role does not change', async () => {
        const member = await addTestMember(t, ws.workspaceId, 'member');
        const answer = await setRole(member.userId, 'member');
        assertStatus(answer, 200);
        assert.equal(answer.body.role, 'member');
      });

      it('refuses an admin making someone owner with 403 forbidden', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        const member = await addTestMember(t, ws.workspaceId, 'member');
        assertStatus(await setRole(member.userId, 'owner', admin.key), 403, 'forbidden');
        assert.equal(await roleOf(member.userId), 'member');
      });

      it('refuses an admin making themself owner', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        assertStatus(await setRole(admin.userId, 'owner', admin.key), 403, 'forbidden');
        assert.equal(await roleOf(admin.userId), 'admin');
      });

      it("refuses an admin changing an owner's role", async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        assertStatus(await setRole(ws.userId, 'admin', admin.key), 403, 'forbidden');
        assert.equal(await roleOf(ws.userId), 'owner');
      });

      for (const role of ['member', 'viewer'] as const) {
        it(`refuses a ${role} with 403 forbidden`, async () => {
          const caller = await addTestMember(t, ws.workspaceId, role);
          const target = await addTestMember(t, ws.workspaceId, 'viewer');
          assertStatus(await setRole(target.userId, 'member', caller.key), 403, 'forbidden');
          assert.equal(await roleOf(target.userId), 'viewer');
        });
      }

      it('lets an owner make another member owner, and then demote them', async () => {
        const member = await addTestMember(t, ws.workspaceId, 'member');
        assertStatus(await setRole(member.userId, 'owner'), 200);
        assert.equal(await roleOf(member.userId), 'owner');
        assertStatus(await setRole(member.userId, 'admin'), 200);
        assert.equal(await roleOf(member.userId), 'admin');
      });

      it('refuses to demote the last owner with 409 last_owner', async () => {
        const solo = await t.createWorkspace();
        for (const role of ['admin', 'member', 'viewer']) {
          const answer = await t.request('PATCH', `${MEMBERS}/${solo.userId}`, { key: solo.key, team: solo.workspaceId, body: { role } });
          assertStatus(answer, 409, 'last_owner');
        }
        const list = await t.request('GET', MEMBERS, { key: solo.key, team: solo.workspaceId });
        assert.equal(list.body[0].role, 'owner');
      });

      it('lets an owner step down once there is another owner', async () => {
        const solo = await t.createWorkspace();
        const second = await addTestMember(t, solo.workspaceId, 'owner');
        const answer = await t.request('PATCH', `${MEMBERS}/${solo.userId}`, {
          key: solo.key,
          team: solo.workspaceId,
          body: { role: 'admin' },
        });
        assertStatus(answer, 200);
        // Now the second owner is the last one.
        const back = await t.request('PATCH', `${MEMBERS}/${second.userId}`, {
          key: second.key,
          team: solo.workspaceId,
          body: { role: 'member' },
        });
        assertStatus(back, 409, 'last_owner');
      });

      it('lets only one of two owners demoting each other at the same moment succeed', async () => {
        const duo = await t.createWorkspace();
        const second = await addTestMember(t, duo.workspaceId, 'owner');
        const answers = await Promise.all([
          t.request('PATCH', `${MEMBERS}/${second.userId}`, { key: duo.key, team: duo.workspaceId, body: { role: 'admin' } }),
          t.request('PATCH', `${MEMBERS}/${duo.userId}`, { key: second.key, team: duo.workspaceId, body: { role: 'admin' } }),
        ]);
        // The loser is no longer an owner by the time it holds the lock, so it may not touch one.
        assert.deepEqual(answers.map((a) => a.status).sort(), [200, 403]);
        const list = await t.request('GET', MEMBERS, { key: duo.key, team: duo.workspaceId });
        assert.equal(list.body.filter((m: any) => m.role === 'owner').length, 1);
      });

      it('answers 404 for an unknown user id', async () => {
        assertStatus(await setRole(randomUUID(), 'member'), 404, 'not_found');
      });

      it('answers 404 for a member of another workspace and leaves their role', async () => {
        const other = await t.createWorkspace();
        const theirs = await addTestMember(t, other.workspaceId, 'viewer');
        assertStatus(await setRole(theirs.userId, 'admin'), 404, 'not_found');
        const list = await t.request('GET', `${MEMBERS}?limit=100`, { key: other.key, team: other.workspaceId });
        assert.equal(list.body.find((m: any) => m.userId === theirs.userId).role, 'viewer');
      });

      it('answers 400 for a user id that is not a UUID', async () => {
        const answer = await setRole('not-a-uuid', 'member');
        assertStatus(answer, 400, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.userId);
      });

      for (const [label, body] of [
        ['an unknown role', { role: 'superuser' }],
        ['a role in capitals', { role: 'ADMIN' }],
        ['a number as role', { role: 1 }],
        ['no role', {}],
        ['an unknown field', { role: 'member', scopes: [] }],
      ] as const) {
        it(`refuses ${label} with 400`, async () => {
          const member = await addTestMember(t, ws.workspaceId, 'member');
          const answer = await t.request('PATCH', `${MEMBERS}/${member.userId}`, { ...as(), body });
          assertStatus(answer, 400, 'validation_failed');
          assert.equal(await roleOf(member.userId), 'member');
        });
      }
    });

    describe('removing a member', () => {
      before(async () => {
        ws = await t.createWorkspace({ plan: 'business' });
      });

      it('lets an admin remove a member: gone from the list, their key of this workspace revoked', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        const member = await addTestMember(t, ws.workspaceId, 'member');
        // Used first, so the server has read the key: the removal must still hold at once.
        assertStatus(await t.request('GET', '/api/images/projects', { key: member.key }), 200);
        const answer = await remove(member.userId, admin.key);
        assertStatus(answer, 200);
        assert.deepEqual(answer.body, { deleted: true });
        assert.equal(await roleOf(member.userId), undefined);
        assertStatus(await t.request('GET', '/api/images/projects', { key: member.key }), 401, 'unauthorized');
      });

      it("keeps the removed user's keys and membership of other workspaces", async () => {
        const member = await addTestMember(t, ws.workspaceId, 'member');
        const other = await t.createWorkspace();
        await addMember(t.server.database, { workspaceId: other.workspaceId, email: member.email, role: 'member' });
        const { secret } = await issueKey(t.server.database, {
          workspaceId: other.workspaceId,
          userId: member.userId,
          role: 'member',
          name: 'k',
        });
        assertStatus(await remove(member.userId), 200);
        assertStatus(await t.request('GET', MEMBERS, { key: secret, team: other.workspaceId }), 200);
        // The same key can no longer name the workspace it left.
        assertStatus(await t.request('GET', MEMBERS, { key: secret, team: ws.workspaceId }), 403, 'not_a_member');
      });

      it('lets an admin remove another admin', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        const other = await addTestMember(t, ws.workspaceId, 'admin');
        assertStatus(await remove(other.userId, admin.key), 200);
      });

      for (const role of ['viewer', 'member', 'admin'] as const) {
        it(`lets a ${role} leave`, async () => {
          const someone = await addTestMember(t, ws.workspaceId, role);
          assertStatus(await remove(someone.userId, someone.key), 200);
          assert.equal(await roleOf(someone.userId), undefined);
        });
      }

      for (const role of ['viewer', 'member'] as const) {
        it(`refuses a ${role} removing someone else with 403 forbidden`, async () => {
          const caller = await addTestMember(t, ws.workspaceId, role);
          const target = await addTestMember(t, ws.workspaceId, 'viewer');
          assertStatus(await remove(target.userId, caller.key), 403, 'forbidden');
          assert.equal(await roleOf(target.userId), 'viewer');
        });
      }

      it('refuses an admin removing an owner', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        const owner = await addTestMember(t, ws.workspaceId, 'owner');
        assertStatus(await remove(owner.userId, admin.key), 403, 'forbidden');
        assert.equal(await roleOf(owner.userId), 'owner');
      });

      it('lets an owner remove another owner', async () => {
        const owner = await addTestMember(t, ws.workspaceId, 'owner');
        assertStatus(await remove(owner.userId), 200);
      });

      it('lets an owner leave when another owner stays', async () => {
        const duo = await t.createWorkspace();
        const second = await addTestMember(t, duo.workspaceId, 'owner');
        assertStatus(await t.request('DELETE', `${MEMBERS}/${second.userId}`, { key: second.key, team: duo.workspaceId }), 200);
      });

      it('refuses the last owner leaving with 409 last_owner', async () => {
        const solo = await t.createWorkspace();
        await addTestMember(t, solo.workspaceId, 'admin');
        const answer = await t.request('DELETE', `${MEMBERS}/${solo.userId}`, { key: solo.key, team: solo.workspaceId });
        assertStatus(answer, 409, 'last_owner');
        assertStatus(await t.request('GET', MEMBERS, { key: solo.key, team: solo.workspaceId }), 200);
      });

      it('answers 404 for an unknown user id', async () => {
        assertStatus(await remove(randomUUID()), 404, 'not_found');
      });

      it('answers 404 for a member of another workspace and leaves them there', async () => {
        const other = await t.createWorkspace();
        const theirs = await addTestMember(t, other.workspaceId, 'member');
        assertStatus(await remove(theirs.userId), 404, 'not_found');
        assertStatus(await t.request('GET', MEMBERS, { key: theirs.key, team: other.workspaceId }), 200);
      });

      it('answers 404 the second time', async () => {
        const member = await addTestMember(t, ws.workspaceId, 'member');
        assertStatus(await remove(member.userId), 200);
        assertStatus(await remove(member.userId), 404, 'not_found');
      });

      it('answers 400 for a user id that is not a UUID', async () => {
        const answer = await remove('42');
        assertStatus(answer, 400, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.userId);
      });
    });
  });
}
