import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { fillerHtml, htmlPage } from '../../testing/html-page.ts';
import { testDialects } from '../../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { type PageSpec, startTestSite, type TestSite } from '../../testing/test-site.ts';
import { buildProjectIndex, crawlProject, createProject, moving, pagedHitIds, parsedQuery as query, searchPath } from '../test-search.ts';
import { PostgresSearchEngine } from './postgres-search-engine.ts';

/** Pages of one shared vocabulary (each word on most pages), a few with words of their own. */
function shop(): Record<string, PageSpec> {
  const paths = Array.from({ length: 40 }, (_, i) => `/item${i + 1}`);
  const pages: Record<string, PageSpec> = {
    '/': htmlPage({ path: '/', title: 'Catalogue', links: paths.map((href, i) => ({ href, text: `Item ${i + 1}` })) }),
  };
  paths.forEach((path, i) => {
    const own = [i % 3 === 0 ? '<p>Our café serves the copper kettles of O’Reilly.</p>' : '', i < 2 ? '<p>A quokka visits.</p>' : ''].join(
      '',
    );
    const title = i % 4 === 0 ? `Copper item ${i + 1}` : `Item ${i + 1}`;
    pages[path] = htmlPage({ path, title, body: `${own}\n${fillerHtml(path, 150 + 10 * i)}`, links: [{ href: '/', text: 'Home' }] });
  });
  return pages;
}

/** Queries the lists answer: words, stems, phrases, groups, alternatives, exclusions, stop words. */
const LISTED = [
  'copper',
  'Coppers',
  'kettles',
  'cafe',
  'copper basket',
  'basket copper',
  'copper copper',
  'copper -basket',
  'copper -"copper kettles"',
  'copper OR basket',
  'basket OR copper OR cabin',
  'copper basket cabin calm',
  '"copper kettles"',
  '"the copper kettles"',
  '"serves the copper"',
  'the copper',
  '"copper kettles" basket',
  '"copper kettles" OR cabin',
  'item copper',
];

