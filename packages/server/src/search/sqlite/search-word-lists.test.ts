import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { fillerHtml, htmlPage } from '../../testing/html-page.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { type PageSpec, startTestSite, type TestSite } from '../../testing/test-site.ts';
import { snippetHtml } from '../snippets/snippet-html.ts';
import { buildProjectIndex, crawlProject, createProject, moving, pagedHitIds, parsedQuery as query, searchPath } from '../test-search.ts';
import { SqliteSearchEngine } from './sqlite-search-engine.ts';

/** Pages of one shared vocabulary (each word on most pages), a few with words of their own. */
function shop(): Record<string, PageSpec> {
  const paths = Array.from({ length: 40 }, (_, i) => `/item${i + 1}`);
  const pages: Record<string, PageSpec> = {
    '/': htmlPage({ path: '/', title: 'Catalogue', links: paths.map((href, i) => ({ href, text: `Item ${i + 1}` })) }),
  };
  paths.forEach((path, i) => {
    const own = [i % 3 === 0 ? '<p>Our café serves copper kettles.</p>' : '', i < 2 ? '<p>A quokka visits.</p>' : ''].join('');
    pages[path] = htmlPage({
      path,
      title: `Item ${i + 1}`,
      body: `${own}\n${fillerHtml(path, 150 + 10 * i)}`,
      links: [{ href: '/', text: 'Home' }],
    });
  });
  return pages;
}

/** Queries the word lists answer, or help answer (a rare word ranked on the spot, an exclusion looked up). */
const LISTED = [
  'copper',
  'Copper',
  'cafe',
  'Café',
  'copper basket',
  'copper -basket',
  'copper -quokka',
  'copper OR quokka',
  'basket OR copper',
  'copper copper',
  'copper basket cabin calm',
  'copper -nowhere',
  'nowhere OR copper',
  'copper nowhere',
];

