import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { htmlPage } from '../testing/html-page.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { nextPage, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { SearchIndexBuilder } from './search-index-builder.ts';
import {
  buildProjectIndex,
  crawlProject,
  createProject,
  indexState,
  pagedHits,
  search,
  searchPath,
  startBuildByHand,
} from './test-search.ts';

const PROJECTS = '/api/v1/projects';

/**
 * A small shop: each page about one thing, linked from the home page by neutral link texts,
 * with the test site's menu and footer ("Loupe test site") around its main content.
 */
function shop() {
  const SHIPPING = '<p>Shipped within days.</p>';
  const page = (path: string, title: string, body: string, h1?: string | null) =>
    htmlPage({ path, title, h1, body: `<p>${body}</p>${SHIPPING}`, links: [{ href: '/', text: 'Home' }] });
  const paths = ['/lanterns', '/kettles', '/zephyr-title', '/zephyr-body', '/phrase', '/words', '/safety', '/long', '/hyphens', '/gone'];
  const hyphenated = Array.from({ length: 400 }, (_, i) => `well-kept long-lived item-${i}`).join(' ');
  return {
    '/': htmlPage({
      path: '/',
      title: 'Harbour Supplies',
      body: `<p>Welcome to the harbour shop.</p>${SHIPPING}`,
      links: paths.map((href, i) => ({ href, text: `Page ${i + 1}` })),
    }),
    '/lanterns': page(
      '/lanterns',
      'Brass lanterns',
      'Our brass lanterns light every harbour path. A lantern burns oil for twelve hours, and each lantern is made by hand. Lanterns hang by the door.',
    ),
    '/kettles': page('/kettles', 'Copper kettles', 'Copper kettles boil water fast. Hang a lantern above the stove if you like.'),
    '/zephyr-title': page('/zephyr-title', 'Zephyr sails', 'Sails cut for light winds and calm seas.', null),
    '/zephyr-body': page('/zephyr-body', 'Rope and rigging', 'Rigging that holds in a zephyr or a gale, with rope of every length.'),
    '/phrase': page('/phrase', 'Evening walks', 'The quiet harbour lights come on at dusk.'),
    '/words': page('/words', 'Morning walks', 'The harbour is quiet before the boats leave, and the lights stay off.'),
    '/safety': page(
      '/safety',
      'Safety notes',
      'Never paste &lt;script&gt;alert("x")&lt;/script&gt; into the orchard form &amp; stay safe.',
    ),
    '/long': page(
      '/long',
      'A long read',
      `${'Nothing much happens on this page today. '.repeat(250)}At last the lighthouse keeper came home. ${'Nothing more happens. '.repeat(100)}`,
    ),
    '/hyphens': page('/hyphens', 'Hyphens', `${hyphenated} Then the windmill turned.`),
    '/gone': {
      status: 404,
      body: '<!doctype html><html lang="en"><head><title>Gone</title></head><body><p>The nebula page is gone.</p></body></html>',
    },
  };
}
/** The pages that answered 2xx with HTML: what the index holds. */
const INDEXED = 10;

const paths = (hits: { url: string }[]) => hits.map((hit) => new URL(hit.url).pathname);

