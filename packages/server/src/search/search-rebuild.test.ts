import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { pino } from 'pino';
import { fillerHtml, htmlPage } from '../testing/html-page.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { nextPage, startTestServer, type TestServer } from '../testing/test-server.ts';
import { type PageSpec, type SiteDefinition, startTestSite, type TestSite } from '../testing/test-site.ts';
import { SearchBuildStore } from './search-build-store.ts';
import { searchEngineFor } from './search-engine.ts';
import { SearchIndexBuilder } from './search-index-builder.ts';
import { searchBuildHandler } from './search-job-handlers.ts';
import {
  buildProjectIndex,
  crawlProject,
  createProject,
  indexState,
  pagedHitIds,
  search,
  searchPath,
  startBuildByHand,
} from './test-search.ts';

const PROJECTS = '/api/v1/projects';

/** A site whose pages `first`…`last` mention "quokka", so each version gives its own hit set. */
function catalogue(first: number, last: number): Record<string, PageSpec> {
  const numbers = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const pages: Record<string, PageSpec> = {
    '/': htmlPage({ path: '/', title: 'Catalogue', links: numbers.map((n) => ({ href: `/p${n}`, text: `Item ${n}` })) }),
  };
  for (const n of numbers) {
    const body = `<p>The quokka shelf holds item ${n}.</p>\n${fillerHtml(`/p${n}`, 200)}`;
    pages[`/p${n}`] = htmlPage({ path: `/p${n}`, title: `Item ${n}`, body, links: [{ href: '/', text: 'Home' }] });
  }
  return pages;
}
/** A site of `count` pages alike in all but their address: they score the same for any word of theirs. */
function twins(count: number): Record<string, PageSpec> {
  const paths = Array.from({ length: count }, (_, i) => `/twin${i + 1}`);
  const pages: Record<string, PageSpec> = {
    '/': htmlPage({ path: '/', title: 'Catalogue', links: paths.map((href, i) => ({ href, text: `Item ${i + 1}` })) }),
  };
  for (const path of paths) {
    pages[path] = htmlPage({ path, title: 'Twin', body: '<p>The wombat sleeps in the shade.</p>', links: [{ href: '/', text: 'Home' }] });
  }
  return pages;
}
const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => `/p${first + i}`).sort();
const OLD_HITS = range(1, 12);
const NEW_HITS = range(7, 18);

const never = new AbortController().signal;

