import type { FrontierStore, RecordedPage } from './frontier-store.ts';

/** Pages written in one transaction at most. */
const MAX_BATCH = 32;

interface Pending {
  id: string;
  page: RecordedPage;
  written: () => void;
  failed: (error: unknown) => void;
}

/**
 * Writes a crawl's recorded pages, those that finish while a write is under way together in
 * the next transaction: one commit for many pages (group commit). A page not yet committed
 * when the process dies is in flight in the frontier, fetched again on the resume.
 */
export class PageWriter {
  readonly #store: FrontierStore;
  readonly #crawlId: string;
  #queue: Pending[] = [];
  #writing: Promise<void> | null = null;

  constructor(store: FrontierStore, crawlId: string) {
    this.#store = store;
    this.#crawlId = crawlId;
  }

  /** Resolves once the page is committed. */
  write(id: string, page: RecordedPage): Promise<void> {
    return new Promise((written, failed) => {
      this.#queue.push({ id, page, written, failed });
      // Pages finishing in the same turn of the event loop join the first one.
      this.#writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#drain());
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, MAX_BATCH);
        try {
          await this.#store.recordPages(this.#crawlId, batch);
          for (const pending of batch) pending.written();
        } catch (error) {
          for (const pending of batch) pending.failed(error);
        }
      }
    } finally {
      this.#writing = null;
    }
  }
}
