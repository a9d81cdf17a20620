import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { scopes } from '@loupe/contract';
import { addMember } from '../provisioning/provisioning.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { type HttpAnswer, nextPage, startTestServer, type TestServer } from '../testing/test-server.ts';

const KEYS = '/api/v1/keys';
const PROJECTS = '/api/images/projects';

function inOneHour(): string {
  return new Date(Date.now() + 3_600_000).toISOString();
}

for (const dialect of testDialects()) {
  describe(`API keys (${dialect})`, () => {
    let t: TestServer;

    before(async () => {
      t = await startTestServer(dialect);
    });
    after(() => t.close());

    /** Creates a key as the bootstrap owner (or with `key`), asserting 201. */
    async function createKey(body: Record<string, unknown> = { name: 'ci' }, key = t.owner.key): Promise<any> {
      const answer = await t.request('POST', KEYS, { key, body });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body;
    }

    describe('creating', () => {
      it('answers 201 with a secret that starts with loupe_', async () => {
        const answer = await t.request('POST', KEYS, { body: { name: 'deploy' } });
        assert.equal(answer.status, 201);
        assert.match(answer.body.key, /^loupe_[A-Za-z0-9_-]{20,}$/);
      });

      it('answers a prefix that is the start of the secret', async () => {
        const created = await createKey();
        assert.ok(created.prefix.length > 'loupe_'.length);
        assert.ok(created.key.startsWith(created.prefix));
        assert.ok(created.prefix.length < created.key.length);
      });

      it('answers the key of the calling user without an expiry or use yet', async () => {
        const created = await createKey({ name: 'mine' });
        assert.equal(created.name, 'mine');
        assert.equal(created.userId, t.owner.userId);
        assert.equal(created.expiresAt, null);
        assert.equal(created.lastUsedAt, null);
        assert.match(created.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      });

      it('gives each key a different secret', async () => {
        const first = await createKey();
        const second = await createKey();
        assert.notEqual(first.key, second.key);
        assert.notEqual(first.id, second.id);
      });

      it("defaults the scopes to every scope of the caller's key", async () => {
        const created = await createKey();
        assert.deepEqual([...created.scopes].sort(), [...scopes].sort());
      });

      it("defaults the scopes of a narrow key's new key to that key's scopes", async () => {
        const narrow = await createKey({ name: 'narrow', scopes: ['team:admin', 'images:read'] });
        const child = await createKey({ name: 'child' }, narrow.key);
        assert.deepEqual([...child.scopes].sort(), ['images:read', 'team:admin']);
      });

      it('keeps the scopes it is given', async () => {
        const created = await createKey({ name: 'reader', scopes: ['images:read'] });
        assert.deepEqual(created.scopes, ['images:read']);
      });

      it('refuses an unknown scope', async () => {
        const answer = await t.request('POST', KEYS, { body: { name: 'x', scopes: ['images:read', 'images:delete'] } });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors['scopes.1']);
      });

      it('refuses a scope given twice', async () => {
        const answer = await t.request('POST', KEYS, { body: { name: 'x', scopes: ['images:read', 'images:read'] } });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.scopes);
      });

      it('refuses an empty list of scopes', async () => {
        const answer = await t.request('POST', KEYS, { body: { name: 'x', scopes: [] } });
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.scopes);
      });

      it('refuses with 403 scopes that the calling key lacks', async () => {
        const narrow = await createKey({ name: 'narrow', scopes: ['team:admin', 'images:read'] });
        const answer = await t.request('POST', KEYS, {
          key: narrow.key,
          body: { name: 'wider', scopes: ['images:read', 'images:write'] },
        });
        assert.equal(answer.status, 403);
        assert.equal(answer.body.code, 'forbidden');
        assert.deepEqual(answer.body.missingScopes, ['images:write']);
      });

      it('keeps an expiry in the future', async () => {
        const expiresAt = inOneHour();
        const created = await createKey({ name: 'temporary', expiresAt });
        assert.equal(created.expiresAt, expiresAt);
      });

      it('answers an expiry given with a UTC offset in UTC', async () => {
        const created = await createKey({ name: 'offset', expiresAt: '2099-06-01T12:00:00+02:00' });
        assert.equal(created.expiresAt, '2099-06-01T10:00:00.000Z');
      });

      it('refuses an expiry in the past', async () => {
        const answer = await t.request('POST', KEYS, {
          body: { name: 'x', expiresAt: new Date(Date.now() - 60_000).toISOString() },
        });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.expiresAt);
      });

      describe('made with a key that expires (issue #22, point 2)', () => {
        const inTenMinutes = () => new Date(Date.now() + 600_000).toISOString();

        it('refuses a new key without expiry with 403 forbidden, naming the latest expiry it may have', async () => {
          const brief = await createKey({ name: 'ten minutes', expiresAt: inTenMinutes() });
          const answer = await t.request('POST', KEYS, { key: brief.key, body: { name: 'forever' } });
          assert.equal(answer.status, 403, JSON.stringify(answer.body));
          assert.equal(answer.body.code, 'forbidden');
          assert.equal(answer.body.maxExpiresAt, brief.expiresAt);
        });

        it('refuses a new key that expires a millisecond after it, with 403 forbidden', async () => {
          const brief = await createKey({ name: 'ten minutes', expiresAt: inTenMinutes() });
          const later = new Date(Date.parse(brief.expiresAt) + 1).toISOString();
          const answer = await t.request('POST', KEYS, { key: brief.key, body: { name: 'later', expiresAt: later } });
          assert.equal(answer.status, 403, JSON.stringify(answer.body));
          assert.equal(answer.body.code, 'forbidden');
        });

        it('creates a key that expires when it does, or before', async () => {
          const brief = await createKey({ name: 'ten minutes', expiresAt: inTenMinutes() });
          const sooner = new Date(Date.parse(brief.expiresAt) - 60_000).toISOString();
          for (const expiresAt of [brief.expiresAt, sooner]) {
            const created = await createKey({ name: 'within', expiresAt }, brief.key);
            assert.equal(created.expiresAt, expiresAt);
          }
        });

        it('leaves a key without expiry free to create one without expiry', async () => {
          const lasting = await createKey({ name: 'lasting' });
          assert.equal((await createKey({ name: 'also lasting' }, lasting.key)).expiresAt, null);
        });
      });

      it('refuses an expiry that is not a date', async () => {
        const answer = await t.request('POST', KEYS, { body: { name: 'x', expiresAt: 'next tuesday' } });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.expiresAt);
      });

      it('refuses an expiry that is a date without a time', async () => {
        const answer = await t.request('POST', KEYS, { body: { name: 'x', expiresAt: '2099-01-01' } });
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.expiresAt);
      });

      it('accepts a one-character name', async () => {
        const created = await createKey({ name: 'k' });
        assert.equal(created.name, 'k');
      });

      it('accepts a 100-character name', async () => {
        const created = await createKey({ name: 'k'.repeat(100) });
        assert.equal(created.name, 'k'.repeat(100));
      });

      it('refuses a 101-character name', async () => {
        const answer = await t.request('POST', KEYS, { body: { name: 'k'.repeat(101) } });
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.name);
      });

      it('refuses a missing name', async () => {
        const answer = await t.request('POST', KEYS, { body: { scopes: ['images:read'] } });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.name);
      });

      it('refuses an empty name', async () => {
        const answer = await t.request('POST', KEYS, { body: { name: '' } });
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.name);
      });

      it('refuses a name of only whitespace', async () => {
        const answer = await t.request('POST', KEYS, { body: { name: '   ' } });
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.name);
      });

      it('refuses a name that is not a string', async () => {
        const answer = await t.request('POST', KEYS, { body: { name: ['ci'] } });
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.name);
      });

      it('refuses an unknown field', async () => {
        const answer = await t.request('POST', KEYS, { body: { name: 'ci', role: 'owner' } });
        assert.equal(answer.status, 400);
        assert.deepEqual(answer.body.details.fieldErrors.role, ['Unknown field.']);
      });
    });

    describe('using a new key', () => {
      it('lists image projects with it', async () => {
        const created = await createKey();
        const answer = await t.request('GET', PROJECTS, { key: created.key });
        assert.equal(answer.status, 200);
      });

      it('uses a key with a future expiry', async () => {
        const created = await createKey({ name: 'temporary', expiresAt: inOneHour() });
        const answer = await t.request('GET', PROJECTS, { key: created.key });
        assert.equal(answer.status, 200);
      });

      it('lets a key limited to images:read list projects', async () => {
        const reader = await createKey({ name: 'reader', scopes: ['images:read'] });
        const answer = await t.request('GET', PROJECTS, { key: reader.key });
        assert.equal(answer.status, 200);
      });

      it('refuses a key limited to images:read a project create with 403 forbidden', async () => {
        const reader = await createKey({ name: 'reader', scopes: ['images:read'] });
        const answer = await t.request('POST', PROJECTS, { key: reader.key, body: { name: 'Nope' } });
        assert.equal(answer.status, 403);
        assert.equal(answer.body.code, 'forbidden');
        assert.deepEqual(answer.body.missingScopes, ['images:write']);
      });

      it('refuses a key without team:admin the key list', async () => {
        const worker = await createKey({ name: 'worker', scopes: ['images:read', 'images:write'] });
        const answer = await t.request('GET', KEYS, { key: worker.key });
        assert.equal(answer.status, 403);
        assert.equal(answer.body.code, 'forbidden');
      });

      it('acts on the image API in the workspace named when it was created', async () => {
        const second = await t.createWorkspace({ plan: 'business' });
        await addMember(t.server.database, { workspaceId: second.workspaceId, email: 'owner@localhost', role: 'admin' });
        const inSecond = await t.request('POST', KEYS, { team: second.workspaceId, body: { name: 'in second' } });
        assert.equal(inSecond.status, 201);
        const project = await t.request('POST', PROJECTS, { key: inSecond.body.key, body: { name: 'Second' } });
        assert.equal(project.status, 201);
        const seenBySecond = await t.request('GET', `${PROJECTS}/${project.body.id}`, { key: second.key });
        assert.equal(seenBySecond.status, 200);
        const seenByFirst = await t.request('GET', `${PROJECTS}/${project.body.id}`);
        assert.equal(seenByFirst.status, 404);
      });
    });

    describe('listing', () => {
      it('never shows the secret', async () => {
        const created = await createKey({ name: 'secretive' });
        const answer = await t.request('GET', `${KEYS}?limit=100`);
        assert.equal(answer.status, 200);
        const listed = answer.body.find((key: any) => key.id === created.id);
        assert.ok(listed);
        assert.equal('key' in listed, false);
        assert.equal(JSON.stringify(answer.body).includes(created.key), false);
      });

      it('shows the name, prefix and scopes the key was created with', async () => {
        const created = await createKey({ name: 'described', scopes: ['images:read', 'team:admin'] });
        const answer = await t.request('GET', `${KEYS}?limit=100`);
        const listed = answer.body.find((key: any) => key.id === created.id);
        const { key: _secret, ...withoutSecret } = created;
        assert.deepEqual(listed, withoutSecret);
      });

      it("lists only the workspace's own keys", async () => {
        const other = await t.createWorkspace();
        const answer = await t.request('GET', KEYS, { key: other.key, team: other.workspaceId });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.length, 1);
        assert.equal(answer.body[0].userId, other.userId);
      });

      it('pages with limit=1 by following the rel="next" link to the last page', async () => {
        const other = await t.createWorkspace();
        const options = { key: other.key, team: other.workspaceId };
        const ids: string[] = [];
        for (const name of ['a', 'b', 'c']) {
          const answer = await t.request('POST', KEYS, { ...options, body: { name } });
          ids.push(answer.body.id);
        }
        const seen: string[] = [];
        let path: string | undefined = `${KEYS}?limit=1`;
        while (path !== undefined) {
          const answer: HttpAnswer = await t.request('GET', path, options);
          assert.equal(answer.status, 200);
          assert.equal(answer.body.length, 1);
          seen.push(answer.body[0].id);
          path = nextPage(answer);
        }
        assert.equal(seen.length, 4);
        assert.deepEqual(seen.slice(1), ids);
      });

      it('refuses limit=0', async () => {
        const answer = await t.request('GET', `${KEYS}?limit=0`);
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.limit);
      });

      it('refuses limit=101', async () => {
        const answer = await t.request('GET', `${KEYS}?limit=101`);
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.limit);
      });

      it('refuses a cursor that did not come from a previous page', async () => {
        const answer = await t.request('GET', `${KEYS}?cursor=bogus`);
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.cursor);
      });
    });

    describe('revoking', () => {
      it('answers { deleted: true }', async () => {
        const created = await createKey();
        const answer = await t.request('DELETE', `${KEYS}/${created.id}`);
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, { deleted: true });
      });

      it('makes the revoked key answer 401 with a WWW-Authenticate Bearer challenge', async () => {
        const created = await createKey();
        assert.equal((await t.request('GET', PROJECTS, { key: created.key })).status, 200);
        await t.request('DELETE', `${KEYS}/${created.id}`);
        const answer = await t.request('GET', PROJECTS, { key: created.key });
        assert.equal(answer.status, 401);
        assert.equal(answer.body.code, 'unauthorized');
        assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer\b/);
      });

      it('removes the key from the list', async () => {
        const created = await createKey();
        await t.request('DELETE', `${KEYS}/${created.id}`);
        const answer = await t.request('GET', `${KEYS}?limit=100`);
        assert.equal(
          answer.body.some((key: any) => key.id === created.id),
          false,
        );
      });

      it('answers 404 when the key is revoked a second time', async () => {
        const created = await createKey();
        await t.request('DELETE', `${KEYS}/${created.id}`);
        const again = await t.request('DELETE', `${KEYS}/${created.id}`);
        assert.equal(again.status, 404);
        assert.equal(again.body.code, 'not_found');
      });

      it("answers 404 for another workspace's key and leaves it working", async () => {
        const other = await t.createWorkspace();
        const theirs = await t.request('POST', KEYS, { key: other.key, team: other.workspaceId, body: { name: 'x' } });
        assert.equal(theirs.status, 201);
        const answer = await t.request('DELETE', `${KEYS}/${theirs.body.id}`);
        assert.equal(answer.status, 404);
        assert.equal(answer.body.code, 'not_found');
        assert.equal((await t.request('GET', PROJECTS, { key: theirs.body.key })).status, 200);
      });

      it('answers 404 for an unknown key id', async () => {
        const answer = await t.request('DELETE', `${KEYS}/${randomUUID()}`);
        assert.equal(answer.status, 404);
        assert.equal(answer.body.code, 'not_found');
      });

      it('answers 400 for a key id that is not a UUID', async () => {
        const answer = await t.request('DELETE', `${KEYS}/not-a-uuid`);
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.keyId);
      });

      it('lets an admin revoke a key of another member of the workspace', async () => {
        const created = await createKey();
        const admin = await t.createMemberKey(t.owner.workspaceId, 'admin');
        const answer = await t.request('DELETE', `${KEYS}/${created.id}`, { key: admin });
        assert.equal(answer.status, 200);
      });
    });

    describe('roles', () => {
      let member: string;
      let viewer: string;
      before(async () => {
        member = await t.createMemberKey(t.owner.workspaceId, 'member');
        viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
      });

      it('lets an admin create a key', async () => {
        const admin = await t.createMemberKey(t.owner.workspaceId, 'admin');
        const answer = await t.request('POST', KEYS, { key: admin, body: { name: 'by admin' } });
        assert.equal(answer.status, 201);
      });

      for (const role of ['member', 'viewer'] as const) {
        const keyOf = () => (role === 'member' ? member : viewer);

        it(`refuses a ${role} the key list with 403 forbidden`, async () => {
          const answer = await t.request('GET', KEYS, { key: keyOf() });
          assert.equal(answer.status, 403);
          assert.equal(answer.body.code, 'forbidden');
        });

        it(`refuses a ${role} a new key with 403 forbidden`, async () => {
          const answer = await t.request('POST', KEYS, { key: keyOf(), body: { name: 'mine' } });
          assert.equal(answer.status, 403);
          assert.equal(answer.body.code, 'forbidden');
        });

        it(`refuses a ${role} a revocation with 403 forbidden and the key stays`, async () => {
          const created = await createKey();
          const answer = await t.request('DELETE', `${KEYS}/${created.id}`, { key: keyOf() });
          assert.equal(answer.status, 403);
          assert.equal(answer.body.code, 'forbidden');
          assert.equal((await t.request('GET', PROJECTS, { key: created.key })).status, 200);
        });
      }
    });
  });
}
