import { LoupeError, type SearchHit, type SearchIndexState, type SearchQuery } from '@loupe/contract';
import { type AuditProjectService, projectNotFound } from '../audit-projects/audit-project-service.ts';
import { now } from '../clock.ts';
import type { Database } from '../database/database.ts';
import { PreparedPage } from '../http/prepared-page.ts';
import { newId } from '../ids.ts';
import type { Principal } from '../principal.ts';
import type { ProjectBuild } from './ready-builds.ts';
import { type SearchBuildRow, SearchBuildStore } from './search-build-store.ts';
import { decodeSearchCursor, encodeSearchCursor, invalidCursor } from './search-cursor.ts';
import { type SearchEngine, searchEngineFor } from './search-engine.ts';
import { type SearchAnswer, SearchResultCache, type SearchResultCacheOptions } from './search-result-cache.ts';
import { snippetHtml } from './snippets/snippet-html.ts';

/** How deep the ranking can be paged: past the best thousand, a search wants more words, not more pages. */
export const MAX_HITS = 1000;

/** A build that has recorded nothing for this long lost its worker (one batch takes milliseconds). */
const STALLED_AFTER_MS = 10 * 60_000;

/**
 * Answers kept per process, within LOUPE_SEARCH_CACHE_BYTES: a page of 10 hits counts about
 * 5 KB (its JSON's bytes), so the default 64 MB holds some 13,000 of them. The entries bound is
 * for answers of no hit or one (some 500 bytes).
 */
const cacheOptions = (maxBytes: number, observe: SearchServiceOptions['observe']): SearchResultCacheOptions => ({
  maxBytes,
  maxEntries: Math.ceil(maxBytes / 256),
  observe,
});

export interface SearchServiceOptions {
  /** Bound on the answers kept per process (bytes); 0 keeps none. */
  cacheBytes: number;
  /** Bound on the word lists kept decoded per process (bytes): LIST_CACHE_BYTES unless set. */
  listCacheBytes?: number;
  /** Told where each answer came from (the server's metrics). */
  observe?: SearchResultCacheOptions['observe'];
}

/** Queues the job that runs a build. */
export type EnqueueBuild = (buildId: string) => Promise<void>;

const notBuilt = () =>
  new LoupeError('search_index_not_built', {
    message: "The project's search index is not built yet: POST …/search-index, then search once its state is ready.",
  });
const rebuilt = () => invalidCursor('The search index was rebuilt since this page: search again from the first page.');

/** Project search (DESIGN.md §8): builds of the index from the newest report, its state, and queries. */
export class SearchService {
  readonly #builds: SearchBuildStore;
  readonly #engine: SearchEngine;
  readonly #projects: AuditProjectService;
  readonly #enqueue: EnqueueBuild;
  readonly #answers: SearchResultCache;

  constructor(database: Database, projects: AuditProjectService, enqueue: EnqueueBuild, options: SearchServiceOptions) {
    this.#builds = new SearchBuildStore(database);
    this.#engine = searchEngineFor(database, { cacheBytes: options.listCacheBytes });
    this.#projects = projects;
    this.#enqueue = enqueue;
    this.#answers = new SearchResultCache(cacheOptions(options.cacheBytes, options.observe));
  }

