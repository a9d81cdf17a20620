import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { zstdCompressSync } from 'node:zlib';
import { htmlPage } from '../testing/html-page.ts';
import { followCrawlEvents } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

const placeholder = {
  id: 'content/placeholder-copy',
  title: 'Placeholder copy',
  category: 'content',
  severity: 'warning',
  when: { type: 'text', source: 'visible', str: { contains: 'lorem ipsum' } },
  message: '{{path}}: “{{match}}”',
};
const noPrice = {
  id: 'structured-data/price-without-offer',
  title: 'Price without offer',
  category: 'structured-data',
  severity: 'warning',
  enabled: false,
  scope: { include: ['/products/*'] },
  when: { type: 'selector', selector: '.price', test: { op: 'exists' } },
  message: '{{count}} price on {{path}}',
};
const rendered = {
  id: 'content/rendered-only',
  title: 'Needs rendering',
  category: 'content',
  severity: 'notice',
  when: { type: 'selector', selector: 'h1', dom: 'rendered', test: { op: 'exists' } },
  message: '{{path}}',
};
const pack = { schema: 'loupe.rules/v1', name: 'house', rules: [placeholder, noPrice, rendered] };

for (const dialect of testDialects()) {
  describe(`rule pack preview (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let pro: TestWorkspace;
    let as: { key: string; team: string };
    let projectId: string;
    let packId: string;
    let crawlId: string;

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      pro = await t.createWorkspace({ plan: 'pro' });
      as = { key: pro.key, team: pro.workspaceId };
      site = await startTestSite({
        pages: {
          '/': htmlPage({ path: '/', links: ['/draft', '/products/a', '/products/b'] }),
          '/draft': htmlPage({ path: '/draft', body: '<p>Lorem ipsum dolor sit amet.</p>', links: ['/'] }),
          '/products/a': htmlPage({ path: '/products/a', body: '<p class="price">$10</p>', links: ['/'] }),
          '/products/b': htmlPage({ path: '/products/b', links: ['/'] }),
        },
      });
      projectId = (
        await t.request('POST', '/api/v1/projects', {
          ...as,
          body: { name: 'Shop', siteUrl: site.url('/'), crawlDefaults: { sitemaps: false } },
        })
      ).body.id;
      const crawl = await t.request('POST', `/api/v1/projects/${projectId}/crawls`, { ...as, body: {} });
      crawlId = crawl.body.id;
      await followCrawlEvents(t, crawlId, as);
      packId = (await t.request('POST', '/api/v1/rule-packs', { ...as, body: { name: 'house', pack } })).body.id;
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    const rule = (preview: { rules: { ruleId: string }[] }, id: string) => preview.rules.find((r) => r.ruleId === id) as any;

    it("answers per rule the pages in scope, failing and undecidable, over the project's newest report", async () => {
      const answer = await t.request('POST', `/api/v1/rule-packs/${packId}/preview`, { ...as, body: { projectId } });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.pagesEvaluated, 4);
      assert.deepEqual(
        answer.body.rules.map((r: { ruleId: string }) => r.ruleId),
        [placeholder.id, noPrice.id, rendered.id],
      );
      const copy = rule(answer.body, placeholder.id);
      assert.deepEqual([copy.pagesInScope, copy.pagesFailing, copy.pagesNotApplicable], [4, 1, 0]);
      assert.equal(copy.samples[0].message, '/draft: “Lorem ipsum”');
      assert.equal(new URL(copy.samples[0].url).pathname, '/draft');
      const price = rule(answer.body, noPrice.id);
      assert.equal(price.enabled, false, 'a disabled rule is previewed, and says so');
      assert.deepEqual([price.pagesInScope, price.pagesFailing], [2, 1]);
      assert.equal(price.samples[0].message, '1 price on /products/a');
      const needsRendering = rule(answer.body, rendered.id);
      assert.deepEqual([needsRendering.pagesInScope, needsRendering.pagesFailing, needsRendering.pagesNotApplicable], [0, 0, 4]);
    });

    it('decides rendered-DOM conditions on the pages whose render the crawl kept', async () => {
      // What a rendering crawl keeps of a page (crawl_page_renders); this crawl rendered nothing.
      const { db } = t.server.database;
      const page = await db
        .selectFrom('crawl_urls')
        .select('id')
        .where('crawl_id', '=', crawlId)
        .where('url', '=', site.url('/products/b'))
        .executeTakeFirstOrThrow();
      const dom = '<html><head><title>B</title></head><body><h1>Product B</h1></body></html>';
      await db
        .insertInto('crawl_page_renders')
        .values({ crawl_id: crawlId, url_id: page.id, html: zstdCompressSync(dom), lab: JSON.stringify(null), screenshot: null })
        .execute();
      try {
        const answer = await t.request('POST', '/api/v1/rule-packs/preview', {
          ...as,
          body: { projectId, pack: { ...pack, rules: [rendered] } },
        });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        const decided = rule(answer.body, rendered.id);
        assert.deepEqual([decided.pagesInScope, decided.pagesFailing, decided.pagesNotApplicable], [1, 1, 3]);
        assert.equal(decided.samples[0].message, '/products/b');
      } finally {
        await db.deleteFrom('crawl_page_renders').where('crawl_id', '=', crawlId).execute();
      }
    });

    it('previews a pack that is not saved, and spends no credits', async () => {
      const before = (await t.request('GET', '/api/v1/credits', as)).body.balance;
      const answer = await t.request('POST', '/api/v1/rule-packs/preview', {
        ...as,
        body: { projectId, samples: 0, pack: { ...pack, rules: [placeholder] } },
      });
      assert.equal(answer.status, 200);
      assert.equal(rule(answer.body, placeholder.id).pagesFailing, 1);
      assert.deepEqual(rule(answer.body, placeholder.id).samples, []);
      assert.equal((await t.request('GET', '/api/v1/credits', as)).body.balance, before);
    });

    it('counts every failing page past the samples it names, each sample with its message', async () => {
      const everyPage = {
        id: 'content/every-page',
        title: 'Every page',
        category: 'content',
        severity: 'notice',
        when: { type: 'status', class: ['2xx'] },
        message: 'ok on {{path}}',
      };
      for (const samples of [0, 1, 3, 4, 5]) {
        const answer = await t.request('POST', '/api/v1/rule-packs/preview', {
          ...as,
          body: { projectId, samples, pack: { ...pack, rules: [everyPage, placeholder] } },
        });
        assert.equal(answer.status, 200);
        const every = rule(answer.body, everyPage.id);
        assert.deepEqual([every.pagesInScope, every.pagesFailing], [4, 4], `samples ${samples}`);
        assert.equal(every.samples.length, Math.min(samples, 4));
        for (const sample of every.samples) assert.equal(sample.message, `ok on ${new URL(sample.url).pathname}`);
        assert.equal(rule(answer.body, placeholder.id).pagesFailing, 1);
        assert.equal(rule(answer.body, placeholder.id).samples.length, Math.min(samples, 1));
      }
    });

    it('points at the offending field of an unsaved pack', async () => {
      const bad = { ...placeholder, when: { type: 'text', str: { matches: '(unclosed' } } };
      const answer = await t.request('POST', '/api/v1/rule-packs/preview', { ...as, body: { projectId, pack: { ...pack, rules: [bad] } } });
      assert.equal(answer.status, 400);
      assert.ok(answer.body.details.fieldErrors['pack.rules.0.when.str.matches'], JSON.stringify(answer.body.details));
    });

    it('answers 409 for a project without a report and 404 for unknown or foreign ids', async () => {
      const fresh = (await t.request('POST', '/api/v1/projects', { ...as, body: { name: 'New', siteUrl: site.url('/') } })).body.id;
      const none = await t.request('POST', `/api/v1/rule-packs/${packId}/preview`, { ...as, body: { projectId: fresh } });
      assert.equal(none.status, 409);
      assert.equal(none.body.code, 'project_not_crawled');
      assert.equal((await t.request('POST', `/api/v1/rule-packs/${randomUUID()}/preview`, { ...as, body: { projectId } })).status, 404);
      assert.equal(
        (await t.request('POST', `/api/v1/rule-packs/${packId}/preview`, { ...as, body: { projectId: randomUUID() } })).status,
        404,
      );
      // The bootstrap workspace (free) cannot see the pro workspace's pack or project.
      const other = await t.request('POST', `/api/v1/rule-packs/${packId}/preview`, { body: { projectId } });
      assert.equal(other.status, 404);
    });

    it('refuses a bad body: missing project, samples out of range, unknown field', async () => {
      for (const body of [
        {},
        { projectId, samples: -1 },
        { projectId, samples: 21 },
        { projectId, samples: 'many' },
        { projectId, extra: 1 },
      ]) {
        assert.equal((await t.request('POST', `/api/v1/rule-packs/${packId}/preview`, { ...as, body })).status, 400, JSON.stringify(body));
      }
      assert.equal(
        (await t.request('POST', `/api/v1/rule-packs/${packId}/preview`, { ...as, body: { projectId, samples: 20 } })).status,
        200,
      );
    });

    it('answers 402 on a plan without custom packs', async () => {
      const projectOnFree = (await t.request('POST', '/api/v1/projects', { body: { name: 'F', siteUrl: site.url('/') } })).body.id;
      const answer = await t.request('POST', '/api/v1/rule-packs/preview', { body: { projectId: projectOnFree, pack } });
      assert.equal(answer.status, 402);
      assert.equal(answer.body.code, 'plan_feature_unavailable');
    });

    it('lets a viewer preview saved packs, not packs it would write', async () => {
      const viewer = await t.createMemberKey(pro.workspaceId, 'viewer');
      assert.equal(
        (await t.request('POST', `/api/v1/rule-packs/${packId}/preview`, { key: viewer, team: pro.workspaceId, body: { projectId } }))
          .status,
        200,
      );
      assert.equal(
        (await t.request('POST', '/api/v1/rule-packs/preview', { key: viewer, team: pro.workspaceId, body: { projectId, pack } })).status,
        403,
      );
    });
  });
}
