import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { verifyPassword } from '../identity/password.ts';
import { addMember, issueKey } from '../provisioning/provisioning.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { type HttpAnswer, nextPage, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { addTestMember } from './test-member.ts';

const INVITES = '/api/v1/team/invites';
const MEMBERS = '/api/v1/team/members';
const PUBLIC_URL = 'https://loupe.example';
const DAY_MS = 86_400_000;
const acceptPath = (token: string) => `/api/v1/invites/${token}/accept`;

function assertStatus(answer: HttpAnswer, status: number, code?: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  if (code) assert.equal(answer.body.code, code);
}

function assertInvalid(answer: HttpAnswer, field: string): void {
  assertStatus(answer, 400, 'validation_failed');
  assert.ok(answer.body.details.fieldErrors[field], JSON.stringify(answer.body.details));
}

let emails = 0;
const newEmail = () => `invitee-${++emails}-${randomUUID().slice(0, 8)}@example.test`;

for (const dialect of testDialects()) {
  describe(`team invites (${dialect})`, () => {
    let t: TestServer;
    let ws: TestWorkspace;

    before(async () => {
      t = await startTestServer(dialect, { publicUrl: PUBLIC_URL });
      ws = await t.createWorkspace({ plan: 'business' });
    });
    after(() => t.close());

    const as = (key = ws.key, workspace = ws) => ({ key, team: workspace.workspaceId });
    const invite = (body: unknown, key = ws.key, workspace = ws) => t.request('POST', INVITES, { ...as(key, workspace), body });
    async function invited(email = newEmail(), role = 'member', workspace = ws): Promise<any> {
      const answer = await invite({ email, role }, workspace.key, workspace);
      assertStatus(answer, 201);
      return answer.body;
    }
    const accept = (token: string, body: unknown = { password: 'a good password' }) =>
      t.request('POST', acceptPath(token), { key: null, team: null, body });
    const acceptWithKey = (token: string, key: string, body: unknown = {}) =>
      t.request('POST', acceptPath(token), { key, team: null, body });
    async function pendingIds(workspace = ws): Promise<string[]> {
      const answer = await t.request('GET', `${INVITES}?limit=100`, as(workspace.key, workspace));
      assertStatus(answer, 200);
      return answer.body.map((i: any) => i.id);
    }
    async function memberRole(email: string, workspace = ws): Promise<string | undefined> {
      const answer = await t.request('GET', `${MEMBERS}?limit=100`, as(workspace.key, workspace));
      return answer.body.find((m: any) => m.email === email)?.role;
    }
    async function expire(inviteId: string): Promise<void> {
      const past = new Date(Date.now() - 1000).toISOString();
      await t.server.database.db.updateTable('invites').set({ expires_at: past }).where('id', '=', inviteId).execute();
    }

    describe('creating', () => {
      it('answers 201 with the invite, its token and link, expiring in 7 days by default', async () => {
        const answer = await invite({ email: 'New.Person@Example.TEST', role: 'admin' });
        assertStatus(answer, 201);
        const body = answer.body;
        assert.deepEqual(Object.keys(body).sort(), ['createdAt', 'email', 'expiresAt', 'id', 'invitedBy', 'role', 'token', 'url']);
        assert.equal(body.email, 'new.person@example.test');
        assert.equal(body.role, 'admin');
        assert.equal(body.invitedBy, ws.userId);
        assert.match(body.token, /^[A-Za-z0-9_-]{22}$/);
        assert.equal(body.url, `${PUBLIC_URL}/invites/${body.token}`);
        assert.equal(Date.parse(body.expiresAt) - Date.parse(body.createdAt), 7 * DAY_MS);
      });

      it('stores only the SHA-256 of the token', async () => {
        const body = await invited();
        const row = await t.server.database.db.selectFrom('invites').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
        assert.equal(row.token_hash, createHash('sha256').update(body.token).digest('hex'));
        assert.equal(JSON.stringify(row).includes(body.token), false);
      });

      it('gives each invite its own token', async () => {
        const [a, b] = [await invited(), await invited()];
        assert.notEqual(a.token, b.token);
      });

      for (const days of [1, 30]) {
        it(`takes expiresInDays=${days}`, async () => {
          const answer = await invite({ email: newEmail(), role: 'viewer', expiresInDays: days });
          assertStatus(answer, 201);
          assert.equal(Date.parse(answer.body.expiresAt) - Date.parse(answer.body.createdAt), days * DAY_MS);
        });
      }

      for (const days of [0, 31, 1.5, '7', null]) {
        it(`refuses expiresInDays=${JSON.stringify(days)}`, async () => {
          assertInvalid(await invite({ email: newEmail(), role: 'viewer', expiresInDays: days }), 'expiresInDays');
        });
      }

      for (const [label, body, field] of [
        ['no email', { role: 'member' }, 'email'],
        ['an email without @', { email: 'nobody', role: 'member' }, 'email'],
        ['an email of 255 characters', { email: `${'a'.repeat(243)}@example.test`, role: 'member' }, 'email'],
        ['a number as email', { email: 7, role: 'member' }, 'email'],
        ['no role', { email: 'x@example.test' }, 'role'],
        ['an unknown role', { email: 'x@example.test', role: 'guest' }, 'role'],
        ['an unknown field', { email: 'x@example.test', role: 'member', message: 'hi' }, 'message'],
      ] as const) {
        it(`refuses ${label}`, async () => {
          assertInvalid(await invite(body), field);
        });
      }

      it('answers 409 already_member for the email of a member, in any case', async () => {
        const member = await addTestMember(t, ws.workspaceId, 'viewer');
        const answer = await invite({ email: member.email.toUpperCase(), role: 'admin' });
        assertStatus(answer, 409, 'already_member');
      });

      it('invites someone who is a member of another workspace only', async () => {
        const other = await t.createWorkspace();
        const theirs = await addTestMember(t, other.workspaceId, 'member');
        assertStatus(await invite({ email: theirs.email, role: 'member' }), 201);
      });

      it('replaces a pending invite for the same email: the old link stops working', async () => {
        const email = newEmail();
        const first = await invited(email, 'viewer');
        const second = await invited(email, 'admin');
        const pending = await pendingIds();
        assert.equal(pending.includes(first.id), false);
        assert.equal(pending.includes(second.id), true);
        assertStatus(await accept(first.token), 404, 'not_found');
        const accepted = await accept(second.token);
        assertStatus(accepted, 200);
        assert.equal(accepted.body.role, 'admin');
      });

      it('lets an admin invite an admin, a member and a viewer', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        for (const role of ['admin', 'member', 'viewer']) {
          assertStatus(await invite({ email: newEmail(), role }, admin.key), 201);
        }
      });

      it('refuses an admin inviting an owner with 403 forbidden', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        const email = newEmail();
        assertStatus(await invite({ email, role: 'owner' }, admin.key), 403, 'forbidden');
        const answer = await t.request('GET', `${INVITES}?limit=100`, as());
        assert.equal(
          answer.body.some((i: any) => i.email === email),
          false,
        );
      });

      it('lets an owner invite an owner', async () => {
        assertStatus(await invite({ email: newEmail(), role: 'owner' }), 201);
      });

      for (const role of ['member', 'viewer'] as const) {
        it(`refuses a ${role} with 403 forbidden`, async () => {
          const someone = await addTestMember(t, ws.workspaceId, role);
          assertStatus(await invite({ email: newEmail(), role: 'viewer' }, someone.key), 403, 'forbidden');
        });
      }
    });

    describe('listing', () => {
      it('lists pending invites without their tokens', async () => {
        const created = await invited();
        const answer = await t.request('GET', `${INVITES}?limit=100`, as());
        assertStatus(answer, 200);
        const listed = answer.body.find((i: any) => i.id === created.id);
        const { token: _token, url: _url, ...rest } = created;
        assert.deepEqual(listed, rest);
      });

      it('leaves out revoked, accepted and expired invites', async () => {
        const [revoked, accepted, expired, pending] = [await invited(), await invited(), await invited(), await invited()];
        assertStatus(await t.request('DELETE', `${INVITES}/${revoked.id}`, as()), 200);
        assertStatus(await accept(accepted.token), 200);
        await expire(expired.id);
        const ids = await pendingIds();
        assert.equal(ids.includes(pending.id), true);
        for (const gone of [revoked, accepted, expired]) assert.equal(ids.includes(gone.id), false);
      });

      it("leaves out another workspace's invites", async () => {
        const other = await t.createWorkspace();
        const theirs = await invited(newEmail(), 'member', other);
        assert.equal((await pendingIds()).includes(theirs.id), false);
      });

      it('pages with limit=1, each invite once', async () => {
        const small = await t.createWorkspace();
        const created = [await invited(newEmail(), 'viewer', small), await invited(newEmail(), 'viewer', small)];
        const seen: string[] = [];
        let path: string | undefined = `${INVITES}?limit=1`;
        while (path !== undefined) {
          const answer: HttpAnswer = await t.request('GET', path, as(small.key, small));
          assertStatus(answer, 200);
          assert.equal(answer.body.length, 1);
          seen.push(answer.body[0].id);
          path = nextPage(answer);
        }
        assert.deepEqual(
          seen,
          created.map((i) => i.id),
        );
      });

      it('answers an empty list for a workspace without invites', async () => {
        const other = await t.createWorkspace();
        assert.deepEqual(await pendingIds(other), []);
      });

      for (const role of ['member', 'viewer'] as const) {
        it(`refuses a ${role} with 403 forbidden`, async () => {
          const someone = await addTestMember(t, ws.workspaceId, role);
          assertStatus(await t.request('GET', INVITES, as(someone.key)), 403, 'forbidden');
        });
      }
    });

    describe('revoking', () => {
      it('answers { deleted: true }; the link then answers 404 and the list leaves it out', async () => {
        const created = await invited();
        const answer = await t.request('DELETE', `${INVITES}/${created.id}`, as());
        assertStatus(answer, 200);
        assert.deepEqual(answer.body, { deleted: true });
        assertStatus(await accept(created.token), 404, 'not_found');
        assert.equal((await pendingIds()).includes(created.id), false);
      });

      it('answers 404 the second time', async () => {
        const created = await invited();
        assertStatus(await t.request('DELETE', `${INVITES}/${created.id}`, as()), 200);
        assertStatus(await t.request('DELETE', `${INVITES}/${created.id}`, as()), 404, 'not_found');
      });

      it('answers 404 for an accepted invite', async () => {
        const created = await invited();
        assertStatus(await accept(created.token), 200);
        assertStatus(await t.request('DELETE', `${INVITES}/${created.id}`, as()), 404, 'not_found');
      });

      it("answers 404 for another workspace's invite, which keeps working", async () => {
        const other = await t.createWorkspace();
        const theirs = await invited(newEmail(), 'member', other);
        assertStatus(await t.request('DELETE', `${INVITES}/${theirs.id}`, as()), 404, 'not_found');
        assertStatus(await accept(theirs.token), 200);
      });

      it('answers 404 for an unknown id and 400 for one that is not a UUID', async () => {
        assertStatus(await t.request('DELETE', `${INVITES}/${randomUUID()}`, as()), 404, 'not_found');
        assertInvalid(await t.request('DELETE', `${INVITES}/nope`, as()), 'inviteId');
      });

      it('lets an admin revoke', async () => {
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        const created = await invited();
        assertStatus(await t.request('DELETE', `${INVITES}/${created.id}`, as(admin.key)), 200);
      });

      for (const role of ['member', 'viewer'] as const) {
        it(`refuses a ${role} with 403 forbidden, and the invite stays`, async () => {
          const someone = await addTestMember(t, ws.workspaceId, role);
          const created = await invited();
          assertStatus(await t.request('DELETE', `${INVITES}/${created.id}`, as(someone.key)), 403, 'forbidden');
          assert.equal((await pendingIds()).includes(created.id), true);
        });
      }
    });

    describe('accepting', () => {
      it('creates the user with the name and password, and adds the membership with the role', async () => {
        const email = newEmail();
        const created = await invited(email, 'viewer');
        const answer = await accept(created.token, { name: 'Ada Lovelace', password: 'analytical engine' });
        assertStatus(answer, 200);
        assert.deepEqual(answer.body, {
          workspace: { id: ws.workspaceId, name: 'Other' },
          userId: answer.body.userId,
          email,
          role: 'viewer',
        });
        const members = await t.request('GET', `${MEMBERS}?limit=100`, as());
        const member = members.body.find((m: any) => m.userId === answer.body.userId);
        assert.equal(member.name, 'Ada Lovelace');
        assert.equal(member.role, 'viewer');
        const user = await t.server.database.db
          .selectFrom('users')
          .select('password_hash')
          .where('id', '=', answer.body.userId)
          .executeTakeFirstOrThrow();
        assert.equal(await verifyPassword('analytical engine', user.password_hash as string), true);
        assert.equal(await verifyPassword('analytical engines', user.password_hash as string), false);
      });

      it('names a new user after the part of the email before @ when no name is given', async () => {
        const email = newEmail();
        const created = await invited(email);
        const answer = await accept(created.token, { password: '12345678' });
        assertStatus(answer, 200);
        const members = await t.request('GET', `${MEMBERS}?limit=100`, as());
        assert.equal(members.body.find((m: any) => m.email === email).name, email.split('@')[0]);
      });

      it('adds an existing account that accepts with one of its keys, keeps it as it is, and that key then works here', async () => {
        const other = await t.createWorkspace();
        const existing = await addTestMember(t, other.workspaceId, 'member');
        const created = await invited(existing.email, 'admin');
        const answer = await acceptWithKey(created.token, existing.key);
        assertStatus(answer, 200);
        assert.equal(answer.body.userId, existing.userId);
        assert.equal(answer.body.role, 'admin');
        assert.equal(await memberRole(existing.email), 'admin');
        const here = await t.request('GET', '/api/v1/team', { key: existing.key, team: ws.workspaceId });
        assertStatus(here, 200);
        assert.equal(here.body.id, ws.workspaceId);
        const user = await t.server.database.db
          .selectFrom('users')
          .select('password_hash')
          .where('id', '=', existing.userId)
          .executeTakeFirstOrThrow();
        assert.equal(user.password_hash, null);
      });

      it('needs no key and no x-service-team to create a new account', async () => {
        const created = await invited();
        assertStatus(
          await t.request('POST', acceptPath(created.token), { key: null, team: null, body: { password: 'whatever-123' } }),
          200,
        );
      });

      it('answers 401 to a key that is sent and not valid, and the invite stays usable', async () => {
        const created = await invited();
        const answer = await t.request('POST', acceptPath(created.token), {
          key: 'loupe_not-a-real-key',
          team: null,
          body: { password: 'whatever-123' },
        });
        assertStatus(answer, 401, 'unauthorized');
        assertStatus(await accept(created.token), 200);
      });

      it('refuses a new user without a password with 400, and the invite stays usable', async () => {
        const created = await invited();
        assertInvalid(await accept(created.token, {}), 'password');
        assertInvalid(await accept(created.token, { name: 'No Password' }), 'password');
        assertStatus(await accept(created.token, { password: 'now with one' }), 200);
      });

      for (const password of ['12345678', 'p'.repeat(200)]) {
        it(`takes a password of ${password.length} characters`, async () => {
          assertStatus(await accept((await invited()).token, { password }), 200);
        });
      }

      for (const [label, body, field] of [
        ['a password of 7 characters', { password: '1234567' }, 'password'],
        ['a password of 201 characters', { password: 'p'.repeat(201) }, 'password'],
        ['a number as password', { password: 12345678 }, 'password'],
        ['an empty name', { name: '', password: '12345678' }, 'name'],
        ['a name of 101 characters', { name: 'n'.repeat(101), password: '12345678' }, 'name'],
        ['an unknown field', { password: '12345678', role: 'owner' }, 'role'],
      ] as const) {
        it(`refuses ${label}, and the invite stays usable`, async () => {
          const created = await invited();
          assertInvalid(await accept(created.token, body), field);
          assertStatus(await accept(created.token), 200);
        });
      }

      it('takes a name of 100 characters', async () => {
        const created = await invited();
        assertStatus(await accept(created.token, { name: 'n'.repeat(100), password: '12345678' }), 200);
      });

      it('refuses a request without a body with 400', async () => {
        const created = await invited();
        const answer = await t.request('POST', acceptPath(created.token), { key: null, team: null });
        assertStatus(answer, 400);
      });

      it('works once: a second accept answers 404', async () => {
        const created = await invited();
        assertStatus(await accept(created.token), 200);
        assertStatus(await accept(created.token), 404, 'not_found');
      });

      it('answers 404 for a well-formed token that was never issued', async () => {
        assertStatus(await accept('AAAAAAAAAAAAAAAAAAAAAA'), 404, 'not_found');
      });

      for (const token of ['short', 'x'.repeat(65), 'has.a.dot.in.it.abcdef']) {
        it(`answers 400 for the malformed token ${JSON.stringify(token)}`, async () => {
          assertInvalid(await accept(token), 'token');
        });
      }

      it('answers 410 invite_expired for an expired invite and adds no one', async () => {
        const email = newEmail();
        const created = await invited(email);
        await expire(created.id);
        assertStatus(await accept(created.token), 410, 'invite_expired');
        assert.equal(await memberRole(email), undefined);
      });

      it('answers 404 for an expired invite that was revoked', async () => {
        const created = await invited();
        assertStatus(await t.request('DELETE', `${INVITES}/${created.id}`, as()), 200);
        await expire(created.id);
        assertStatus(await accept(created.token), 404, 'not_found');
      });

      it('answers 409 already_member when the invitee joined by another path meanwhile', async () => {
        const email = newEmail();
        const created = await invited(email, 'admin');
        const userId = await addMember(t.server.database, { workspaceId: ws.workspaceId, email, role: 'viewer' });
        const { secret } = await issueKey(t.server.database, { workspaceId: ws.workspaceId, userId, role: 'viewer', name: 'k' });
        assertStatus(await acceptWithKey(created.token, secret), 409, 'already_member');
        assert.equal(await memberRole(email), 'viewer');
      });

      it('lets one of two simultaneous accepts win, and adds the member once', async () => {
        const email = newEmail();
        const created = await invited(email, 'member');
        const answers = await Promise.all([accept(created.token), accept(created.token)]);
        const [won, lost] = answers.map((a) => a.status).sort();
        assert.equal(won, 200);
        // Used up (404), or, read after the winner's account was made, an account to sign in to (401).
        assert.ok(lost === 404 || lost === 401, String(lost));
        const members = await t.request('GET', `${MEMBERS}?limit=100`, as());
        assert.equal(members.body.filter((m: any) => m.email === email).length, 1);
      });

      it('creates one account when invites of two workspaces to a new email are accepted at once; the other is told to sign in', async () => {
        const other = await t.createWorkspace();
        const email = newEmail();
        const [a, b] = [await invited(email, 'member'), await invited(email, 'viewer', other)];
        const answers = await Promise.all([
          accept(a.token, { password: 'the first password' }),
          accept(b.token, { password: 'the second password' }),
        ]);
        assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 401]);
        const winner = answers.find((answer) => answer.status === 200) as HttpAnswer;
        assertStatus(answers.find((answer) => answer.status === 401) as HttpAnswer, 401, 'sign_in_required');
        const users = await t.server.database.db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', email).execute();
        assert.equal(users.length, 1);
        assert.equal(users[0]?.id, winner.body.userId);
        const chosen = answers[0] === winner ? 'the first password' : 'the second password';
        assert.equal(await verifyPassword(chosen, users[0]?.password_hash as string), true, 'the loser set no password');
      });

      it("lets the new member's key, once issued, find the workspace through GET /teams", async () => {
        const created = await invited(newEmail(), 'viewer');
        const accepted = await accept(created.token);
        const { secret } = await issueKey(t.server.database, {
          workspaceId: ws.workspaceId,
          userId: accepted.body.userId,
          role: 'viewer',
          name: 'k',
        });
        const teams = await t.request('GET', '/api/v1/teams', { key: secret, team: null });
        assert.deepEqual(teams.body, [{ id: ws.workspaceId, name: 'Other', plan: 'business', role: 'viewer' }]);
      });
    });
  });
}
