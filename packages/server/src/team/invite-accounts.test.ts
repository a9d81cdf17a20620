import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Role, sessionPaths } from '@loupe/contract';
import { verifyPassword } from '../identity/password.ts';
import { addPasswordMember, signIn, TEST_PASSWORD } from '../sessions/test-session.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { type HttpAnswer, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { addTestMember } from './test-member.ts';

const acceptPath = (token: string) => `/api/v1/invites/${token}/accept`;

function assertStatus(answer: HttpAnswer, status: number, code?: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  if (code) assert.equal(answer.body.code, code);
}

/**
 * Issue #22, point 1: an invite joins an existing account only when that account accepts it
 * itself, and never sets or changes its password.
 */
for (const dialect of testDialects()) {
  describe(`invites and existing accounts (${dialect})`, () => {
    let t: TestServer;
    let ws: TestWorkspace;

    before(async () => {
      t = await startTestServer(dialect);
      ws = await t.createWorkspace({ plan: 'business' });
    });
    after(() => t.close());

    async function invite(email: string, role: Role = 'member', workspace = ws): Promise<string> {
      const answer = await t.request('POST', '/api/v1/team/invites', {
        key: workspace.key,
        team: workspace.workspaceId,
        body: { email, role },
      });
      assertStatus(answer, 201);
      return answer.body.token;
    }
    const acceptAnonymously = (token: string, body: unknown = {}) => t.request('POST', acceptPath(token), { key: null, team: null, body });
    async function roleIn(workspace: TestWorkspace, email: string): Promise<string | undefined> {
      const answer = await t.request('GET', '/api/v1/team/members?limit=100', { key: workspace.key, team: workspace.workspaceId });
      return answer.body.find((member: any) => member.email === email)?.role;
    }
    async function passwordHashOf(email: string): Promise<string | null> {
      const row = await t.server.database.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      return row.password_hash;
    }
    /** A user with TEST_PASSWORD, a member of a workspace of their own. */
    async function accountWithPassword(): Promise<string> {
      const home = await t.createWorkspace();
      return addPasswordMember(t, home.workspaceId, home.key, 'member');
    }

    it('answers 401 sign_in_required to an accept without credentials for an email that has an account, and adds no one', async () => {
      const email = await accountWithPassword();
      const token = await invite(email);
      const answer = await acceptAnonymously(token);
      assertStatus(answer, 401, 'sign_in_required');
      assert.equal(answer.body.email, email, 'the page can say whom to sign in as');
      assert.equal(await roleIn(ws, email), undefined);
    });

    it('refuses, with the same 401, a password sent for an existing account: its own still signs in, the one sent does not', async () => {
      const email = await accountWithPassword();
      const before = await passwordHashOf(email);
      const token = await invite(email);
      assertStatus(await acceptAnonymously(token, { password: 'a password of my choice' }), 401, 'sign_in_required');
      assert.equal(await passwordHashOf(email), before);
      assertStatus(
        await t.request('POST', sessionPaths.session, { key: null, body: { email, password: 'a password of my choice' } }),
        401,
        'invalid_credentials',
      );
      await signIn(t, email);
    });

    it('joins the signed-in account of the invited email, with its session and CSRF token; the invite is then used', async () => {
      const email = await accountWithPassword();
      const token = await invite(email, 'viewer');
      const session = await signIn(t, email);
      const answer = await session.request('POST', acceptPath(token), { body: {} });
      assertStatus(answer, 200);
      assert.deepEqual([answer.body.email, answer.body.role, answer.body.workspace.id], [email, 'viewer', ws.workspaceId]);
      assert.equal(await roleIn(ws, email), 'viewer');
      assertStatus(await session.request('POST', acceptPath(token), { body: {} }), 404, 'not_found');
    });

    it('refuses a session without its CSRF token with 403 csrf_failed, and the invite stays usable', async () => {
      const email = await accountWithPassword();
      const token = await invite(email);
      const session = await signIn(t, email);
      assertStatus(await session.request('POST', acceptPath(token), { body: {}, csrf: false }), 403, 'csrf_failed');
      assert.equal(await roleIn(ws, email), undefined);
      assertStatus(await session.request('POST', acceptPath(token), { body: {} }), 200);
    });

    it('joins the account that sends one of its API keys, even one that belongs to another workspace', async () => {
      const other = await t.createWorkspace();
      const existing = await addTestMember(t, other.workspaceId, 'viewer');
      const token = await invite(existing.email, 'member');
      assertStatus(await t.request('POST', acceptPath(token), { key: existing.key, team: null, body: {} }), 200);
      assert.equal(await roleIn(ws, existing.email), 'member');
    });

    it('answers 403 invite_for_another_account to another signed-in account, and the invite stays for its own', async () => {
      const invitee = await accountWithPassword();
      const someoneElse = await signIn(t, await accountWithPassword());
      const token = await invite(invitee);
      const answer = await someoneElse.request('POST', acceptPath(token), { body: {} });
      assertStatus(answer, 403, 'invite_for_another_account');
      assert.equal(answer.body.email, invitee);
      assert.equal(await roleIn(ws, invitee), undefined);
      assertStatus(await (await signIn(t, invitee)).request('POST', acceptPath(token), { body: {} }), 200);
    });

    it("answers 403 invite_for_another_account to another account's key", async () => {
      const invitee = await accountWithPassword();
      const other = await addTestMember(t, ws.workspaceId, 'member');
      const token = await invite(invitee);
      assertStatus(await t.request('POST', acceptPath(token), { key: other.key, team: null, body: {} }), 403, 'invite_for_another_account');
    });

    it('answers 403 invite_for_another_account to a signed-in account for an invite to an email with no account yet', async () => {
      const email = `nobody-yet-${randomBytes(4).toString('hex')}@example.test`;
      const token = await invite(email);
      const session = await signIn(t, await accountWithPassword());
      assertStatus(
        await session.request('POST', acceptPath(token), { body: { password: TEST_PASSWORD } }),
        403,
        'invite_for_another_account',
      );
      assertStatus(await acceptAnonymously(token, { password: 'a new password' }), 200);
    });

    it('refuses with 400 a password sent by the invited account itself, which keeps its own', async () => {
      const email = await accountWithPassword();
      const before = await passwordHashOf(email);
      const token = await invite(email);
      const answer = await (await signIn(t, email)).request('POST', acceptPath(token), { body: { password: 'a changed password' } });
      assertStatus(answer, 400, 'validation_failed');
      assert.ok(answer.body.details.fieldErrors.password);
      assert.equal(await passwordHashOf(email), before);
      assert.equal(await verifyPassword(TEST_PASSWORD, before as string), true);
    });

    it('refuses with 400 a name sent by the invited account itself', async () => {
      const email = await accountWithPassword();
      const token = await invite(email);
      const answer = await (await signIn(t, email)).request('POST', acceptPath(token), { body: { name: 'Renamed' } });
      assertStatus(answer, 400, 'validation_failed');
      assert.ok(answer.body.details.fieldErrors.name);
    });

    it('gives a new account only the role of the invite, in its workspace only', async () => {
      const email = `new-${randomBytes(4).toString('hex')}@example.test`;
      const accepted = await acceptAnonymously(await invite(email, 'viewer'), { password: TEST_PASSWORD });
      assertStatus(accepted, 200);
      const session = await signIn(t, email);
      assert.deepEqual(
        session.body.workspaces.map((w) => [w.id, w.role]),
        [[ws.workspaceId, 'viewer']],
      );
    });

    it("stops the takeover of the report where B's owner would read A", async () => {
      const [a, b] = [await t.createWorkspace({ plan: 'business' }), await t.createWorkspace({ plan: 'business' })];
      const carol = `carol-${randomBytes(4).toString('hex')}@corp.test`;
      // B's owner invites Carol to B and accepts it himself, choosing the password.
      assertStatus(await acceptAnonymously(await invite(carol, 'viewer', b), { password: 'mallory chose this' }), 200);
      // A invites Carol; she accepts with her own password: refused, it would not be hers.
      assertStatus(await acceptAnonymously(await invite(carol, 'member', a), { password: 'carol chose this' }), 401, 'sign_in_required');
      assertStatus(
        await t.request('POST', sessionPaths.session, { key: null, body: { email: carol, password: 'carol chose this' } }),
        401,
        'invalid_credentials',
      );
      assert.equal(await roleIn(a, carol), undefined);
      // B's owner signs in as "Carol" and tries to read A.
      const mallory = await signIn(t, carol, 'mallory chose this');
      assert.deepEqual(
        mallory.body.workspaces.map((w) => w.id),
        [b.workspaceId],
      );
      assertStatus(await mallory.request('GET', '/api/v1/team', { team: a.workspaceId }), 403, 'not_a_member');
      assertStatus(await mallory.request('GET', '/api/images/projects', { team: a.workspaceId }), 403, 'not_a_member');
    });
  });
}