for (const dialect of testDialects()) {
  describe(`search index rebuilds (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let definition: SiteDefinition;

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      definition = { pages: catalogue(1, 12) };
      site = await startTestSite(definition);
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    /** A project indexed from the old site, then crawled again from the new one, not yet reindexed. */
    async function projectBetweenVersions() {
      definition.pages = catalogue(1, 12);
      const projectId = await createProject(t, site);
      await crawlProject(t, projectId);
      const old = await buildProjectIndex(t, projectId);
      definition.pages = catalogue(7, 18);
      const newer = await crawlProject(t, projectId);
      return { projectId, old, newReportId: newer.reportId };
    }

    const hitSet = async (projectId: string) => (await search(t, projectId, 'quokka', 100)).map((hit) => new URL(hit.url).pathname).sort();
    /**
     * The same hits by a query never asked before (an exclusion no page holds), so that the
     * engine ranks it rather than the service answering from the answers it keeps.
     */
    let asked = 0;
    const freshHitSet = async (projectId: string) =>
      (await search(t, projectId, `quokka -nowhere${++asked}`, 100)).map((hit) => new URL(hit.url).pathname).sort();

    it('answers every query from one whole index while a rebuild runs, old until the switch, new after', async () => {
      const { projectId, old, newReportId } = await projectBetweenVersions();
      assert.deepEqual(await hitSet(projectId), OLD_HITS);
      const oldBuild = await new SearchBuildStore(t.server.database).readyBuildId(projectId);
      assert.ok(oldBuild);

      const buildId = await startBuildByHand(t, projectId);
      const duringCommits: string[][] = [];
      const progress: number[] = [];
      const builder = new SearchIndexBuilder(t.server.database, {
        // A transaction per page: the new generation is half-written between every two of them.
        charsPerTransaction: 1,
        afterCommit: async () => {
          duringCommits.push(await freshHitSet(projectId));
          const state = await indexState(t, projectId, () => true);
          assert.equal(state.state, 'building');
          assert.equal(state.reportId, old.reportId);
          progress.push(state.building?.pagesIndexed ?? -1);
        },
      });
      let running = true;
      const continuous: string[][] = [];
      const querying = (async () => {
        while (running) continuous.push(await freshHitSet(projectId));
      })();
      try {
        assert.equal(await builder.run(buildId, never), 'done');
      } finally {
        running = false;
        await querying;
      }

      // 13 pages (the home page and 12 items): as many transactions, each seen from outside.
      assert.deepEqual(
        progress,
        Array.from({ length: 13 }, (_, i) => i + 1),
      );
      for (const hits of duringCommits) assert.deepEqual(hits, OLD_HITS);
      for (const hits of continuous)
        assert.ok(
          [OLD_HITS, NEW_HITS].some((set) => JSON.stringify(set) === JSON.stringify(hits)),
          JSON.stringify(hits),
        );
      assert.deepEqual(await hitSet(projectId), NEW_HITS);
      const state = await indexState(t, projectId, () => true);
      assert.equal(state.state, 'ready');
      assert.equal(state.reportId, newReportId);
      assert.equal(state.pages, 13);
      // The replaced generation is gone, documents and build.
      assert.equal(await searchEngineFor(t.server.database).remove(oldBuild, 1000), 0);
      assert.equal(await new SearchBuildStore(t.server.database).find(oldBuild), undefined);
    });

    it("serves a search asked again as first answered, until a rebuild switches to the new index's answer", async () => {
      const { projectId } = await projectBetweenVersions();
      const path = `${searchPath(projectId, 'quokka')}&limit=5`;
      const first = await t.request('GET', path);
      assert.equal(first.status, 200);
      const next = nextPage(first);
      assert.ok(next);
      const second = await t.request('GET', next);
      assert.equal(second.status, 200);

      // Behind the service's back, a hit of the first page leaves the index: an answer it kept
      // still shows it, one it ranks afresh does not.
      const gone = first.body[0];
      await sql`DELETE FROM search_documents WHERE page_id = ${gone.pageId}`.execute(t.server.database.db);
      const again = await t.request('GET', path);
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('link'), first.headers.get('link'));
      assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
      assert.equal(again.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.deepEqual((await t.request('GET', next)).body, second.body);
      const ranked = await search(t, projectId, 'quokka', 6);
      assert.equal(ranked.length, 6);
      assert.ok(!ranked.some((hit) => hit.pageId === gone.pageId));

      await buildProjectIndex(t, projectId);
      const rebuilt = await t.request('GET', path);
      assert.equal(rebuilt.status, 200);
      assert.equal(rebuilt.body.length, 5);
      for (const hit of rebuilt.body) assert.ok(NEW_HITS.includes(new URL(hit.url).pathname), hit.url);
      assert.notEqual(rebuilt.body[0].reportId, gone.reportId);
      assert.deepEqual(await hitSet(projectId), NEW_HITS);
      const stale = await t.request('GET', next);
      assert.equal(stale.status, 400);
      assert.ok(stale.body.details.fieldErrors.cursor);
    });

    it('orders hits of equal score by page, each once across the pages of the ranking', async () => {
      definition.pages = twins(5);
      const projectId = await createProject(t, site);
      await crawlProject(t, projectId);
      await buildProjectIndex(t, projectId);
      const all = await search(t, projectId, 'wombat', 100);
      assert.equal(all.length, 5);
      assert.equal(new Set(all.map((hit) => hit.score)).size, 1, JSON.stringify(all.map((hit) => hit.score)));
      const ids = all.map((hit) => hit.pageId);
      assert.deepEqual(ids, [...ids].sort());
      // Pages of two cut through the tie: each window starts where the previous one ended.
      assert.deepEqual(await pagedHitIds(t, projectId, 'wombat', 2), ids);
    });

    it('goes on after the last batch it wrote when a stopped build runs again', async () => {
      const { projectId } = await projectBetweenVersions();
      const buildId = await startBuildByHand(t, projectId);
      const stop = new AbortController();
      let commits = 0;
      const stopped = new SearchIndexBuilder(t.server.database, {
        charsPerTransaction: 1,
        afterCommit: async () => {
          if (++commits === 5) stop.abort();
        },
      });
      assert.equal(await stopped.run(buildId, stop.signal), 'stopped');
      const halfway = await indexState(t, projectId, () => true);
      assert.equal(halfway.state, 'building');
      assert.equal(halfway.building?.pagesIndexed, 5);
      assert.deepEqual(await hitSet(projectId), OLD_HITS);

      assert.equal(await new SearchIndexBuilder(t.server.database).run(buildId, never), 'done');
      const hits = await search(t, projectId, 'quokka', 100);
      assert.equal(new Set(hits.map((hit) => hit.pageId)).size, hits.length, 'a page indexed twice');
      assert.deepEqual(hits.map((hit) => new URL(hit.url).pathname).sort(), NEW_HITS);
      assert.equal((await indexState(t, projectId, () => true)).pages, 13);
    });

    it('records its seal as progress, and stops sealing once its build is no longer under way', async () => {
      const { projectId } = await projectBetweenVersions();
      const buildId = await startBuildByHand(t, projectId);
      const store = new SearchBuildStore(t.server.database);
      let commits = 0;
      const builder = new SearchIndexBuilder(t.server.database, {
        charsPerTransaction: 1,
        wordLists: { threshold: 2 },
        sealProgressEveryMs: 0,
        afterCommit: async () => {
          // The documents are written: a request now takes the build for stalled and fails it.
          if (++commits === 13) await store.fail(buildId, 'Taken for stalled.', new Date().toISOString());
        },
      });
      assert.equal(await builder.run(buildId, never), 'gone');
      const lists = await sql`SELECT build_id FROM search_word_lists WHERE build_id = ${buildId}`.execute(t.server.database.db);
      assert.deepEqual(lists.rows, [], 'the seal stopped at its first step');
      assert.equal((await store.find(buildId))?.state, 'failed');
      assert.deepEqual(await hitSet(projectId), OLD_HITS);
    });

    it('lets the rest of the process run between two transactions of a build, not only once it ends', async () => {
      const { projectId } = await projectBetweenVersions();
      const buildId = await startBuildByHand(t, projectId);
      let commits = 0;
      let turned = true;
      const heldUp: number[] = [];
      const builder = new SearchIndexBuilder(t.server.database, {
        charsPerTransaction: 1,
        afterCommit: async () => {
          commits++;
          // What the event loop runs next (a request's I/O would) has run since the last commit.
          if (!turned) heldUp.push(commits);
          turned = false;
          setImmediate(() => (turned = true));
        },
      });
      assert.equal(await builder.run(buildId, never), 'done');
      assert.equal(commits, 13);
      assert.deepEqual(heldUp, []);
    });

    it('keeps the previous index answering when a build fails, removes what it wrote, and builds again on request', async () => {
      const { projectId, old, newReportId } = await projectBetweenVersions();
      const buildId = await startBuildByHand(t, projectId);
      let commits = 0;
      const failing = new SearchIndexBuilder(t.server.database, {
        charsPerTransaction: 1,
        afterCommit: async () => {
          if (++commits === 3) throw new Error('disk full');
        },
      });
      const outcome = await searchBuildHandler(failing, pino({ level: 'silent' }))(
        { buildId },
        { jobId: 'job', attempt: 1, signal: never, heartbeat: async () => {} },
      );
      assert.deepEqual(outcome, { kind: 'failed', reason: 'disk full' });

      const state = await indexState(t, projectId, () => true);
      assert.equal(state.state, 'failed');
      assert.match(state.error ?? '', /could not be built/);
      assert.equal(state.reportId, old.reportId);
      assert.equal(state.pages, old.pages);
      assert.equal(state.building, null);
      assert.deepEqual(await hitSet(projectId), OLD_HITS);
      assert.equal(await searchEngineFor(t.server.database).remove(buildId, 1000), 0);

      const rebuilt = await buildProjectIndex(t, projectId);
      assert.equal(rebuilt.reportId, newReportId);
      assert.deepEqual(await hitSet(projectId), NEW_HITS);
    });

    it('replaces a build that stopped making progress ten minutes ago', async () => {
      const { projectId } = await projectBetweenVersions();
      const stalled = await startBuildByHand(t, projectId);
      const store = new SearchBuildStore(t.server.database);
      const longAgo = new Date(Date.now() - 11 * 60_000).toISOString();
      await t.server.database.db.updateTable('search_builds').set({ updated_at: longAgo }).where('id', '=', stalled).execute();
      const started = await t.request('POST', `${PROJECTS}/${projectId}/search-index`);
      assert.equal(started.status, 202);
      assert.notEqual(started.body.building?.buildId, stalled);
      await indexState(t, projectId, (state) => state.state === 'ready');
      assert.deepEqual(await hitSet(projectId), NEW_HITS);
      // Failed, then swept by the build that replaced it.
      assert.equal(await store.find(stalled), undefined);
    });

    it('lets one of two concurrent builds of a project start', async () => {
      const { projectId } = await projectBetweenVersions();
      const store = new SearchBuildStore(t.server.database);
      const report = await store.latestReport(projectId);
      assert.ok(report);
      const at = new Date().toISOString();
      const row = (id: string) => ({
        id,
        project_id: projectId,
        report_id: report.id,
        crawl_id: report.crawl_id,
        started_at: at,
        updated_at: at,
      });
      const started = await Promise.all([
        store.insertBuilding(row('01900000-0000-7000-8000-000000000001')),
        store.insertBuilding(row('01900000-0000-7000-8000-000000000002')),
      ]);
      assert.deepEqual(started.sort(), [false, true]);
    });

    it('keeps answering once the report it was built from is deleted', async () => {
      const { projectId, old } = await projectBetweenVersions();
      assert.equal((await t.request('DELETE', `/api/v1/reports/${old.reportId}`)).status, 200);
      assert.deepEqual(await hitSet(projectId), OLD_HITS);
    });
  });
}
