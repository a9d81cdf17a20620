import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { nextPage, type RequestOptions, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { compileStoredPack } from './compile-stored-pack.ts';
import { exampleRules } from './example-rules.ts';
import { htmlSubject } from './html-subject.ts';
import { evaluateRule } from './rule-evaluator.ts';

const PACKS = '/api/v1/rule-packs';

function rule(overrides: Record<string, unknown> = {}) {
  return {
    id: 'content/house-word-floor',
    title: 'Thin page',
    category: 'content',
    severity: 'notice',
    when: { type: 'metric', metric: 'wordCount', cmp: { op: 'lt', value: 100 } },
    message: '{{path}} has {{value}} words',
    ...overrides,
  };
}

function pack(rules: unknown[] = [rule()]) {
  return { schema: 'loupe.rules/v1', name: 'house rules', rules };
}

/** `when` nested `levels` deep: groups down to a condition on the last level. */
function nested(levels: number): Record<string, unknown> {
  let when: Record<string, unknown> = { type: 'status', class: ['2xx'] };
  for (let level = 1; level < levels; level++) when = level % 2 ? { not: when } : { all: [when] };
  return when;
}

for (const dialect of testDialects()) {
  describe(`rule packs API (${dialect})`, () => {
    let t: TestServer;
    let pro: TestWorkspace;
    let other: TestWorkspace;

    before(async () => {
      t = await startTestServer(dialect);
      pro = await t.createWorkspace({ plan: 'pro' });
      other = await t.createWorkspace({ plan: 'business' });
    });
    after(() => t.close());

    /** A request in the pro workspace, as its owner unless told otherwise. */
    const call = (method: string, path: string, options: RequestOptions = {}) =>
      t.request(method, path, { key: pro.key, team: pro.workspaceId, ...options });

    async function create(body: Record<string, unknown> = {}) {
      const answer = await call('POST', PACKS, { body: { name: `pack ${randomUUID()}`, pack: pack(), ...body } });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body;
    }

    function assertInvalid(answer: { status: number; body: any }, field: string, pattern?: RegExp) {
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.body.code, 'validation_failed');
      const messages: string[] | undefined = answer.body.details.fieldErrors[field];
      assert.ok(messages, `no error at ${field}: ${JSON.stringify(answer.body.details)}`);
      if (pattern)
        assert.ok(
          messages.some((m) => pattern.test(m)),
          messages.join(' | '),
        );
    }

    describe('creating and reading', () => {
      it('answers 201 with the pack as stored, every default filled in', async () => {
        const created = await create({ name: 'House rules', description: 'Ours' });
        assert.equal(created.name, 'House rules');
        assert.equal(created.description, 'Ours');
        assert.equal(created.ruleCount, 1);
        assert.equal(created.createdAt, created.updatedAt);
        const stored = created.pack.rules[0];
        assert.deepEqual(stored.scope, {
          include: ['**'],
          exclude: [],
          contentTypes: ['text/html'],
          statuses: ['2xx'],
          indexableOnly: false,
        });
        assert.equal(stored.enabled, true);
        const read = await call('GET', `${PACKS}/${created.id}`);
        assert.equal(read.status, 200);
        assert.deepEqual(read.body, created);
      });

      it('stores the three example rules of the catalogue', async () => {
        const created = await create({ pack: pack(exampleRules) });
        assert.equal(created.ruleCount, 3);
        assert.deepEqual(
          created.pack.rules.map((r: { id: string }) => r.id),
          exampleRules.map((r) => r.id),
        );
        assert.equal(created.pack.rules[1].when.all[1].test.quantifier, 'none');
        assert.equal(created.pack.rules[0].when.all[1].any[1].dom, 'raw');
      });

      it('stored packs go back in unchanged: what GET answers is a valid body', async () => {
        const created = await create({ pack: pack(exampleRules) });
        const replaced = await call('PUT', `${PACKS}/${created.id}`, { body: { name: created.name, pack: created.pack } });
        assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
        assert.deepEqual(replaced.body.pack, created.pack);
      });

      it("lists summaries oldest first, paged, without rules or other workspaces' packs", async () => {
        const workspace = await t.createWorkspace({ plan: 'pro' });
        const names = ['a', 'b', 'c'];
        for (const name of names) {
          const answer = await t.request('POST', PACKS, { key: workspace.key, team: workspace.workspaceId, body: { name, pack: pack() } });
          assert.equal(answer.status, 201);
        }
        await t.request('POST', PACKS, { key: other.key, team: other.workspaceId, body: { name: 'theirs', pack: pack() } });
        const first = await t.request('GET', `${PACKS}?limit=2`, { key: workspace.key, team: workspace.workspaceId });
        assert.equal(first.status, 200);
        assert.deepEqual(
          first.body.map((p: { name: string }) => p.name),
          ['a', 'b'],
        );
        assert.deepEqual(Object.keys(first.body[0]).sort(), ['createdAt', 'description', 'id', 'name', 'ruleCount', 'updatedAt']);
        const next = nextPage(first);
        assert.ok(next);
        const second = await t.request('GET', next, { key: workspace.key, team: workspace.workspaceId });
        assert.deepEqual(
          second.body.map((p: { name: string }) => p.name),
          ['c'],
        );
        assert.equal(nextPage(second), undefined);
      });

      it('an empty workspace lists no packs', async () => {
        const answer = await t.request('GET', PACKS);
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, []);
      });
    });

    describe('compiling saved packs', () => {
      it('compiles a saved pack for evaluation, in its own workspace only', async () => {
        const created = await create({ pack: pack([...exampleRules, rule({ enabled: false })]) });
        const compiled = await compileStoredPack(t.server.database, pro.workspaceId, created.id);
        assert.equal(compiled.ruleCount, 4);
        assert.deepEqual(
          compiled.rules.map((r) => r.definition.id),
          exampleRules.map((r) => r.id),
        );
        const page = htmlSubject({
          url: 'https://shop.test/account',
          html: '<title>Account</title><p>Hi</p>',
          headers: { 'cache-control': 'public' },
        });
        assert.equal(evaluateRule(compiled.rules[2]!, page).outcome, 'fired');
        await assert.rejects(compileStoredPack(t.server.database, other.workspaceId, created.id), { code: 'not_found' });
      });
    });

    describe('attaching to audit projects', () => {
      it("lets a project attach the workspace's own packs only (another workspace's is a 404)", async () => {
        const created = await create();
        const theirs = await t.request('POST', PACKS, { key: other.key, team: other.workspaceId, body: { name: 'attach', pack: pack() } });
        const project = { name: 'Site', siteUrl: 'https://example.com/' };
        const mine = await call('POST', '/api/v1/projects', { body: { ...project, rulePackIds: [created.id] } });
        assert.equal(mine.status, 201, JSON.stringify(mine.body));
        assert.deepEqual(mine.body.rulePackIds, [created.id]);
        const foreign = await call('POST', '/api/v1/projects', { body: { ...project, rulePackIds: [created.id, theirs.body.id] } });
        assert.equal(foreign.status, 404);
        assert.deepEqual(foreign.body.missingRulePackIds, [theirs.body.id]);
      });
    });

    describe('names', () => {
      it('refuses a second pack with the same name in the workspace: 409 rule_pack_name_taken', async () => {
        await create({ name: 'Unique' });
        const again = await call('POST', PACKS, { body: { name: 'Unique', pack: pack() } });
        assert.equal(again.status, 409);
        assert.equal(again.body.code, 'rule_pack_name_taken');
      });

      it('lets another workspace use the same name', async () => {
        await create({ name: 'Shared name' });
        const answer = await t.request('POST', PACKS, {
          key: other.key,
          team: other.workspaceId,
          body: { name: 'Shared name', pack: pack() },
        });
        assert.equal(answer.status, 201);
      });

      it('refuses renaming a pack to a name taken by another: 409', async () => {
        await create({ name: 'Taken' });
        const mine = await create({ name: 'Mine' });
        const answer = await call('PUT', `${PACKS}/${mine.id}`, { body: { name: 'Taken', pack: pack() } });
        assert.equal(answer.status, 409);
        assert.equal(answer.body.code, 'rule_pack_name_taken');
      });

      it('takes names of 1 to 100 characters', async () => {
        await create({ name: 'x' });
        await create({ name: 'n'.repeat(100) });
        assertInvalid(await call('POST', PACKS, { body: { name: '', pack: pack() } }), 'name');
        assertInvalid(await call('POST', PACKS, { body: { name: 'n'.repeat(101), pack: pack() } }), 'name');
        assertInvalid(await call('POST', PACKS, { body: { name: 7, pack: pack() } }), 'name');
      });
    });

    describe('replacing and deleting', () => {
      it('replaces name, description and rules, keeping the id and creation time', async () => {
        const created = await create({ description: 'old' });
        const answer = await call('PUT', `${PACKS}/${created.id}`, {
          body: { name: 'Renamed', pack: pack([rule(), rule({ id: 'content/house-word-floor-2', enabled: false })]) },
        });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(answer.body.id, created.id);
        assert.equal(answer.body.name, 'Renamed');
        assert.equal(answer.body.description, null);
        assert.equal(answer.body.ruleCount, 2);
        assert.equal(answer.body.createdAt, created.createdAt);
        assert.ok(answer.body.updatedAt >= created.updatedAt);
        assert.deepEqual((await call('GET', `${PACKS}/${created.id}`)).body, answer.body);
      });

      it('deletes a pack: 200 { deleted: true }, then 404', async () => {
        const created = await create();
        const answer = await call('DELETE', `${PACKS}/${created.id}`);
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, { deleted: true });
        assert.equal((await call('GET', `${PACKS}/${created.id}`)).status, 404);
        assert.equal((await call('DELETE', `${PACKS}/${created.id}`)).status, 404);
      });

      it('answers 404 for an unknown id, and for a pack of another workspace whatever the verb', async () => {
        const created = await create();
        const asOther = { key: other.key, team: other.workspaceId };
        for (const [method, body] of [['GET'], ['PUT', { name: 'x', pack: pack() }], ['DELETE']] as const) {
          const answer = await t.request(method, `${PACKS}/${created.id}`, { ...asOther, body });
          assert.equal(answer.status, 404, method);
          assert.equal(answer.body.code, 'not_found');
        }
        assert.equal((await call('GET', `${PACKS}/${randomUUID()}`)).status, 404);
        assert.equal((await call('PUT', `${PACKS}/${randomUUID()}`, { body: { name: 'x', pack: pack() } })).status, 404);
        assertInvalid(await call('GET', `${PACKS}/not-a-uuid`), 'packId');
        assert.equal((await call('GET', `${PACKS}/${created.id}`)).status, 200);
      });
    });

    describe('plans and roles', () => {
      it('answers 402 plan_feature_unavailable to creating on the free plan, and lets it list and validate', async () => {
        const free = await t.createWorkspace({ plan: 'free' });
        const asFree = { key: free.key, team: free.workspaceId };
        const post = await t.request('POST', PACKS, { ...asFree, body: { name: 'x', pack: pack() } });
        assert.equal(post.status, 402);
        assert.equal(post.body.code, 'plan_feature_unavailable');
        assert.equal(post.body.feature, 'customRulePacks');
        assert.equal((await t.request('GET', PACKS, asFree)).status, 200);
        const validated = await t.request('POST', `${PACKS}/validate`, { ...asFree, body: { pack: pack() } });
        assert.deepEqual(validated.body, { valid: true, ruleCount: 1 });
      });

      it('keeps the packs of a workspace moved down to free readable and deletable, but not replaceable (402)', async () => {
        const downgraded = await t.createWorkspace({ plan: 'pro' });
        const as = { key: downgraded.key, team: downgraded.workspaceId };
        const created = await t.request('POST', PACKS, { ...as, body: { name: 'x', pack: pack() } });
        assert.equal(created.status, 201);
        await new WorkspaceStore(t.server.database).setPlan(downgraded.workspaceId, 'free', new Date().toISOString());
        const put = await t.request('PUT', `${PACKS}/${created.body.id}`, { ...as, body: { name: 'y', pack: pack() } });
        assert.equal(put.status, 402);
        assert.equal(put.body.code, 'plan_feature_unavailable');
        assert.equal((await t.request('GET', `${PACKS}/${created.body.id}`, as)).body.name, 'x');
        assert.equal((await t.request('DELETE', `${PACKS}/${created.body.id}`, as)).status, 200);
      });

      it('answers 402 on the bootstrap workspace, which is on the free plan', async () => {
        const answer = await t.request('POST', PACKS, { body: { name: 'x', pack: pack() } });
        assert.equal(answer.status, 402);
      });

      it('lets viewers read and list, but not create, replace, delete or validate (403)', async () => {
        const created = await create();
        const viewer = await t.createMemberKey(pro.workspaceId, 'viewer');
        assert.equal((await call('GET', PACKS, { key: viewer })).status, 200);
        assert.equal((await call('GET', `${PACKS}/${created.id}`, { key: viewer })).status, 200);
        for (const [method, path, body] of [
          ['POST', PACKS, { name: 'v', pack: pack() }],
          ['POST', `${PACKS}/validate`, { pack: pack() }],
          ['PUT', `${PACKS}/${created.id}`, { name: 'v', pack: pack() }],
          ['DELETE', `${PACKS}/${created.id}`, undefined],
        ] as const) {
          const answer = await call(method, path, { key: viewer, body });
          assert.equal(answer.status, 403, `${method} ${path}`);
          assert.equal(answer.body.code, 'forbidden');
        }
      });

      it('lets members, admins and owners write', async () => {
        for (const role of ['member', 'admin', 'owner'] as const) {
          const key = await t.createMemberKey(pro.workspaceId, role);
          const answer = await call('POST', PACKS, { key, body: { name: `by ${role}`, pack: pack() } });
          assert.equal(answer.status, 201, role);
          assert.equal((await call('DELETE', `${PACKS}/${answer.body.id}`, { key })).status, 200, role);
        }
      });

      it('answers 401 without a key', async () => {
        assert.equal((await call('GET', PACKS, { key: null })).status, 401);
        assert.equal((await call('POST', `${PACKS}/validate`, { key: null, body: { pack: pack() } })).status, 401);
      });
    });

    describe('validation', () => {
      const validate = (rules: unknown[]) => call('POST', `${PACKS}/validate`, { body: { pack: pack(rules) } });

      it('answers { valid: true, ruleCount } for a good pack, counting disabled rules', async () => {
        const answer = await validate([...exampleRules, rule({ enabled: false })]);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.deepEqual(answer.body, { valid: true, ruleCount: 4 });
      });

      it('points a schema error deep in a condition at its dotted path', async () => {
        const when = {
          all: [
            { type: 'status', class: ['2xx'] },
            { type: 'selector', selector: 'img', test: { op: 'count', cmp: { op: 'gt', value: 'many' } } },
          ],
        };
        assertInvalid(
          await validate([rule(), rule({ id: 'images/x' }), rule({ id: 'images/y', when })]),
          'pack.rules.2.when.all.1.test.cmp.value',
        );
      });

      it('names an unknown condition type at its type field', async () => {
        assertInvalid(
          await validate([rule({ when: { any: [{ type: 'colour' }] } })]),
          'pack.rules.0.when.any.0.type',
          /selector, header, status, text or metric/,
        );
      });

      it('refuses a string test with two of equals, contains, matches', async () => {
        const when = { type: 'text', str: { contains: 'a', matches: 'b' } };
        assertInvalid(await validate([rule({ when })]), 'pack.rules.0.when.str', /exactly one/);
      });

      it('refuses unknown fields at any depth', async () => {
        assertInvalid(await call('POST', PACKS, { body: { name: 'x', pack: pack(), colour: 'red' } }), 'colour');
        assertInvalid(
          await validate([rule({ when: { all: [{ type: 'status', class: ['2xx'], extra: 1 }] } })]),
          'pack.rules.0.when.all.0.extra',
        );
        assertInvalid(await validate([rule({ when: { not: { type: 'status', class: ['2xx'] }, all: [] } })]), 'pack.rules.0.when.all');
      });

      it('answers 400 for a missing or mistyped pack', async () => {
        assertInvalid(await call('POST', PACKS, { body: { name: 'x' } }), 'pack');
        assertInvalid(await call('POST', PACKS, { body: { name: 'x', pack: 'rules' } }), 'pack');
        assertInvalid(await call('POST', PACKS, { body: { name: 'x', pack: { ...pack(), schema: 'v2' } } }), 'pack.schema');
        assertInvalid(await validate([rule({ id: 'NoCategory' })]), 'pack.rules.0.id');
      });

      it('takes groups nested 8 levels deep and refuses a ninth', async () => {
        assert.equal((await validate([rule({ when: nested(8) })])).status, 200);
        const answer = await validate([rule({ when: nested(9) })]);
        assert.equal(answer.status, 400);
        // The group on level 8 may not hold another: the error sits at its `not`.
        assertInvalid(answer, 'pack.rules.0.when.all.0.not.all.0.not.all.0.not.all.0.not', /at most 8 levels deep/);
      });

      it('answers 400, not a stack overflow, to a condition nested thousands deep', async () => {
        // Written out by hand: JSON.stringify itself overflows on such a value.
        const depth = 20_000;
        const when = `${'{"not":'.repeat(depth)}{"type":"status","class":["2xx"]}${'}'.repeat(depth)}`;
        const body = JSON.stringify({ pack: pack([rule({ when: 'WHEN' })]) }).replace('"WHEN"', when);
        const answer = await call('POST', `${PACKS}/validate`, { body });
        assert.equal(answer.status, 400);
        assert.match(JSON.stringify(answer.body.details), /at most 8 levels deep/);
      });

      it('takes 1 to 32 children in a group', async () => {
        const child = { type: 'status', class: ['2xx'] };
        assert.equal((await validate([rule({ when: { any: [child] } })])).status, 200);
        assert.equal((await validate([rule({ when: { any: Array(32).fill(child) } })])).status, 200);
        assertInvalid(await validate([rule({ when: { any: Array(33).fill(child) } })]), 'pack.rules.0.when.any');
        assertInvalid(await validate([rule({ when: { any: [] } })]), 'pack.rules.0.when.any');
      });

      it('takes up to 500 rules in a pack', async () => {
        const rules = (n: number) => Array.from({ length: n }, (_, i) => rule({ id: `content/r${i}` }));
        assert.deepEqual((await validate(rules(500))).body, { valid: true, ruleCount: 500 });
        assertInvalid(await validate(rules(501)), 'pack.rules');
        assert.deepEqual((await validate([])).body, { valid: true, ruleCount: 0 });
      });
    });

    describe('compile errors', () => {
      const validate = (rules: unknown[]) => call('POST', `${PACKS}/validate`, { body: { pack: pack(rules) } });

      it('points a CSS selector that cannot be compiled at its selector field', async () => {
        const when = { type: 'selector', selector: 'div[', test: { op: 'exists' } };
        assertInvalid(await validate([rule({ when })]), 'pack.rules.0.when.selector', /CSS selector/);
      });

      it('points an expression RE2 rejects (lookaround, backreference, bad syntax) at its matches field', async () => {
        const text = (matches: string) => ({ type: 'text', str: { matches } });
        const answer = await validate([
          rule({ id: 'content/a', when: { all: [text('(?=x)y')] } }),
          rule({ id: 'content/b', when: { type: 'header', name: 'link', test: { op: 'value', str: { matches: '(a)\\1' } } } }),
          rule({ id: 'content/c', when: { type: 'selector', selector: 'p', test: { op: 'text', str: { matches: '(unclosed' } } } }),
        ]);
        assertInvalid(answer, 'pack.rules.0.when.all.0.str.matches', /RE2/);
        assertInvalid(answer, 'pack.rules.1.when.test.str.matches', /RE2/);
        assertInvalid(answer, 'pack.rules.2.when.test.str.matches', /RE2/);
      });

      it('points an unknown placeholder at the message', async () => {
        assertInvalid(await validate([rule({ message: 'Bad {{title}}' })]), 'pack.rules.0.message', /\{\{title\}\}/);
        assertInvalid(await validate([rule({ message: 'Bad {{metric.speed}}' })]), 'pack.rules.0.message');
        assert.equal((await validate([rule({ message: '{{ url }} {{metric.ttfbMs}} {{rule.id}}' })])).status, 200);
      });

      it('refuses a rule id used twice, and the id of a built-in check', async () => {
        const answer = await validate([rule(), rule(), rule({ id: 'titles/missing' })]);
        assertInvalid(answer, 'pack.rules.1.id', /already used by rules\.0/);
        assertInvalid(answer, 'pack.rules.2.id', /built-in/);
        assert.equal(answer.body.details.fieldErrors['pack.rules.0.id'], undefined);
      });

      it('refuses a negated scope glob', async () => {
        assertInvalid(await validate([rule({ scope: { exclude: ['/ok/**', '!/admin/**'] } })]), 'pack.rules.0.scope.exclude.1', /exclude/);
      });

      it('gives creating and replacing the same answers as validating', async () => {
        const bad = pack([rule({ when: { type: 'selector', selector: 'a:nope', test: { op: 'exists' } } })]);
        assertInvalid(await call('POST', PACKS, { body: { name: 'bad', pack: bad } }), 'pack.rules.0.when.selector', /:nope/);
        const created = await create();
        assertInvalid(await call('PUT', `${PACKS}/${created.id}`, { body: { name: 'bad', pack: bad } }), 'pack.rules.0.when.selector');
        assert.equal((await call('GET', `${PACKS}/${created.id}`)).body.name, created.name);
      });
    });
  });
}