  /** Starts a build from the newest report, or answers the one under way. */
  async build(principal: Principal, projectId: string): Promise<SearchIndexState> {
    await this.#projects.require(principal, projectId);
    const report = await this.#builds.latestReport(projectId);
    if (!report)
      throw new LoupeError('project_not_crawled', { message: 'The project has no report yet: crawl it, then build its search index.' });
    const at = now();
    await this.#builds.failStalled(projectId, new Date(Date.parse(at) - STALLED_AFTER_MS).toISOString(), at);
    const id = newId();
    const started = await this.#builds.insertBuilding({
      id,
      project_id: projectId,
      report_id: report.id,
      crawl_id: report.crawl_id,
      started_at: at,
      updated_at: at,
    });
    if (started) {
      try {
        await this.#enqueue(id);
      } catch (error) {
        await this.#builds.fail(id, 'The build could not be queued.', now());
        throw error;
      }
    }
    return this.#state(projectId);
  }

  async state(principal: Principal, projectId: string): Promise<SearchIndexState> {
    await this.#projects.require(principal, projectId);
    return this.#state(projectId);
  }

  /**
   * One query reads the project (the access check) and its ready build, or a recent read of them
   * is taken (ready-builds.ts); an answer kept for that build is served as is, else the engine
   * ranks, reading the ready build again (a rebuild may have switched since) and saying which
   * one answered.
   */
  async search(
    principal: Principal,
    projectId: string,
    query: { q: SearchQuery; limit: number; cursor?: string },
  ): Promise<PreparedPage<SearchHit>> {
    const project = await this.#builds.readyBuild(projectId);
    try {
      return await this.#searchBuild(principal, projectId, project, query);
    } catch (error) {
      // Another process may have switched the build kept, or removed the project, since it was
      // read: an error it led to stands only if the project read afresh leads to it too.
      if (!project?.kept || !(error instanceof LoupeError)) throw error;
      return this.#searchBuild(principal, projectId, await this.#builds.rereadReadyBuild(projectId), query);
    }
  }

  async #searchBuild(
    principal: Principal,
    projectId: string,
    project: ProjectBuild | undefined,
    query: { q: SearchQuery; limit: number; cursor?: string },
  ): Promise<PreparedPage<SearchHit>> {
    if (project?.workspaceId !== principal.workspaceId) throw projectNotFound();
    const cursor = decodeSearchCursor(query.cursor, MAX_HITS);
    const offset = cursor?.offset ?? 0;
    const limit = Math.min(query.limit, MAX_HITS - offset);
    if (project.buildId === null) throw notBuilt();
    if (cursor && cursor.buildId !== project.buildId) throw rebuilt();
    const question = { buildId: project.buildId, query: query.q, offset, limit };
    const answer = await this.#answers.get(question, () => this.#rank(projectId, question));
    if (cursor && cursor.buildId !== answer.buildId) throw rebuilt();
    return answer.page;
  }

  async #rank(projectId: string, question: { buildId: string; query: SearchQuery; offset: number; limit: number }): Promise<SearchAnswer> {
    const { query, offset, limit } = question;
    const ranked = await this.#engine.search(projectId, query, { offset, limit }, question.buildId);
    if (!ranked) throw notBuilt();
    const more = ranked.more && offset + limit < MAX_HITS;
    const items = ranked.hits.map((hit) => ({
      pageId: hit.pageId,
      reportId: ranked.reportId,
      url: hit.url,
      title: hit.title,
      snippet: snippetHtml(hit.markedSnippet),
      score: hit.score,
    }));
    const nextCursor = more ? encodeSearchCursor({ buildId: ranked.buildId, offset: offset + limit }) : null;
    return { buildId: ranked.buildId, page: PreparedPage.of({ items, nextCursor }) };
  }

  async #state(projectId: string): Promise<SearchIndexState> {
    const builds = await this.#builds.forProject(projectId);
    const ready = builds.find((b) => b.state === 'ready');
    const building = builds.find((b) => b.state === 'building');
    const newest: SearchBuildRow | undefined = builds[0];
    const state = building ? 'building' : newest?.state === 'failed' ? 'failed' : ready ? 'ready' : 'none';
    return {
      projectId,
      state,
      reportId: ready?.report_id ?? null,
      pages: ready?.pages_indexed ?? 0,
      builtAt: ready?.finished_at ?? null,
      building: building
        ? { buildId: building.id, reportId: building.report_id, startedAt: building.started_at, pagesIndexed: building.pages_indexed }
        : null,
      error: state === 'failed' ? (newest?.error ?? null) : null,
    };
  }
}
