import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';

const webhook = (url = 'https://hooks.example.com/loupe', extra: Record<string, unknown> = {}) => ({ type: 'webhook', url, ...extra });
const email = (to: string[] = ['ops@example.com'], extra: Record<string, unknown> = {}) => ({ type: 'email', to, ...extra });
const noConditions = { crawlFailed: false, scoreBelow: null, scoreDropBy: null, newErrors: false };

for (const dialect of testDialects()) {
  describe(`alert settings (${dialect})`, () => {
    let t: TestServer;
    let other: TestWorkspace;

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      other = await t.createWorkspace();
    });
    after(() => t.close());

    async function createProject(options: { key?: string; team?: string } = {}): Promise<string> {
      const answer = await t.request('POST', '/api/v1/projects', {
        body: { name: 'Docs', siteUrl: 'https://docs.example.com/' },
        ...options,
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.id;
    }

    const alertsOf = (projectId: string) => `/api/v1/projects/${projectId}/alerts`;

    async function put(projectId: string, body: Record<string, unknown>, options: { key?: string; team?: string } = {}) {
      return t.request('PUT', alertsOf(projectId), { body: { enabled: true, conditions: {}, channels: [], ...body }, ...options });
    }

    describe('reading and replacing', () => {
      it('answers the defaults for a project whose settings were never saved: disabled, nothing on, no channels', async () => {
        const projectId = await createProject();
        const answer = await t.request('GET', alertsOf(projectId));
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, { projectId, enabled: false, conditions: noConditions, channels: [], updatedAt: null });
      });

      it('saves conditions and channels and answers them as GET then does', async () => {
        const projectId = await createProject();
        const conditions = { crawlFailed: true, scoreBelow: 70, scoreDropBy: 5, newErrors: true };
        const saved = await put(projectId, { conditions, channels: [webhook(), email(['a@example.com', 'b@example.com'])] });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
        assert.equal(saved.body.enabled, true);
        assert.deepEqual(saved.body.conditions, conditions);
        assert.equal(saved.body.channels.length, 2);
        assert.deepEqual(saved.body.channels[1], { id: saved.body.channels[1].id, type: 'email', to: ['a@example.com', 'b@example.com'] });
        assert.ok(saved.body.updatedAt);
        const read = await t.request('GET', alertsOf(projectId));
        const { secret: _secret, ...hook } = saved.body.channels[0];
        assert.deepEqual(read.body, { ...saved.body, channels: [hook, saved.body.channels[1]] });
      });

      it('generates a webhook secret when none is given and shows it in that answer only', async () => {
        const projectId = await createProject();
        const saved = await put(projectId, { channels: [webhook()] });
        const [channel] = saved.body.channels;
        assert.match(channel.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
        assert.equal(channel.secretPreview, `${channel.secret.slice(0, 10)}…`);
        const read = await t.request('GET', alertsOf(projectId));
        assert.equal(read.body.channels[0].secret, undefined);
        assert.equal(read.body.channels[0].secretPreview, channel.secretPreview);
      });

      it('keeps a webhook and its secret when it is sent again with its id, and replaces the secret only when asked', async () => {
        const projectId = await createProject();
        const first = (await put(projectId, { channels: [webhook()] })).body.channels[0];
        const kept = await put(projectId, { channels: [webhook('https://hooks.example.com/moved', { id: first.id }), email()] });
        assert.equal(kept.status, 200);
        assert.equal(kept.body.channels[0].id, first.id);
        assert.equal(kept.body.channels[0].url, 'https://hooks.example.com/moved');
        assert.equal(kept.body.channels[0].secretPreview, first.secretPreview);
        assert.equal(kept.body.channels[0].secret, undefined);
        assert.notEqual(kept.body.channels[1].id, first.id);

        const given = await put(projectId, { channels: [webhook(undefined, { id: first.id, secret: 'my-own-secret-0123' })] });
        assert.equal(given.body.channels[0].id, first.id);
        assert.equal(given.body.channels[0].secretPreview, 'my-o…');
        assert.equal(given.body.channels[0].secret, undefined, 'a secret the caller chose is not echoed');
      });

      it('gives a webhook sent without an id a new id and a new secret', async () => {
        const projectId = await createProject();
        const first = (await put(projectId, { channels: [webhook()] })).body.channels[0];
        const again = (await put(projectId, { channels: [webhook()] })).body.channels[0];
        assert.notEqual(again.id, first.id);
        assert.notEqual(again.secret, first.secret);
      });

      it('refuses an id that is not a channel of the same type in the current settings', async () => {
        const projectId = await createProject();
        const saved = await put(projectId, { channels: [email()] });
        const emailId = saved.body.channels[0].id;
        for (const channel of [webhook(undefined, { id: emailId }), email(undefined, { id: randomUUID() })]) {
          const answer = await put(projectId, { channels: [email(['x@example.com']), channel] });
          assert.equal(answer.status, 400, JSON.stringify(channel));
          assert.ok(answer.body.details.fieldErrors['channels.1.id'], JSON.stringify(answer.body));
        }
        const unchanged = await t.request('GET', alertsOf(projectId));
        assert.deepEqual(unchanged.body.channels, saved.body.channels);
      });

      it('replaces everything: conditions left out are off, channels left out are gone', async () => {
        const projectId = await createProject();
        await put(projectId, { conditions: { crawlFailed: true, scoreBelow: 50 }, channels: [webhook(), email()] });
        const replaced = await put(projectId, { enabled: false, conditions: { newErrors: true }, channels: [] });
        assert.deepEqual(replaced.body.conditions, { ...noConditions, newErrors: true });
        assert.deepEqual(replaced.body.channels, []);
        assert.equal(replaced.body.enabled, false);
      });

      it('goes with its project', async () => {
        const projectId = await createProject();
        await put(projectId, { channels: [email()] });
        assert.equal((await t.request('DELETE', `/api/v1/projects/${projectId}`)).status, 200);
        assert.equal((await t.request('GET', alertsOf(projectId))).status, 404);
        assert.equal((await t.request('GET', `${alertsOf(projectId)}/deliveries`)).status, 404);
      });
    });

    describe('validation', () => {
      let projectId: string;
      before(async () => {
        projectId = await createProject();
      });

      async function refused(body: Record<string, unknown>, field: string) {
        const answer = await put(projectId, body);
        assert.equal(answer.status, 400, `${JSON.stringify(body)} → ${answer.status}`);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors[field], `${field}: ${JSON.stringify(answer.body.details)}`);
      }

      it('takes scoreBelow 0, 1 and 100 and refuses -1, 101, 1.5 and text', async () => {
        for (const scoreBelow of [0, 1, 100, null])
          assert.equal((await put(projectId, { conditions: { scoreBelow } })).status, 200, String(scoreBelow));
        for (const scoreBelow of [-1, 101, 1.5, '50']) await refused({ conditions: { scoreBelow } }, 'conditions.scoreBelow');
      });

      it('takes scoreDropBy 1 and 100 and refuses 0 and 101', async () => {
        for (const scoreDropBy of [1, 100]) assert.equal((await put(projectId, { conditions: { scoreDropBy } })).status, 200);
        for (const scoreDropBy of [0, 101]) await refused({ conditions: { scoreDropBy } }, 'conditions.scoreDropBy');
      });

      it('takes 5 channels and refuses 6', async () => {
        assert.equal((await put(projectId, { channels: Array.from({ length: 5 }, () => email()) })).status, 200);
        await refused({ channels: Array.from({ length: 6 }, () => email()) }, 'channels');
      });

      it('refuses a webhook URL that is not http(s), not a URL, or longer than 2048 characters', async () => {
        const long = `https://hooks.example.com/${'a'.repeat(2048 - 26)}`;
        assert.equal(long.length, 2048);
        assert.equal((await put(projectId, { channels: [webhook(long)] })).status, 200);
        for (const url of ['ftp://hooks.example.com/', 'not a url', `${long}a`, 42])
          await refused({ channels: [webhook(url as string)] }, 'channels.0.url');
      });

      it('takes a secret of 16 and 128 characters and refuses 15, 129 and spaces', async () => {
        for (const secret of ['s'.repeat(16), 's'.repeat(128)])
          assert.equal((await put(projectId, { channels: [webhook(undefined, { secret })] })).status, 200);
        for (const secret of ['s'.repeat(15), 's'.repeat(129), 'has spaces in the secret']) {
          await refused({ channels: [webhook(undefined, { secret })] }, 'channels.0.secret');
        }
      });

      it('takes 1 and 10 recipients and refuses 0, 11, a bad address and a repeated one', async () => {
        const addresses = (n: number) => Array.from({ length: n }, (_, i) => `ops${i}@example.com`);
        for (const n of [1, 10]) assert.equal((await put(projectId, { channels: [email(addresses(n))] })).status, 200);
        for (const to of [[], addresses(11), ['a@example.com', 'A@example.com']]) {
          await refused({ channels: [email(to)] }, 'channels.0.to');
        }
        await refused({ channels: [email(['ok@example.com', 'not-an-address'])] }, 'channels.0.to.1');
        await refused({ channels: [email(['two@example.com, three@example.com'])] }, 'channels.0.to.0');
      });

      it('refuses unknown fields at every level, an unknown channel type and missing fields', async () => {
        await refused({ colour: 'red' }, 'colour');
        await refused({ conditions: { scoreAbove: 3 } }, 'conditions.scoreAbove');
        await refused({ channels: [email(undefined, { cc: ['x@example.com'] })] }, 'channels.0.cc');
        await refused({ channels: [{ type: 'slack', url: 'https://hooks.slack.com/x' }] }, 'channels.0.type');
        for (const field of ['enabled', 'conditions', 'channels']) {
          const body: Record<string, unknown> = { enabled: true, conditions: {}, channels: [] };
          delete body[field];
          const answer = await t.request('PUT', alertsOf(projectId), { body });
          assert.equal(answer.status, 400);
          assert.ok(answer.body.details.fieldErrors[field], field);
        }
        await refused({ enabled: 'yes' }, 'enabled');
      });
    });

    describe('access', () => {
      it('lets a viewer read the settings and the log but not change them or send a test', async () => {
        const projectId = await createProject();
        const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
        assert.equal((await t.request('GET', alertsOf(projectId), { key: viewer })).status, 200);
        assert.equal((await t.request('GET', `${alertsOf(projectId)}/deliveries`, { key: viewer })).status, 200);
        const change = await put(projectId, {}, { key: viewer });
        assert.equal(change.status, 403);
        assert.equal(change.body.code, 'forbidden');
        assert.equal((await t.request('POST', `${alertsOf(projectId)}/test`, { key: viewer })).status, 403);
      });

      it('lets members, admins and owners change the settings and send a test', async () => {
        const projectId = await createProject();
        for (const role of ['member', 'admin', 'owner'] as const) {
          const key = await t.createMemberKey(t.owner.workspaceId, role);
          assert.equal((await put(projectId, {}, { key })).status, 200, role);
          const test = await t.request('POST', `${alertsOf(projectId)}/test`, { key });
          assert.equal(test.status, 202, role);
          assert.deepEqual(test.body, [], 'no channels, no deliveries');
        }
      });

      it("answers 404 for another workspace's project on every alert endpoint, and changes nothing", async () => {
        const theirs = await createProject({ key: other.key, team: other.workspaceId });
        await put(theirs, { channels: [email()] }, { key: other.key, team: other.workspaceId });
        for (const [method, path] of [
          ['GET', alertsOf(theirs)],
          ['PUT', alertsOf(theirs)],
          ['POST', `${alertsOf(theirs)}/test`],
          ['GET', `${alertsOf(theirs)}/deliveries`],
        ] as const) {
          const answer = await t.request(method, path, method === 'PUT' ? { body: { enabled: false, conditions: {}, channels: [] } } : {});
          assert.equal(answer.status, 404, `${method} ${path}`);
          assert.equal(answer.body.code, 'not_found');
        }
        const still = await t.request('GET', alertsOf(theirs), { key: other.key, team: other.workspaceId });
        assert.equal(still.body.channels.length, 1);
        const log = await t.request('GET', `${alertsOf(theirs)}/deliveries`, { key: other.key, team: other.workspaceId });
        assert.deepEqual(log.body, []);
      });

      it('answers 404 for an unknown project and 400 for an id that is not a UUID', async () => {
        assert.equal((await t.request('GET', alertsOf(randomUUID()))).status, 404);
        const bad = await t.request('GET', alertsOf('nope'));
        assert.equal(bad.status, 400);
        assert.ok(bad.body.details.fieldErrors.projectId);
      });

      it('answers 401 without a key', async () => {
        const projectId = await createProject();
        assert.equal((await t.request('GET', alertsOf(projectId), { key: null })).status, 401);
      });
    });
  });

  describe(`alert settings without private targets (${dialect})`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(dialect);
    });
    after(() => t.close());

    it('refuses a webhook to a literal loopback or private address, naming the channel', async () => {
      const created = await t.request('POST', '/api/v1/projects', { body: { name: 'Docs', siteUrl: 'https://docs.example.com/' } });
      for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]/hook', 'http://10.0.0.8/hook', 'http://169.254.169.254/latest']) {
        const answer = await t.request('PUT', `/api/v1/projects/${created.body.id}/alerts`, {
          body: { enabled: true, conditions: {}, channels: [email(), webhook(url)] },
        });
        assert.equal(answer.status, 400, url);
        assert.match(answer.body.details.fieldErrors['channels.1.url'][0], /not public/);
      }
    });
  });
}