for (const dialect of testDialects()) {
  describe(`project search (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let other: TestWorkspace;
    let projectId: string;
    let reportId: string;

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      other = await t.createWorkspace();
      site = await startTestSite({ pages: shop() });
      projectId = await createProject(t, site);
      reportId = (await crawlProject(t, projectId)).reportId;
      await buildProjectIndex(t, projectId);
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    describe('building and its state', () => {
      it('answers none, 409 to a search, and 409 to a build before the project has a report', async () => {
        const fresh = await createProject(t, site);
        const state = await t.request('GET', `${PROJECTS}/${fresh}/search-index`);
        assert.equal(state.status, 200);
        assert.deepEqual(state.body, {
          projectId: fresh,
          state: 'none',
          reportId: null,
          pages: 0,
          builtAt: null,
          building: null,
          error: null,
        });
        const searched = await t.request('GET', searchPath(fresh, 'lantern'));
        assert.equal(searched.status, 409);
        assert.equal(searched.body.code, 'search_index_not_built');
        const built = await t.request('POST', `${PROJECTS}/${fresh}/search-index`);
        assert.equal(built.status, 409);
        assert.equal(built.body.code, 'project_not_crawled');
        assert.equal((await t.request('GET', `${PROJECTS}/${fresh}/search-index`)).body.state, 'none');
      });

      it('goes from building to ready, holding the 2xx HTML pages of the newest report', async () => {
        const fresh = await createProject(t, site);
        const crawl = await crawlProject(t, fresh);
        const started = await t.request('POST', `${PROJECTS}/${fresh}/search-index`);
        assert.equal(started.status, 202);
        assert.equal(started.body.state, 'building');
        assert.equal(started.body.reportId, null);
        assert.equal(started.body.building.reportId, crawl.reportId);
        const ready = await indexState(t, fresh, (state) => state.state === 'ready');
        assert.equal(ready.reportId, crawl.reportId);
        assert.equal(ready.pages, INDEXED);
        assert.ok(Date.parse(ready.builtAt ?? '') >= Date.parse(started.body.building.startedAt));
        assert.equal(ready.building, null);
        assert.equal(ready.error, null);
      });

      it('answers a request during a build with the build under way, starting no other', async () => {
        const fresh = await createProject(t, site);
        await crawlProject(t, fresh);
        const buildId = await startBuildByHand(t, fresh);
        const again = await t.request('POST', `${PROJECTS}/${fresh}/search-index`);
        assert.equal(again.status, 202);
        assert.equal(again.body.state, 'building');
        assert.equal(again.body.building.buildId, buildId);
        const builds = await t.server.database.db.selectFrom('search_builds').select('id').where('project_id', '=', fresh).execute();
        assert.deepEqual(
          builds.map((build) => build.id),
          [buildId],
        );
        assert.equal(await new SearchIndexBuilder(t.server.database).run(buildId, new AbortController().signal), 'done');
        assert.equal((await indexState(t, fresh, () => true)).state, 'ready');
      });

      it('rebuilds from the newest report, and the project deleted takes its index along', async () => {
        const fresh = await createProject(t, site);
        await crawlProject(t, fresh);
        await buildProjectIndex(t, fresh);
        const newer = await crawlProject(t, fresh);
        const rebuilt = await buildProjectIndex(t, fresh);
        assert.equal(rebuilt.reportId, newer.reportId);
        assert.equal(rebuilt.pages, INDEXED);
        const documents = async () =>
          Number((await sql<{ n: number }>`SELECT count(*) AS n FROM search_documents`.execute(t.server.database.db)).rows[0].n);
        const held = await documents();
        assert.equal((await search(t, fresh, 'lantern')).length, 2);
        assert.equal((await t.request('DELETE', `${PROJECTS}/${fresh}`)).status, 200);
        assert.equal(await documents(), held - INDEXED);
        assert.equal((await t.request('GET', `${PROJECTS}/${fresh}/search-index`)).status, 404);
        assert.equal((await t.request('GET', searchPath(fresh, 'lantern'))).status, 404, 'the answer kept for its index goes with it');
        const builds = await t.server.database.db.selectFrom('search_builds').select('id').where('project_id', '=', fresh).execute();
        assert.deepEqual(builds, []);
      });
    });

    describe('queries', () => {
      it('ranks the page about a term first, finding other forms of the word', async () => {
        const hits = await search(t, projectId, 'lantern');
        assert.deepEqual(paths(hits), ['/lanterns', '/kettles']);
        assert.ok(hits[0].score > hits[1].score);
        assert.equal(hits[0].title, 'Brass lanterns');
        assert.equal(hits[0].reportId, reportId);
        const page = await t.request('GET', `/api/v1/reports/${reportId}/pages/${hits[0].pageId}`);
        assert.equal(page.status, 200);
        assert.equal(page.body.url, hits[0].url);
      });

      it('ranks a match in the title above one in the text', async () => {
        assert.deepEqual(paths(await search(t, projectId, 'zephyr')), ['/zephyr-title', '/zephyr-body']);
      });

      it('wants every word, and a quoted phrase as written', async () => {
        assert.deepEqual(paths(await search(t, projectId, 'quiet harbour')).sort(), ['/phrase', '/words']);
        assert.deepEqual(paths(await search(t, projectId, '"quiet harbour"')), ['/phrase']);
        assert.deepEqual(paths(await search(t, projectId, 'copper lantern')), ['/kettles']);
      });

      it('leaves out pages with an excluded word or phrase', async () => {
        assert.deepEqual(paths(await search(t, projectId, 'lantern -kettles')), ['/lanterns']);
        assert.deepEqual(paths(await search(t, projectId, 'harbour -"quiet harbour"')).sort(), ['/', '/lanterns', '/words']);
      });

      it('takes either term of an OR', async () => {
        assert.deepEqual(paths(await search(t, projectId, 'kettles OR sails')).sort(), ['/kettles', '/zephyr-title']);
        assert.deepEqual(paths(await search(t, projectId, 'kettles or sails')), []);
      });

      it('reads operators of the engines as plain words', async () => {
        for (const q of [
          'lantern*',
          'title:lantern',
          'NEAR(lantern kettles)',
          'lantern & !kettles',
          "lantern' OR 1=1 --",
          '{title}:lantern',
        ]) {
          const answer = await t.request('GET', searchPath(projectId, q));
          assert.equal(answer.status, 200, `${q}: ${JSON.stringify(answer.body)}`);
        }
        assert.deepEqual(paths(await search(t, projectId, 'title:lantern')), []);
      });

      it('marks the matched words in an escaped snippet', async () => {
        const [hit] = await search(t, projectId, 'orchard');
        assert.equal(new URL(hit.url).pathname, '/safety');
        assert.match(hit.snippet, /<mark>orchard<\/mark>/);
        assert.match(hit.snippet, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;/);
        assert.match(hit.snippet, /&amp; stay safe/);
        assert.doesNotMatch(hit.snippet.replaceAll(/<\/?mark>/g, ''), /[<>]/);
        const [lanterns] = await search(t, projectId, 'lantern');
        assert.match(lanterns.snippet, /<mark>lanterns?<\/mark>/i);
      });

      it('marks a match deep in a long page, and one after many hyphenated words', async () => {
        const [long] = await search(t, projectId, 'lighthouse');
        assert.equal(new URL(long.url).pathname, '/long');
        assert.match(long.snippet, /<mark>lighthouse<\/mark> keeper/);
        const [hyphens] = await search(t, projectId, 'windmill');
        assert.equal(new URL(hyphens.url).pathname, '/hyphens');
        assert.match(hyphens.snippet, /<mark>windmill<\/mark>/);
      });

      it('marks each word on its own where the words of a query stand far apart', async () => {
        // The heading "Hyphens" opens the page's main content, "windmill" comes some 1,600 words on.
        const [hit] = await search(t, projectId, 'hyphens windmill');
        assert.equal(new URL(hit.url).pathname, '/hyphens');
        assert.match(hit.snippet, /<mark>Hyphens<\/mark> well-kept/);
      });

      it("indexes each page's main content: a word only in the menu or footer of every page finds nothing there", async () => {
        // "Loupe" is only in the footer of every page; "Home" is in every menu, and in one page's own text.
        assert.deepEqual(await search(t, projectId, 'loupe'), []);
        const home = await search(t, projectId, 'home');
        assert.deepEqual(paths(home), ['/long']);
        assert.match(home[0]?.snippet ?? '', /lighthouse keeper came <mark>home<\/mark>\. Nothing more happens/);
      });

      it('finds the words of a text that looked like markup', async () => {
        assert.deepEqual(paths(await search(t, projectId, 'script alert')), ['/safety']);
      });

      it('holds no page that answered an error', async () => {
        assert.deepEqual(await search(t, projectId, 'nebula'), []);
      });

      it('pages through the ranking with the Link header, each hit once', async () => {
        const all = await search(t, projectId, 'shipped', 100);
        assert.equal(all.length, INDEXED);
        const pages = await pagedHits(t, projectId, 'shipped', 3);
        assert.equal(pages.length, Math.ceil(INDEXED / 3));
        for (const page of pages) assert.ok(page.length <= 3);
        assert.deepEqual(
          pages.flat().map((hit) => hit.pageId),
          all.map((hit) => hit.pageId),
        );
      });

      it('refuses a bad q, limit or cursor, naming the field', async () => {
        const cases: [string, string][] = [
          [`${PROJECTS}/${projectId}/search`, 'q'],
          [searchPath(projectId, ''), 'q'],
          [searchPath(projectId, '   '), 'q'],
          [searchPath(projectId, '-kettles'), 'q'],
          [searchPath(projectId, 'a'.repeat(257)), 'q'],
          [searchPath(projectId, Array.from({ length: 33 }, (_, i) => `w${i}`).join(' ')), 'q'],
          [`${searchPath(projectId, 'lantern')}&limit=0`, 'limit'],
          [`${searchPath(projectId, 'lantern')}&limit=101`, 'limit'],
          [`${searchPath(projectId, 'lantern')}&limit=ten`, 'limit'],
          [`${searchPath(projectId, 'lantern')}&cursor=nonsense`, 'cursor'],
          [`${searchPath(projectId, 'lantern')}&sort=score`, 'sort'],
        ];
        for (const [path, field] of cases) {
          const answer = await t.request('GET', path);
          assert.equal(answer.status, 400, path);
          assert.equal(answer.body.code, 'validation_failed');
          assert.ok(answer.body.details.fieldErrors[field], `${path}: ${JSON.stringify(answer.body)}`);
        }
      });

      it('takes q of 256 characters and 32 terms, and limits of 1 and 100', async () => {
        const ok = [
          searchPath(projectId, `lantern ${'a'.repeat(248)}`),
          searchPath(projectId, ['lantern', ...Array.from({ length: 31 }, (_, i) => `-w${i}`)].join(' ')),
          `${searchPath(projectId, 'lantern')}&limit=1`,
          `${searchPath(projectId, 'lantern')}&limit=100`,
        ];
        for (const path of ok) assert.equal((await t.request('GET', path)).status, 200, path);
        const one = await t.request('GET', `${searchPath(projectId, 'lantern')}&limit=1`);
        assert.deepEqual(paths(one.body), ['/lanterns']);
        assert.ok(nextPage(one));
        const all = await t.request('GET', searchPath(projectId, ['lantern', ...Array.from({ length: 31 }, (_, i) => `-w${i}`)].join(' ')));
        assert.deepEqual(paths(all.body), ['/lanterns', '/kettles']);
      });
    });

    describe('access', () => {
      it('lets a viewer read the state and search, not build', async () => {
        const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
        assert.equal((await t.request('GET', `${PROJECTS}/${projectId}/search-index`, { key: viewer })).status, 200);
        assert.equal((await t.request('GET', searchPath(projectId, 'lantern'), { key: viewer })).status, 200);
        const built = await t.request('POST', `${PROJECTS}/${projectId}/search-index`, { key: viewer });
        assert.equal(built.status, 403);
        assert.equal(built.body.code, 'forbidden');
      });

      it('lets a member and an admin build', async () => {
        const fresh = await createProject(t, site);
        await crawlProject(t, fresh);
        for (const role of ['member', 'admin'] as const) {
          const key = await t.createMemberKey(t.owner.workspaceId, role);
          const started = await t.request('POST', `${PROJECTS}/${fresh}/search-index`, { key });
          assert.equal(started.status, 202, role);
          await indexState(t, fresh, (state) => state.building === null);
          assert.equal((await t.request('GET', searchPath(fresh, 'lantern'), { key })).status, 200, role);
        }
      });

      it('refuses a key without search:read to search and one without projects:write to build', async () => {
        const created = await t.request('POST', '/api/v1/keys', { body: { name: 'reports only', scopes: ['reports:read'] } });
        assert.equal(created.status, 201);
        const key = created.body.key;
        assert.equal((await t.request('GET', searchPath(projectId, 'lantern'), { key })).status, 403);
        assert.equal((await t.request('GET', `${PROJECTS}/${projectId}/search-index`, { key })).status, 403);
        assert.equal((await t.request('POST', `${PROJECTS}/${projectId}/search-index`, { key })).status, 403);
      });

      it("answers 404 for another workspace's project on every endpoint", async () => {
        const options = { key: other.key, team: other.workspaceId };
        assert.equal((await t.request('GET', `${PROJECTS}/${projectId}/search-index`, options)).status, 404);
        assert.equal((await t.request('POST', `${PROJECTS}/${projectId}/search-index`, options)).status, 404);
        assert.equal((await t.request('GET', searchPath(projectId, 'lantern'), options)).status, 404);
      });

      it('answers 404 once another server process deleted the project, however recently this one read it', async () => {
        const fresh = await createProject(t, site);
        await crawlProject(t, fresh);
        await buildProjectIndex(t, fresh);
        assert.equal((await search(t, fresh, 'kettle')).length, 1);
        // As another process sharing the database would: this one is not told.
        await t.server.database.db.deleteFrom('audit_projects').where('id', '=', fresh).execute();
        const answer = await t.request('GET', searchPath(fresh, 'copper'));
        assert.equal(answer.status, 404, JSON.stringify(answer.body));
      });

      it('answers 401 without a key', async () => {
        assert.equal((await t.request('GET', searchPath(projectId, 'lantern'), { key: null })).status, 401);
      });
    });
  });
}
