import { setImmediate as turnOfTheLoop } from 'node:timers/promises';
import type { StoredPage } from '../audit/stored-page-store.ts';
import { StoredPageStore } from '../audit/stored-page-store.ts';
import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import { mainTextOf } from '../page-facts/main-content.ts';
import { type SearchBuildRow, SearchBuildStore } from './search-build-store.ts';
import { type SealProgress, type SearchDocument, searchEngineFor } from './search-engine.ts';
import { indexedText } from './snippets/snippet-html.ts';
import type { WordListsOptions } from './word-list-settings.ts';

export interface BuilderOptions {
  /** Pages read (and decompressed) at a time. */
  pagesPerRead?: number;
  /** Characters of text written per transaction; the engine's own by default (SearchEngine.charsPerTransaction). */
  charsPerTransaction?: number;
  /** Called after each transaction of documents commits (tests look at the index then). */
  afterCommit?: () => Promise<void>;
  /** What a build stores besides its documents (its word lists). */
  wordLists?: WordListsOptions;
  /** How often a seal records that the build is moving (a minute by default; tests ask for every step). */
  sealProgressEveryMs?: number;
}

/** Documents removed per statement when a generation goes: FTS5 deletes slowly, and on SQLite queries wait meanwhile. */
const REMOVE_BATCH = 50;

/** A page the index holds: an HTML page that answered 2xx, its main content as its body. */
function toDocument(page: StoredPage): SearchDocument | null {
  if (page.text === null || page.status === null || page.status < 200 || page.status > 299) return null;
  const title = page.summary?.title ?? null;
  // The main content only: a site's menus and footers would match on every page and fill snippets.
  const body = mainTextOf(page.text, page.summary?.mainTextRanges ?? null);
  return { pageId: page.id, url: page.url, title: title === null ? null : indexedText(title), body: indexedText(body) };
}

/**
 * Runs one build (the `search-index.build` job): writes the pages of the build's crawl into the
 * build's own generation, batch by batch, seals it (the engine stores what it ranks by besides
 * the documents: its word lists), then makes it the project's index in one transaction,
 * removes the generation it replaces and lets the engine settle on the documents now there. A
 * build taken over after a crash goes on after the last page it recorded; one that is no longer
 * under way (failed, replaced) stops.
 */
export class SearchIndexBuilder {
  readonly #database: Database;
  readonly #builds: SearchBuildStore;
  readonly #pages: StoredPageStore;
  readonly #pagesPerRead: number;
  readonly #charsPerTransaction: number;
  readonly #afterCommit: () => Promise<void>;
  readonly #wordLists: WordListsOptions;
  readonly #sealProgressEveryMs: number;

  constructor(database: Database, options: BuilderOptions = {}) {
    this.#database = database;
    this.#builds = new SearchBuildStore(database);
    this.#pages = new StoredPageStore(database);
    this.#pagesPerRead = options.pagesPerRead ?? 100;
    this.#charsPerTransaction = options.charsPerTransaction ?? searchEngineFor(database).charsPerTransaction;
    this.#afterCommit = options.afterCommit ?? (async () => {});
    this.#wordLists = options.wordLists ?? {};
    this.#sealProgressEveryMs = options.sealProgressEveryMs ?? 60_000;
  }

  /** `stopped`: the signal aborted, the build resumes on the next run; `gone`: nothing (left) to do. */
  async run(buildId: string, signal: AbortSignal): Promise<'done' | 'stopped' | 'gone'> {
    const build = await this.#builds.find(buildId);
    if (build?.state !== 'building') return 'gone';
    await this.sweep(build.project_id);
    let after = build.resume_after ?? undefined;
    for (;;) {
      if (signal.aborted) return 'stopped';
      const pages = await this.#pages.pages(build.crawl_id, { after, limit: this.#pagesPerRead, html: false });
      if (pages.length === 0) break;
      const written = await this.#write(build, pages, signal);
      if (written !== 'done') return written;
      after = pages.at(-1)?.id;
      if (pages.length < this.#pagesPerRead) break;
    }
    if (!(await searchEngineFor(this.#database, this.#wordLists).seal(buildId, signal, this.#sealProgress(buildId)))) {
      return (await this.#builds.find(buildId))?.state === 'building' ? 'stopped' : 'gone';
    }
    if (!(await this.#builds.complete(buildId, build.project_id, now()))) return 'gone';
    await this.sweep(build.project_id);
    await searchEngineFor(this.#database).settle();
    return 'done';
  }

  /**
   * A seal's progress as the build's: its updated_at moved at most every sealProgressEveryMs,
   * well within the ten minutes after which a build is taken for stalled.
   */
  #sealProgress(buildId: string): SealProgress {
    let recorded = performance.now();
    return async () => {
      if (performance.now() - recorded < this.#sealProgressEveryMs) return true;
      recorded = performance.now();
      return this.#builds.recordSealing(buildId, now());
    };
  }

  /** Marks the build failed (queries keep reading the index it was to replace) and removes what it wrote. */
  async fail(buildId: string, error: string): Promise<void> {
    await this.#builds.fail(buildId, error, now());
    const build = await this.#builds.find(buildId);
    if (build) await this.sweep(build.project_id);
  }

  /**
   * Removes the documents of the project's replaced and failed builds, then those builds, but
   * for the newest (a failed one tells the index's state).
   */
  async sweep(projectId: string): Promise<void> {
    const builds = await this.#builds.forProject(projectId);
    const engine = searchEngineFor(this.#database);
    for (const build of builds) {
      if (build.state !== 'retired' && build.state !== 'failed') continue;
      while ((await engine.remove(build.id, REMOVE_BATCH)) > 0) await turnOfTheLoop();
      if (build.id !== builds[0].id) await this.#builds.delete(build.id);
    }
  }

  /** Writes a read batch in transactions of about charsPerTransaction, stopping between two when asked. */
  async #write(build: SearchBuildRow, pages: readonly StoredPage[], signal: AbortSignal): Promise<'done' | 'stopped' | 'gone'> {
    let chunk: SearchDocument[] = [];
    let chars = 0;
    for (let i = 0; i < pages.length; i++) {
      const document = toDocument(pages[i]);
      if (document) {
        chunk.push(document);
        chars += document.body.length + (document.title?.length ?? 0);
      }
      if (chars < this.#charsPerTransaction && i < pages.length - 1) continue;
      const documents = chunk;
      const lastPageId = pages[i].id;
      const written = await inTransaction(this.#database, async (transaction) => {
        if (!(await new SearchBuildStore(transaction).recordProgress(build.id, documents.length, lastPageId, now()))) return false;
        await searchEngineFor(transaction).add(build.id, documents);
        return true;
      });
      if (!written) return 'gone';
      await this.#afterCommit();
      // SQLite's driver answers at once, so awaiting it never lets requests in: without this
      // turn, a build held every request of the process until it ended.
      await turnOfTheLoop();
      if (signal.aborted) return 'stopped';
      chunk = [];
      chars = 0;
    }
    return 'done';
  }
}