describe('search word lists (sqlite)', () => {
  let t: TestServer;
  let site: TestSite;
  /** The site's pages, read at each request: a test changes them before crawling again. */
  const pages = shop();
  let projectId: string;
  let fts5: SqliteSearchEngine;

  before(async () => {
    t = await startTestServer('sqlite', { crawlAllowPrivate: true, searchListMinPages: 5 });
    site = await startTestSite({ pages });
    projectId = await createProject(t, site);
    await crawlProject(t, projectId);
    await buildProjectIndex(t, projectId);
    fts5 = new SqliteSearchEngine(t.server.database);
  });
  after(async () => {
    await site.close();
    await t.close();
  });

  const lists = async () =>
    (
      await sql<{ build_id: string; words: number; threshold: number }>`SELECT build_id, words, threshold FROM search_word_lists`.execute(
        t.server.database.db,
      )
    ).rows;

  it('stores a list for each word on the threshold of pages or more, and none for rarer words', async () => {
    const [built] = await lists();
    assert.equal(built.threshold, 5);
    const words = (
      await sql<{ word: string; matches: number }>`SELECT word, matches FROM search_word_postings`.execute(t.server.database.db)
    ).rows;
    assert.equal(words.length, built.words);
    const byWord = new Map(words.map((row) => [row.word, row.matches]));
    assert.equal(byWord.get('cafe'), 14, 'café, without its accent, on every third item');
    assert.ok((byWord.get('copper') ?? 0) >= 14);
    assert.equal(byWord.has('quokka'), false, 'on two pages, below the threshold');
    for (const [word, matches] of byWord) assert.ok(matches >= 5, `${word}: ${matches}`);
  });

  it('answers every query of single words with the hits, order, scores and fields of FTS5 ranking every match', async () => {
    for (const text of LISTED) {
      const answer = await t.request('GET', `${searchPath(projectId, text)}&limit=100`);
      assert.equal(answer.status, 200, text);
      const expected = await fts5.searchFts5(projectId, query(text), { offset: 0, limit: 100 });
      assert.ok(expected, text);
      assert.deepEqual(
        answer.body.map((hit: { pageId: string; url: string; title: string | null; snippet: string }) => [
          hit.pageId,
          hit.url,
          hit.title,
          hit.snippet,
        ]),
        expected.hits.map((hit) => [hit.pageId, hit.url, hit.title, snippetHtml(hit.markedSnippet)]),
        text,
      );
      answer.body.forEach((hit: { score: number; snippet: string }, i: number) => {
        assert.ok(
          Math.abs(hit.score - expected.hits[i].score) <= 1e-6 * Math.abs(expected.hits[i].score),
          `${text}: ${hit.score} vs ${expected.hits[i].score}`,
        );
      });
      if (text === 'copper basket') assert.ok(answer.body.length > 5, 'a query with many hits');
      if (text === 'copper nowhere') assert.equal(answer.body.length, 0);
    }
  });

  it('marks the words in the snippets, as FTS5 does', async () => {
    const answer = await t.request('GET', `${searchPath(projectId, 'Café')}&limit=3`);
    assert.equal(answer.body.length, 3);
    for (const hit of answer.body) assert.match(hit.snippet, /<mark>café<\/mark>/i);
  });

  it('pages through the ranking as FTS5 does, to its end', async () => {
    const expected = await fts5.searchFts5(projectId, query('basket'), { offset: 0, limit: 100 });
    const paged = await pagedHitIds(t, projectId, 'basket', 7);
    assert.ok(paged.length > 14);
    assert.deepEqual(
      paged,
      expected?.hits.map((hit) => hit.pageId),
    );
  });

  it('goes on where a stopped seal left off; until the lists are complete, FTS5 ranks', async () => {
    const [{ build_id: buildId, words }] = await lists();
    await sql`DELETE FROM search_word_lists`.execute(t.server.database.db);
    await sql`DELETE FROM search_word_postings WHERE word NOT IN (SELECT word FROM search_word_postings ORDER BY word LIMIT 3)`.execute(
      t.server.database.db,
    );
    const engine = new SqliteSearchEngine(t.server.database, { threshold: 5 });
    // Answered without lists: the same hits.
    const expected = await fts5.searchFts5(projectId, query('copper cabin'), { offset: 0, limit: 50 });
    assert.deepEqual((await engine.search(projectId, query('copper cabin'), { offset: 0, limit: 50 }))?.hits, expected?.hits);

    const postings = async () =>
      (await sql<{ n: number }>`SELECT count(*) AS n FROM search_word_postings`.execute(t.server.database.db)).rows[0].n;
    // Aborted once it stored a list of its own (which candidate words come first depends on the pages).
    const stop = new AbortController();
    const abortAfterAList = async () => {
      if ((await postings()) > 3) stop.abort();
      return true;
    };
    assert.equal(await engine.seal(buildId, stop.signal, abortAfterAList), false);
    assert.equal((await lists()).length, 0, 'not complete');
    const stored = await postings();
    assert.ok(stored > 3 && stored < words, `${stored} of ${words}`);
    assert.equal(await engine.seal(buildId, new AbortController().signal, moving), true);
    assert.deepEqual(
      (await lists()).map((row) => row.words),
      [words],
    );
    const answer = await engine.search(projectId, query('copper cabin'), { offset: 0, limit: 50 });
    assert.deepEqual(
      answer?.hits.map((hit) => hit.pageId),
      expected?.hits.map((hit) => hit.pageId),
    );
  });

  it('tells its progress after each word, and stops when told its build is no longer under way', async () => {
    const [{ build_id: buildId, words }] = await lists();
    await sql`DELETE FROM search_word_lists`.execute(t.server.database.db);
    await sql`DELETE FROM search_word_postings`.execute(t.server.database.db);
    const engine = new SqliteSearchEngine(t.server.database, { threshold: 5 });
    let told = 0;
    assert.equal(await engine.seal(buildId, new AbortController().signal, async () => ++told < 3), false);
    assert.equal(told, 3);
    assert.equal((await lists()).length, 0, 'not complete');
    const stored = (await sql<{ n: number }>`SELECT count(*) AS n FROM search_word_postings`.execute(t.server.database.db)).rows[0].n;
    assert.ok(stored <= 3, `${stored} lists stored`);
    assert.equal(await engine.seal(buildId, new AbortController().signal, moving), true);
    assert.deepEqual(
      (await lists()).map((row) => row.words),
      [words],
    );
  });

  it('answers from the lists of the generation a rebuild switched to, not from lists read before', async () => {
    const copper = async () =>
      (await t.request('GET', `${searchPath(projectId, 'copper')}&limit=100`)).body.map((hit: { pageId: string }) => hit.pageId);
    const earlier = await copper();
    const items = Object.keys(pages).filter((path) => path.startsWith('/item'));
    for (const path of items.slice(0, 20)) pages[path] = (pages[path] as string).replaceAll('copper', 'brass');
    await crawlProject(t, projectId);
    await buildProjectIndex(t, projectId);
    const later = await copper();
    const expected = await fts5.searchFts5(projectId, query('copper'), { offset: 0, limit: 100 });
    assert.ok(expected);
    assert.deepEqual(
      later,
      expected.hits.map((hit) => hit.pageId),
    );
    assert.ok(later.length > 0 && later.length < earlier.length, `${later.length} hits after, ${earlier.length} before`);
  });

  it('removes a build’s lists with its project', async () => {
    const other = await createProject(t, site);
    await crawlProject(t, other);
    await buildProjectIndex(t, other);
    const count = async () =>
      (await sql<{ n: number }>`SELECT count(DISTINCT build_id) AS n FROM search_word_postings`.execute(t.server.database.db)).rows[0].n;
    assert.equal(await count(), 2);
    assert.equal((await t.request('DELETE', `/api/v1/projects/${other}`)).status, 200);
    assert.equal(await count(), 1);
    assert.equal((await lists()).length, 1);
  });
});
