import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sessionPaths } from '@loupe/contract';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { hashSessionToken } from './session-token.ts';
import { setUpOwner, signIn, TEST_PASSWORD, type TestSession } from './test-session.ts';

const EMAIL = 'owner@example.test';
const THIRTY_DAYS = 30 * 24 * 3600;

function setCookieLine(answer: { headers: Headers }): string {
  const line = answer.headers.getSetCookie().find((each) => each.startsWith('loupe_session='));
  assert.ok(line, 'no session cookie');
  return line;
}

for (const dialect of testDialects()) {
  describe(`dashboard sessions (${dialect})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(dialect);
      await setUpOwner(t, EMAIL);
    });
    after(() => t.close());

    const tokenOf = (session: TestSession) => session.cookie.split('=')[1] as string;
    const expireInDatabase = (session: TestSession) =>
      t.server.database.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('token_hash', '=', hashSessionToken(tokenOf(session)))
        .execute();

    it('signs in with email and password and sets an HttpOnly, SameSite=Lax cookie for 30 days', async () => {
      const answer = await t.request('POST', sessionPaths.session, { key: null, body: { email: EMAIL, password: TEST_PASSWORD } });
      assert.equal(answer.status, 200);
      const line = setCookieLine(answer);
      assert.match(line, /^loupe_session=[A-Za-z0-9_-]{43}; /);
      for (const attribute of ['Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${THIRTY_DAYS}`])
        assert.ok(line.split('; ').includes(attribute), line);
      assert.ok(!line.includes('Secure'), 'no Secure over http');
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      assert.equal(answer.body.user.email, EMAIL);
      assert.equal(typeof answer.body.csrfToken, 'string');
      assert.ok(Math.abs(Date.parse(answer.body.expiresAt) - Date.now() - THIRTY_DAYS * 1000) < 60_000);
    });

    it('matches the email whatever its case', async () => {
      const answer = await t.request('POST', sessionPaths.session, {
        key: null,
        body: { email: EMAIL.toUpperCase(), password: TEST_PASSWORD },
      });
      assert.equal(answer.status, 200);
    });

    it('stores only a hash of the session token', async () => {
      const session = await signIn(t, EMAIL);
      const rows = await t.server.database.db.selectFrom('sessions').select('token_hash').execute();
      assert.ok(rows.some((row) => row.token_hash === hashSessionToken(tokenOf(session))));
      assert.ok(!rows.some((row) => row.token_hash === tokenOf(session)));
    });

    it('answers a wrong password and an unknown email with the same 401', async () => {
      const wrong = await t.request('POST', sessionPaths.session, { key: null, body: { email: EMAIL, password: 'not the password' } });
      const unknown = await t.request('POST', sessionPaths.session, {
        key: null,
        body: { email: 'nobody@example.test', password: 'not the password' },
      });
      for (const answer of [wrong, unknown]) {
        assert.equal(answer.status, 401);
        assert.equal(answer.body.code, 'invalid_credentials');
        assert.equal(answer.headers.getSetCookie().length, 0);
      }
      assert.deepEqual(wrong.body, unknown.body);
    });

    it('refuses a malformed sign-in with field errors', async () => {
      const answer = await t.request('POST', sessionPaths.session, { key: null, body: { email: 'not-an-email', password: '' } });
      assert.equal(answer.status, 400);
      assert.deepEqual(Object.keys(answer.body.details.fieldErrors).sort(), ['email', 'password']);
    });

    it('tells who is signed in, with their workspaces and the CSRF token', async () => {
      const session = await signIn(t, EMAIL);
      const answer = await session.request('GET', sessionPaths.session, { csrf: false });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.user.email, EMAIL);
      assert.deepEqual(answer.body.workspaces, [{ id: t.owner.workspaceId, name: 'Default', plan: 'free', role: 'owner' }]);
      assert.equal(answer.body.csrfToken, session.csrfToken);
      assert.equal(answer.headers.getSetCookie().length, 0, 'a fresh session is not sent again');
    });

    it('answers 401 to GET /api/session without a cookie', async () => {
      const answer = await t.request('GET', sessionPaths.session, { key: null });
      assert.equal(answer.status, 401);
      assert.equal(answer.body.code, 'unauthorized');
    });

    it('moves the expiry forward and sends the cookie again when the dashboard opens a day later', async () => {
      const session = await signIn(t, EMAIL);
      const inTwentyDays = new Date(Date.now() + 20 * 24 * 3600_000).toISOString();
      await t.server.database.db
        .updateTable('sessions')
        .set({ expires_at: inTwentyDays })
        .where('token_hash', '=', hashSessionToken(tokenOf(session)))
        .execute();
      const answer = await session.request('GET', sessionPaths.session, { csrf: false });
      assert.equal(answer.status, 200);
      assert.ok(Date.parse(answer.body.expiresAt) > Date.now() + 29 * 24 * 3600_000);
      assert.match(setCookieLine(answer), new RegExp(`^${session.cookie}; .*Max-Age=${THIRTY_DAYS}`));
    });

    it('ends an expired session: 401 on GET /api/session, which clears the cookie, and on the APIs', async () => {
      const session = await signIn(t, EMAIL);
      await expireInDatabase(session);
      const answer = await session.request('GET', sessionPaths.session, { csrf: false });
      assert.equal(answer.status, 401);
      assert.match(setCookieLine(answer), /^loupe_session=; .*Max-Age=0/);
      const api = await session.request('GET', '/api/v1/team', { team: t.owner.workspaceId });
      assert.equal(api.status, 401);
      assert.equal(api.body.code, 'unauthorized');
    });

    it('signs out: the session ends at once and the cookie is cleared', async () => {
      const session = await signIn(t, EMAIL);
      const answer = await session.request('DELETE', sessionPaths.session);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { deleted: true });
      assert.match(setCookieLine(answer), /^loupe_session=; .*Max-Age=0/);
      assert.equal((await session.request('GET', sessionPaths.session)).status, 401);
      assert.equal((await session.request('GET', '/api/v1/team', { team: t.owner.workspaceId })).status, 401);
    });

    it('refuses a sign-out without the CSRF token, so another site cannot sign you out', async () => {
      const session = await signIn(t, EMAIL);
      const answer = await session.request('DELETE', sessionPaths.session, { csrf: false });
      assert.equal(answer.status, 403);
      assert.equal(answer.body.code, 'csrf_failed');
      assert.equal((await session.request('GET', sessionPaths.session)).status, 200);
    });

    it('ends the session a new sign-in replaces', async () => {
      const first = await signIn(t, EMAIL);
      const again = await t.request('POST', sessionPaths.session, {
        key: null,
        body: { email: EMAIL, password: TEST_PASSWORD },
        headers: { cookie: first.cookie },
      });
      assert.equal(again.status, 200);
      assert.notEqual(setCookieLine(again).split(';')[0], first.cookie);
      assert.equal((await first.request('GET', sessionPaths.session)).status, 401);
    });

    it('accepts a CSRF header only with its own session', async () => {
      const [one, two] = [await signIn(t, EMAIL), await signIn(t, EMAIL)];
      const answer = await one.request('DELETE', sessionPaths.session, { csrf: two.csrfToken });
      assert.equal(answer.status, 403);
    });
  });

  describe(`sign-in throttle (${dialect})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(dialect);
      await setUpOwner(t, EMAIL);
    });
    after(() => t.close());

    it('answers 429 with Retry-After after ten failed attempts for one email, even to the right password', async () => {
      for (let attempt = 0; attempt < 10; attempt++) {
        const answer = await t.request('POST', sessionPaths.session, { key: null, body: { email: EMAIL, password: `guess ${attempt}` } });
        assert.equal(answer.status, 401);
      }
      const answer = await t.request('POST', sessionPaths.session, { key: null, body: { email: EMAIL, password: TEST_PASSWORD } });
      assert.equal(answer.status, 429);
      assert.equal(answer.body.code, 'rate_limited');
      assert.ok(Number(answer.headers.get('retry-after')) > 0);
    });
  });

  describe(`sessions behind https (${dialect})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(dialect, { publicUrl: 'https://loupe.example.test' });
    });
    after(() => t.close());

    it('marks the cookie Secure when the public URL is https', async () => {
      const answer = await t.request('POST', sessionPaths.setup, { key: null, body: { name: 'O', email: EMAIL, password: TEST_PASSWORD } });
      assert.equal(answer.status, 201);
      assert.ok(setCookieLine(answer).split('; ').includes('Secure'));
    });
  });
}
