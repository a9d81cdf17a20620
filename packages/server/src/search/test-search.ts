import assert from 'node:assert/strict';
import { setTimeout as pause } from 'node:timers/promises';
import type { SearchHit, SearchIndexState } from '@loupe/contract';
import { now } from '../clock.ts';
import { newId } from '../ids.ts';
import { followCrawlEvents } from '../testing/test-crawls.ts';
import { type HttpAnswer, nextPage, type TestServer } from '../testing/test-server.ts';
import type { TestSite } from '../testing/test-site.ts';
import { SearchBuildStore } from './search-build-store.ts';
import type { SealProgress } from './search-engine.ts';

const PROJECTS = '/api/v1/projects';

/** A seal's progress that lets it go on, as while its build is under way. */
export const moving: SealProgress = async () => true;

export async function createProject(t: TestServer, site: TestSite): Promise<string> {
  const answer = await t.request('POST', PROJECTS, { body: { name: 'Shop', siteUrl: site.url('/'), crawlDefaults: { sitemaps: false } } });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.id;
}

/** Crawls the project's site to its end; answers the crawl, with its report. */
export async function crawlProject(t: TestServer, projectId: string): Promise<{ id: string; reportId: string }> {
  const started = await t.request('POST', `${PROJECTS}/${projectId}/crawls`, { body: {} });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  await followCrawlEvents(t, started.body.id);
  const crawl = (await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body;
  assert.ok(crawl.reportId, `the crawl ended without a report: ${JSON.stringify(crawl)}`);
  return crawl;
}

/**
 * Polls the index's state until `done` holds. The build runs as a job in the server, which
 * announces nothing a test can wait on but this endpoint; bounded to 30 s.
 */
export async function indexState(t: TestServer, projectId: string, done: (state: SearchIndexState) => boolean): Promise<SearchIndexState> {
  let last: SearchIndexState | undefined;
  for (let polls = 0; polls < 1200; polls++) {
    const answer = await t.request('GET', `${PROJECTS}/${projectId}/search-index`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    last = answer.body;
    if (done(answer.body)) return answer.body;
    await pause(25);
  }
  throw new Error(`the search index did not get there: ${JSON.stringify(last)}`);
}

/** Builds the index through the API and waits until the build is the one answering. */
export async function buildProjectIndex(t: TestServer, projectId: string): Promise<SearchIndexState> {
  const started = await t.request('POST', `${PROJECTS}/${projectId}/search-index`);
  assert.equal(started.status, 202, JSON.stringify(started.body));
  const buildId = started.body.building?.buildId;
  assert.ok(buildId, JSON.stringify(started.body));
  const ready = await indexState(t, projectId, (state) => state.building === null);
  assert.equal(ready.state, 'ready', JSON.stringify(ready));
  return ready;
}

export const searchPath = (projectId: string, q: string) => `${PROJECTS}/${projectId}/search?q=${encodeURIComponent(q)}`;

export async function search(t: TestServer, projectId: string, q: string, limit = 50): Promise<SearchHit[]> {
  const answer = await t.request('GET', `${searchPath(projectId, q)}&limit=${limit}`);
  assert.equal(answer.status, 200, `${q}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/**
 * A build of the newest report as POST starts one, but with no job to run it: the test runs
 * it with a SearchIndexBuilder of its own, as a worker would, and looks at the index between
 * its steps.
 */
export async function startBuildByHand(t: TestServer, projectId: string): Promise<string> {
  const store = new SearchBuildStore(t.server.database);
  const report = await store.latestReport(projectId);
  assert.ok(report, 'the project has no report');
  const id = newId();
  const at = now();
  assert.ok(
    await store.insertBuilding({
      id,
      project_id: projectId,
      report_id: report.id,
      crawl_id: report.crawl_id,
      started_at: at,
      updated_at: at,
    }),
  );
  return id;
}

export { parsedQuery } from './test-parsed-query.ts';

/** Every page of a query's hits, one after another by the Link header, to the ranking's end. */
export async function pagedHits(t: TestServer, projectId: string, q: string, limit: number): Promise<SearchHit[][]> {
  const pages: SearchHit[][] = [];
  let path: string | null = `${searchPath(projectId, q)}&limit=${limit}`;
  while (path) {
    const answer: HttpAnswer = await t.request('GET', path);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    pages.push(answer.body);
    path = nextPage(answer) ?? null;
  }
  return pages;
}

/** The page ids of every hit of a query, page after page, to the ranking's end. */
export async function pagedHitIds(t: TestServer, projectId: string, q: string, limit: number): Promise<string[]> {
  return (await pagedHits(t, projectId, q, limit)).flat().map((hit) => hit.pageId);
}
