import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { PASSWORD_RESET_PAGE, sessionPaths } from '@loupe/contract';
import { type ReceivedMail, startTestSmtpServer, type TestSmtpServer } from '../alerts/test-smtp-server.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { type HttpAnswer, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { hashSessionToken } from './session-token.ts';
import { addPasswordMember, signIn, TEST_PASSWORD, type TestSession } from './test-session.ts';

const NEW_PASSWORD = 'a new password only I know';

function assertStatus(answer: HttpAnswer, status: number, code?: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  if (code) assert.equal(answer.body.code, code);
}

/** The token of the reset link in a mail (the part after `#`). */
function tokenIn(mail: ReceivedMail): string {
  const match = new RegExp(`${PASSWORD_RESET_PAGE}#([A-Za-z0-9_-]+)`).exec(mail.text);
  assert.ok(match, `no reset link in: ${mail.text}`);
  return match[1] as string;
}

/**
 * POST JSON from a given loopback address (the whole of 127/8 is this machine), so that a
 * test can be a client of its own for the per-client bound.
 */
function postFrom(t: TestServer, localAddress: string, path: string, body: unknown): Promise<HttpAnswer> {
  const url = new URL(path, t.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const headers = new Headers(Object.entries(response.headers).map(([name, value]) => [name, String(value)] as [string, string]));
        resolve({ status: response.statusCode ?? 0, headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      });
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

/** Issue #22, point 1: a forgotten password is reset through a link mailed to the account's address. */
for (const dialect of testDialects()) {
  describe(`password reset by email (${dialect})`, () => {
    let t: TestServer;
    let smtp: TestSmtpServer;
    let home: TestWorkspace;

    before(async () => {
      smtp = await startTestSmtpServer();
      t = await startTestServer(dialect, { smtpUrl: smtp.url, smtpFrom: 'Loupe <loupe@loupe.test>' });
      home = await t.createWorkspace({ plan: 'business' });
    });
    after(async () => {
      await t.close();
      await smtp.close();
    });

    const requestReset = (email: string) => t.request('POST', sessionPaths.passwordResets, { key: null, body: { email } });
    const complete = (token: string, password = NEW_PASSWORD) =>
      t.request('POST', sessionPaths.passwordResetCompletion, { key: null, body: { token, password } });
    const signInAnswer = (email: string, password: string) =>
      t.request('POST', sessionPaths.session, { key: null, body: { email, password } });

    /** Asks for a reset of `email` and answers the mail that arrives for it. */
    async function mailedReset(email: string): Promise<ReceivedMail> {
      const before = smtp.mails.length;
      assertStatus(await requestReset(email), 202);
      const [mail] = (await smtp.waitForMails(before + 1)).slice(before);
      assert.deepEqual(mail?.recipients, [email], 'the next mail is the one just asked for');
      return mail;
    }
    const newAccount = () => addPasswordMember(t, home.workspaceId, home.key, 'member');

    it('answers 202 and mails a single-use link to the account, from LOUPE_SMTP_FROM, that works for an hour', async () => {
      const email = await newAccount();
      const mail = await mailedReset(email);
      assert.deepEqual(mail.recipients, [email]);
      assert.match(mail.headers.from ?? '', /loupe@loupe\.test/);
      assert.match(mail.headers.subject ?? '', /Reset your password/);
      assert.ok(mail.text.includes(`http://localhost:8080${PASSWORD_RESET_PAGE}#`), 'a link to the dashboard of LOUPE_PUBLIC_URL');
      const token = tokenIn(mail);
      const rows = await t.server.database.db.selectFrom('password_resets').selectAll().execute();
      const row = rows.find((each) => each.token_hash === hashSessionToken(token));
      assert.ok(row, 'the link is stored by the hash of its token');
      assert.ok(!rows.some((each) => each.token_hash === token), 'never the token itself');
      assert.ok(Math.abs(Date.parse(row.expires_at) - Date.parse(row.created_at) - 3_600_000) < 1000);
    });

    it('answers an email no account has with the same 202 and mails nothing, nor stores a link', async () => {
      const unknown = `nobody-has-${randomBytes(4).toString('hex')}@example.test`;
      const known = await newAccount();
      const linksBefore = await t.server.database.db.selectFrom('password_resets').select('id').execute();
      const answerUnknown = await requestReset(unknown);
      // Links are made in the order asked: once the known email's mail is here, the unknown one was dealt with.
      const mail = await mailedReset(known);
      assertStatus(answerUnknown, 202);
      const mailsBefore = smtp.mails.length;
      const answerKnown = await requestReset(known);
      // This second request mails the account too: awaited here, so it does not arrive during the next test.
      await smtp.waitForMails(mailsBefore + 1);
      assert.deepEqual(
        { ...answerUnknown.body, message: answerUnknown.body.message.replace(unknown, 'X') },
        { ...answerKnown.body, message: answerKnown.body.message.replace(known, 'X') },
      );
      assert.deepEqual(mail.recipients, [known]);
      assert.ok(!smtp.mails.some((each) => each.recipients.includes(unknown)));
      const linksAfter = await t.server.database.db.selectFrom('password_resets').select('id').execute();
      assert.equal(linksAfter.length, linksBefore.length + 1, 'the request for the unknown email stored no link');
    });

    it('mails nothing for an account without a password (one with API keys only), with the same 202', async () => {
      await t.createMemberKey(home.workspaceId, 'member');
      const keyOnly = await t.server.database.db
        .selectFrom('users')
        .select('email')
        .where('password_hash', 'is', null)
        .where('email', 'like', 'member-%')
        .executeTakeFirstOrThrow();
      const linksBefore = await t.server.database.db.selectFrom('password_resets').select('id').execute();
      assertStatus(await requestReset(keyOnly.email), 202);
      await mailedReset(await newAccount());
      const linksAfter = await t.server.database.db.selectFrom('password_resets').select('id').execute();
      assert.equal(linksAfter.length, linksBefore.length + 1, 'a link for the account with a password only');
      assert.ok(!smtp.mails.some((each) => each.recipients.includes(keyOnly.email)));
      // The first owner, before the first run, has no password and an address no mail can reach.
      assertStatus(await requestReset('owner@localhost'), 400, 'validation_failed');
    });

    it('lets one of two completions of a link sent at once win; the other is 404', async () => {
      const email = await newAccount();
      const token = tokenIn(await mailedReset(email));
      const answers = await Promise.all([complete(token, 'first of two racing'), complete(token, 'second of two racing')]);
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 404]);
      const winner = answers[0]?.status === 200 ? 'first of two racing' : 'second of two racing';
      await signIn(t, email, winner);
    });

    it('sets the new password: the old one stops working, the new one signs in, and the link signs nobody in', async () => {
      const email = await newAccount();
      const answer = await complete(tokenIn(await mailedReset(email)));
      assertStatus(answer, 200);
      assert.equal(answer.body.email, email);
      assert.equal(answer.headers.getSetCookie().length, 0, 'no session cookie');
      assertStatus(await signInAnswer(email, TEST_PASSWORD), 401, 'invalid_credentials');
      await signIn(t, email, NEW_PASSWORD);
    });

    it('ends every session and revokes every API key of the account, in every workspace, and says how many', async () => {
      // Admins, who may make keys.
      const email = await addPasswordMember(t, home.workspaceId, home.key, 'admin');
      const [first, second] = [await signIn(t, email), await signIn(t, email)];
      const other = await t.createWorkspace();
      const invite = await t.request('POST', '/api/v1/team/invites', {
        key: other.key,
        team: other.workspaceId,
        body: { email, role: 'admin' },
      });
      assertStatus(await first.request('POST', `/api/v1/invites/${invite.body.token}/accept`, { body: {} }), 200);
      const keys = [];
      for (const workspace of [home, other]) {
        const created = await first.request('POST', '/api/v1/keys', { team: workspace.workspaceId, body: { name: 'mine' } });
        assertStatus(created, 201);
        assertStatus(await t.request('GET', '/api/v1/team', { key: created.body.key, team: workspace.workspaceId }), 200);
        keys.push({ key: created.body.key as string, workspace });
      }

      const answer = await complete(tokenIn(await mailedReset(email)));
      assertStatus(answer, 200);
      assert.deepEqual([answer.body.endedSessions, answer.body.revokedKeys], [2, 2]);
      for (const session of [first, second]) assertStatus(await session.request('GET', sessionPaths.session), 401);
      for (const { key, workspace } of keys)
        assertStatus(await t.request('GET', '/api/v1/team', { key, team: workspace.workspaceId }), 401, 'unauthorized');
      // The memberships stay: the account is the same, only its ways in are new.
      const signedIn = await signIn(t, email, NEW_PASSWORD);
      assert.deepEqual(signedIn.body.workspaces.map((w) => w.id).sort(), [home.workspaceId, other.workspaceId].sort());
    });

    it('refuses a link used once already with 404, and the password stays the one it set', async () => {
      const email = await newAccount();
      const token = tokenIn(await mailedReset(email));
      assertStatus(await complete(token), 200);
      assertStatus(await complete(token, 'an attacker replays it'), 404, 'not_found');
      await signIn(t, email, NEW_PASSWORD);
    });

    it('refuses an expired link with 410 reset_link_expired, and the password is unchanged', async () => {
      const email = await newAccount();
      const token = tokenIn(await mailedReset(email));
      await t.server.database.db
        .updateTable('password_resets')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('token_hash', '=', hashSessionToken(token))
        .execute();
      assertStatus(await complete(token), 410, 'reset_link_expired');
      await signIn(t, email);
    });

    it('keeps only the latest link mailed: an earlier one answers 404', async () => {
      const email = await newAccount();
      const earlier = tokenIn(await mailedReset(email));
      const latest = tokenIn(await mailedReset(email));
      assertStatus(await complete(earlier), 404, 'not_found');
      assertStatus(await complete(latest), 200);
    });

    it('refuses an unknown token with 404', async () => {
      assertStatus(await complete(randomBytes(32).toString('base64url')), 404, 'not_found');
    });

    it('applies the rules of a new password (8 to 200 characters) with a field error, and the link still works', async () => {
      const email = await newAccount();
      const token = tokenIn(await mailedReset(email));
      for (const password of ['short', 'x'.repeat(201)]) {
        const answer = await complete(token, password);
        assertStatus(answer, 400, 'validation_failed');
        assert.deepEqual(Object.keys(answer.body.details.fieldErrors), ['password']);
      }
      assertStatus(await complete(token), 200);
    });

    it('refuses malformed requests with 400: a bad email, an unknown field, a missing token', async () => {
      for (const body of [{ email: 'not-an-email' }, { email: 'a@example.test', admin: true }, {}]) {
        assertStatus(await t.request('POST', sessionPaths.passwordResets, { key: null, body }), 400, 'validation_failed');
      }
      assertStatus(
        await t.request('POST', sessionPaths.passwordResetCompletion, { key: null, body: { password: NEW_PASSWORD } }),
        400,
        'validation_failed',
      );
    });

    it('refuses a body over 16 KB with 413 before reading it', async () => {
      const answer = await t.request('POST', sessionPaths.passwordResetCompletion, {
        key: null,
        body: { token: 'x'.repeat(20_000), password: NEW_PASSWORD },
      });
      assertStatus(answer, 413);
    });

    it("refuses a request sent from another site's page with 403 csrf_failed", async () => {
      const answer = await t.request('POST', sessionPaths.passwordResets, {
        key: null,
        body: { email: 'a@example.test' },
        headers: { origin: 'https://evil.example' },
      });
      assertStatus(answer, 403, 'csrf_failed');
    });

    it('answers 429 with Retry-After to the sixth request for one email in an hour, known or not', async () => {
      const email = `often-${randomBytes(4).toString('hex')}@example.test`;
      for (let i = 0; i < 5; i++) assertStatus(await postFrom(t, '127.0.0.3', sessionPaths.passwordResets, { email }), 202);
      const answer = await postFrom(t, '127.0.0.4', sessionPaths.passwordResets, { email });
      assertStatus(answer, 429, 'rate_limited');
      assert.ok(Number(answer.headers.get('retry-after')) > 0);
    });

    it('answers 429 to the 21st request from one client in an hour, whatever the emails, and serves other clients', async () => {
      for (let i = 0; i < 20; i++) {
        assertStatus(
          await postFrom(t, '127.0.0.2', sessionPaths.passwordResets, {
            email: `client-${i}-${randomBytes(3).toString('hex')}@example.test`,
          }),
          202,
        );
      }
      assertStatus(
        await postFrom(t, '127.0.0.2', sessionPaths.passwordResets, { email: `one-more-${randomBytes(3).toString('hex')}@example.test` }),
        429,
        'rate_limited',
      );
      assertStatus(
        await postFrom(t, '127.0.0.5', sessionPaths.passwordResets, { email: `elsewhere-${randomBytes(3).toString('hex')}@example.test` }),
        202,
      );
    });

    it("ends a squatter's hold on an account he made through his own invite, and he cannot read the workspace Carol joins", async () => {
      const [a, b] = [await t.createWorkspace({ plan: 'business' }), await t.createWorkspace({ plan: 'business' })];
      const carol = `carol-${randomBytes(4).toString('hex')}@corp.test`;
      const inviteTo = async (workspace: TestWorkspace, role: string) => {
        const answer = await t.request('POST', '/api/v1/team/invites', {
          key: workspace.key,
          team: workspace.workspaceId,
          body: { email: carol, role },
        });
        assertStatus(answer, 201);
        return answer.body.token as string;
      };
      // B's owner invites carol@ to B and accepts it himself, with a password of his choice.
      const squat = await t.request('POST', `/api/v1/invites/${await inviteTo(b, 'admin')}/accept`, {
        key: null,
        body: { password: 'mallory chose this' },
      });
      assertStatus(squat, 200);
      // As "Carol", he makes an API key and keeps a session.
      const mallory: TestSession = await signIn(t, carol, 'mallory chose this');
      const key = await mallory.request('POST', '/api/v1/keys', { team: b.workspaceId, body: { name: 'kept' } });
      assertStatus(key, 201);
      assertStatus(await t.request('GET', '/api/v1/team', { key: key.body.key, team: b.workspaceId }), 200);

      // Carol proves her mailbox and sets her own password.
      assertStatus(await complete(tokenIn(await mailedReset(carol)), 'carol chose this'), 200);

      // Everything the squatter had stops working.
      assertStatus(await signInAnswer(carol, 'mallory chose this'), 401, 'invalid_credentials');
      assertStatus(await mallory.request('GET', sessionPaths.session), 401);
      assertStatus(await mallory.request('GET', '/api/v1/team', { team: b.workspaceId }), 401, 'unauthorized');
      assertStatus(await t.request('GET', '/api/v1/team', { key: key.body.key, team: b.workspaceId }), 401, 'unauthorized');

      // Carol accepts A's invite, signed in as herself.
      const inviteA = await inviteTo(a, 'member');
      const herSession = await signIn(t, carol, 'carol chose this');
      assertStatus(await herSession.request('POST', `/api/v1/invites/${inviteA}/accept`, { body: {} }), 200);
      assertStatus(await herSession.request('GET', '/api/v1/team', { team: a.workspaceId }), 200);

      // The squatter cannot read A with anything he held.
      assertStatus(await mallory.request('GET', '/api/v1/team', { team: a.workspaceId }), 401, 'unauthorized');
      assertStatus(await t.request('GET', '/api/v1/team', { key: key.body.key, team: a.workspaceId }), 401, 'unauthorized');
      assertStatus(await t.request('GET', '/api/images/projects', { key: key.body.key, team: null }), 401, 'unauthorized');
      // Asking for another reset only mails Carol again.
      const mail = await mailedReset(carol);
      assert.deepEqual(mail.recipients, [carol]);
    });
  });
}
