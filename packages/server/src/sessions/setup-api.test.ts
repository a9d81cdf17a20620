import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sessionPaths } from '@loupe/contract';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { addPasswordMember, sessionCookieOf, TEST_PASSWORD } from './test-session.ts';

const owner = { name: 'Olga Owner', email: 'Olga@Example.test', password: TEST_PASSWORD };

for (const dialect of testDialects()) {
  describe(`first run (${dialect})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(dialect);
    });
    after(() => t.close());

    it('says the first run is needed while nobody has a password', async () => {
      const answer = await t.request('GET', sessionPaths.setup, { key: null });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { needed: true });
    });

    it('refuses a short password with a field error and changes nothing', async () => {
      const answer = await t.request('POST', sessionPaths.setup, { key: null, body: { ...owner, password: 'short' } });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'validation_failed');
      assert.deepEqual(Object.keys(answer.body.details.fieldErrors), ['password']);
      assert.deepEqual((await t.request('GET', sessionPaths.setup, { key: null })).body, { needed: true });
    });

    it('refuses a sign-in from another site', async () => {
      const answer = await t.request('POST', sessionPaths.setup, { key: null, body: owner, headers: { origin: 'https://evil.example' } });
      assert.equal(answer.status, 403);
      assert.equal(answer.body.code, 'csrf_failed');
    });

    it('gives the bootstrap owner the email, name and password, renames the workspace, and signs them in', async () => {
      const answer = await t.request('POST', sessionPaths.setup, { key: null, body: { ...owner, workspaceName: 'Acme' } });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.ok(sessionCookieOf(answer));
      assert.deepEqual(answer.body.user, { id: t.owner.userId, email: 'olga@example.test', name: 'Olga Owner' });
      assert.deepEqual(answer.body.workspaces, [{ id: t.owner.workspaceId, name: 'Acme', plan: 'free', role: 'owner' }]);
      // The owner's bootstrap key keeps working.
      assert.equal((await t.request('GET', '/api/v1/team')).body.name, 'Acme');
    });

    it('answers needed: false once it is done', async () => {
      assert.deepEqual((await t.request('GET', sessionPaths.setup, { key: null })).body, { needed: false });
    });

    it('refuses a second first run with 409 already_set_up', async () => {
      const answer = await t.request('POST', sessionPaths.setup, { key: null, body: { ...owner, email: 'mallory@example.test' } });
      assert.equal(answer.status, 409);
      assert.equal(answer.body.code, 'already_set_up');
      const signIn = await t.request('POST', sessionPaths.session, {
        key: null,
        body: { email: 'mallory@example.test', password: TEST_PASSWORD },
      });
      assert.equal(signIn.status, 401);
    });
  });

  describe(`first run, raced (${dialect})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(dialect);
    });
    after(() => t.close());

    it('lets exactly one of two simultaneous first runs through', async () => {
      const answers = await Promise.all(
        ['first@example.test', 'second@example.test'].map((email) =>
          t.request('POST', sessionPaths.setup, { key: null, body: { ...owner, email } }),
        ),
      );
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409]);
    });
  });

  describe(`first run after an invited member set a password (${dialect})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(dialect);
    });
    after(() => t.close());

    it('is over: the first password closes it, whoever set it', async () => {
      await addPasswordMember(t, t.owner.workspaceId, t.owner.key, 'member');
      assert.deepEqual((await t.request('GET', sessionPaths.setup, { key: null })).body, { needed: false });
      const answer = await t.request('POST', sessionPaths.setup, { key: null, body: owner });
      assert.equal(answer.status, 409);
    });
  });
}
