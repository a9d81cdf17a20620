import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { PASSWORD_RESET_PAGE, sessionPaths } from '@loupe/contract';
import { type HttpAnswer, startTestServer, type TestServer } from '../testing/test-server.ts';
import { addPasswordMember, signIn, TEST_PASSWORD } from './test-session.ts';

const cli = new URL('../cli.ts', import.meta.url).pathname;

function assertStatus(answer: HttpAnswer, status: number, code?: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  if (code) assert.equal(answer.body.code, code);
}

/**
 * Issue #22, point 1, on an instance that sends no email: the request says to ask the operator,
 * and `loupe admin reset-password` prints the same kind of link. The CLI opens the server's
 * SQLite file itself, so this suite runs on SQLite only, as the other `loupe admin` tests.
 */
describe('password reset without SMTP (sqlite)', () => {
  let t: TestServer;

  before(async () => {
    t = await startTestServer('sqlite');
  });
  after(() => t.close());

  function loupe(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = {
      ...process.env,
      LOUPE_DATA_DIR: t.dataDir,
      LOUPE_PUBLIC_URL: t.url,
      DATABASE_URL: '',
      LOUPE_BOOTSTRAP_KEY: '',
      LOUPE_PLANS_FILE: '',
    };
    return new Promise((resolve) => {
      execFile(process.execPath, [cli, ...args], { env, cwd: t.dataDir }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });
  }
  const complete = (token: string, password: string) =>
    t.request('POST', sessionPaths.passwordResetCompletion, { key: null, body: { token, password } });

  it('answers a request with 501 smtp_not_configured, naming the CLI, for an email with an account and one without alike', async () => {
    const known = await addPasswordMember(t, t.owner.workspaceId, t.owner.key, 'member');
    const answers = [];
    for (const email of [known, 'nobody@example.test']) {
      const answer = await t.request('POST', sessionPaths.passwordResets, { key: null, body: { email } });
      assertStatus(answer, 501, 'smtp_not_configured');
      assert.match(answer.body.error, /loupe admin reset-password/);
      answers.push(answer.body);
    }
    assert.deepEqual(answers[0], answers[1]);
    assert.equal((await t.server.database.db.selectFrom('password_resets').select('id').execute()).length, 0);
  });

  it('prints a one-time link with `loupe admin reset-password`; it sets the password and ends the sessions and keys', async () => {
    const email = await addPasswordMember(t, t.owner.workspaceId, t.owner.key, 'admin');
    const session = await signIn(t, email);
    const key = await session.request('POST', '/api/v1/keys', { team: t.owner.workspaceId, body: { name: 'old' } });
    assertStatus(key, 201);

    const run = await loupe('admin', 'reset-password', email.toUpperCase());
    assert.equal(run.code, 0, run.stderr);
    const link = new RegExp(`^${t.url}${PASSWORD_RESET_PAGE}#([A-Za-z0-9_-]{43})$`, 'm').exec(run.stdout);
    assert.ok(link, run.stdout);
    assert.match(run.stdout, new RegExp(`for ${email}, valid once until `));

    const answer = await complete(link[1] as string, 'set through the operator');
    assertStatus(answer, 200);
    assert.deepEqual([answer.body.endedSessions, answer.body.revokedKeys], [1, 1]);
    assertStatus(await session.request('GET', sessionPaths.session), 401);
    assertStatus(await t.request('GET', '/api/v1/team', { key: key.body.key }), 401, 'unauthorized');
    assertStatus(
      await t.request('POST', sessionPaths.session, { key: null, body: { email, password: TEST_PASSWORD } }),
      401,
      'invalid_credentials',
    );
    await signIn(t, email, 'set through the operator');
    assertStatus(await complete(link[1] as string, 'used a second time'), 404, 'not_found');
  });

  it('prints the link, email and expiry as JSON with --json', async () => {
    const email = await addPasswordMember(t, t.owner.workspaceId, t.owner.key, 'viewer');
    const run = await loupe('admin', 'reset-password', email, '--json');
    assert.equal(run.code, 0, run.stderr);
    const printed = JSON.parse(run.stdout);
    assert.deepEqual(Object.keys(printed).sort(), ['email', 'expiresAt', 'url']);
    assert.equal(printed.email, email);
    assert.ok(Math.abs(Date.parse(printed.expiresAt) - Date.now() - 3_600_000) < 60_000);
    assertStatus(await complete(new URL(printed.url).hash.slice(1), 'another new password'), 200);
  });

  it('exits 1 and says so for an email no account has, and prints no link', async () => {
    const run = await loupe('admin', 'reset-password', 'nobody@example.test');
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /No account has the email nobody@example\.test/);
  });
});