for (const dialect of testDialects().filter((d) => d === 'postgres')) {
  describe(`search word lists (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    const pages = shop();
    let projectId: string;
    let engine: PostgresSearchEngine;
    /** Phrases read off a stored page: common words side by side. */
    let phrases: string[];

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true, searchListMinPages: 5 });
      site = await startTestSite({ pages });
      projectId = await createProject(t, site);
      await crawlProject(t, projectId);
      await buildProjectIndex(t, projectId);
      engine = new PostgresSearchEngine(t.server.database);
      const { rows } = await sql<{ body: string }>`SELECT body FROM search_documents ORDER BY length(body) DESC LIMIT 1`.execute(
        t.server.database.db,
      );
      const words = rows[0].body.split(/[^A-Za-z]+/).filter(Boolean);
      phrases = [20, 60, 100].flatMap((at) => [`"${words[at]} ${words[at + 1]}"`, `"${words[at]} ${words[at + 1]} ${words[at + 2]}"`]);
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    const lists = async () =>
      (
        await sql<{ build_id: string; words: number; documents: number }>`SELECT build_id, words, documents FROM search_word_lists`.execute(
          t.server.database.db,
        )
      ).rows;
    /** As before a seal: no list, block or completion stored. */
    const forgetLists = async () => {
      for (const table of ['search_word_lists', 'search_word_postings', 'search_list_blocks'])
        await sql`DELETE FROM ${sql.table(table)}`.execute(t.server.database.db);
    };
    const readyBuild = async () =>
      (
        await sql<{ id: string }>`SELECT id FROM search_builds WHERE project_id = ${projectId} AND state = 'ready'`.execute(
          t.server.database.db,
        )
      ).rows[0].id;

    it('stores a list for each lexeme on the threshold of pages or more, and none for rarer ones', async () => {
      const [built] = await lists();
      assert.equal(built.documents, 41);
      const words = (
        await sql<{
          word: string;
          matches: number;
        }>`SELECT word, sum(matches)::int AS matches FROM search_word_postings GROUP BY word`.execute(t.server.database.db)
      ).rows;
      assert.equal(words.length, built.words);
      const byWord = new Map(words.map((row) => [row.word, row.matches]));
      assert.equal(byWord.get('café'), 14, 'on every third item');
      assert.equal(byWord.has('quokka'), false, 'on two pages, below the threshold');
      for (const [word, matches] of byWord) assert.ok(matches >= 5, `${word}: ${matches}`);
    });

    it('answers with the hits, order, scores and snippets of ts_rank over every match', async () => {
      const buildId = await readyBuild();
      for (const text of [...LISTED, ...phrases]) {
        const window = { offset: 0, limit: 100 };
        const expected = await engine.searchBySql(projectId, query(text), window);
        const answer = await engine.search(projectId, query(text), window, buildId);
        assert.ok(expected && answer, text);
        assert.deepEqual(answer, expected, text);
        if (text === 'copper basket' || text === '"copper kettles"') assert.ok(answer.hits.length > 5, `${text}: many hits`);
      }
    });

    it('answers a query of stop words alone with no hits, beside an exclusion too, from the lists as in SQL', async () => {
      const buildId = await readyBuild();
      for (const text of ['the', 'the -copper', 'more OR the -basket']) {
        const expected = await engine.searchBySql(projectId, query(text), { offset: 0, limit: 100 });
        assert.deepEqual(expected, { buildId, reportId: expected?.reportId, hits: [], more: false }, text);
        assert.deepEqual(await engine.search(projectId, query(text), { offset: 0, limit: 100 }, buildId), expected, text);
        const answer = await t.request('GET', `${searchPath(projectId, text)}&limit=100`);
        assert.deepEqual([answer.status, answer.body], [200, []], text);
      }
    });

    it('answers over HTTP from the lists, and a rare word in SQL', async () => {
      for (const text of ['copper basket', 'quokka', 'quokka copper', 'nowhere']) {
        const answer = await t.request('GET', `${searchPath(projectId, text)}&limit=100`);
        assert.equal(answer.status, 200, text);
        const expected = await engine.searchBySql(projectId, query(text), { offset: 0, limit: 100 });
        assert.deepEqual(
          answer.body.map((hit: { pageId: string; score: number }) => [hit.pageId, hit.score]),
          expected?.hits.map((hit) => [hit.pageId, hit.score]),
          text,
        );
      }
    });

    it('pages through the ranking as SQL does, to its end', async () => {
      const expected = await engine.searchBySql(projectId, query('basket'), { offset: 0, limit: 100 });
      const paged = await pagedHitIds(t, projectId, 'basket', 7);
      assert.ok(paged.length > 14);
      assert.deepEqual(
        paged,
        expected?.hits.map((hit) => hit.pageId),
      );
    });

    it('goes on where a stopped seal left off; until the lists are complete, SQL ranks', async () => {
      const buildId = await readyBuild();
      const [{ words }] = await lists();
      await forgetLists();
      const fresh = new PostgresSearchEngine(t.server.database, { threshold: 5 });
      assert.equal(await fresh.seal(buildId, AbortSignal.abort(), moving), false);
      assert.equal((await lists()).length, 0, 'not complete');
      const expected = await engine.searchBySql(projectId, query('copper cabin'), { offset: 0, limit: 50 });
      assert.deepEqual(await fresh.search(projectId, query('copper cabin'), { offset: 0, limit: 50 }, buildId), expected);
      assert.equal(await fresh.seal(buildId, new AbortController().signal, moving), true);
      assert.deepEqual(
        (await lists()).map((row) => row.words),
        [words],
      );
      assert.deepEqual(
        await new PostgresSearchEngine(t.server.database).search(projectId, query('copper cabin'), { offset: 0, limit: 50 }, buildId),
        expected,
      );
    });

    it('tells its progress after each block, and stops when told its build is no longer under way', async () => {
      const buildId = await readyBuild();
      const [{ words }] = await lists();
      await forgetLists();
      const fresh = new PostgresSearchEngine(t.server.database, { threshold: 5 });
      let told = 0;
      assert.equal(await fresh.seal(buildId, new AbortController().signal, async () => (told++, false)), false);
      assert.equal(told, 1, 'forty pages: one block');
      assert.equal((await lists()).length, 0, 'not complete');
      assert.equal(await fresh.seal(buildId, new AbortController().signal, moving), true);
      assert.deepEqual(
        (await lists()).map((row) => row.words),
        [words],
      );
    });

    it('answers from the generation a rebuild switched to, and declines a build no longer ready', async () => {
      const switchedFrom = await readyBuild();
      const copper = async () =>
        (await t.request('GET', `${searchPath(projectId, 'copper')}&limit=100`)).body.map((hit: { pageId: string }) => hit.pageId);
      const earlier = await copper();
      for (const path of Object.keys(pages)
        .filter((p) => p.startsWith('/item'))
        .slice(0, 20))
        pages[path] = (pages[path] as string).replaceAll('copper', 'brass');
      await crawlProject(t, projectId);
      await buildProjectIndex(t, projectId);
      const later: string[] = await copper();
      const expected = await engine.searchBySql(projectId, query('copper'), { offset: 0, limit: 100 });
      assert.deepEqual(
        later,
        expected?.hits.map((hit) => hit.pageId),
      );
      assert.ok(later.length > 0 && later.length < earlier.length, `${later.length} hits after, ${earlier.length} before`);
      // Asked with the build read before the switch, the engine answers from the one now ready.
      const answer = await engine.search(projectId, query('copper'), { offset: 0, limit: 100 }, switchedFrom);
      assert.deepEqual(answer, expected);
      // The sweep after the switch took the retired build's lists along with its documents.
      for (const table of ['search_word_lists', 'search_word_postings', 'search_list_blocks']) {
        const { rows } = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE build_id = ${switchedFrom}`.execute(t.server.database.db);
        assert.equal(rows[0].n, 0, table);
      }
    });

    it('removes a build’s lists with its project', async () => {
      const other = await createProject(t, site);
      await crawlProject(t, other);
      await buildProjectIndex(t, other);
      const count = async () =>
        (await sql<{ n: number }>`SELECT count(DISTINCT build_id)::int AS n FROM search_word_postings`.execute(t.server.database.db))
          .rows[0].n;
      assert.equal(await count(), 2);
      assert.equal((await t.request('DELETE', `/api/v1/projects/${other}`)).status, 200);
      assert.equal(await count(), 1);
      assert.equal((await lists()).length, 1);
    });
  });
}
