import type { UsageCounts, UsageStore } from './usage-store.ts';

/** How often counters reach the database: a CDN hit must not cost a write. */
const FLUSH_INTERVAL_MS = 5_000;

/**
 * Counts CDN traffic in memory and adds it to the database in batches, so the warm path
 * stays free of writes. At most the last few seconds are lost if the process dies.
 */
export class UsageRecorder {
  readonly #store: UsageStore;
  readonly #onError: (error: unknown) => void;
  #pending = new Map<string, UsageCounts>();
  #timer: NodeJS.Timeout;
  #flushing: Promise<void> = Promise.resolve();

  constructor(store: UsageStore, onError: (error: unknown) => void) {
    this.#store = store;
    this.#onError = onError;
    this.#timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.#timer.unref();
  }

  record(projectId: string, served: { bytes: number; transformed: boolean; cacheHit: boolean }, at = new Date()): void {
    const key = `${projectId}|${at.toISOString().slice(0, 10)}`;
    let counts = this.#pending.get(key);
    if (!counts) this.#pending.set(key, (counts = { requests: 0, bytesServed: 0, transforms: 0, cacheHits: 0 }));
    counts.requests += 1;
    counts.bytesServed += served.bytes;
    if (served.transformed) counts.transforms += 1;
    if (served.cacheHit) counts.cacheHits += 1;
  }

  /** Writes what has been counted; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(async () => {
      const batch = this.#pending;
      this.#pending = new Map();
      for (const [key, counts] of batch) {
        const [projectId = '', day = ''] = key.split('|');
        try {
          await this.#store.add(projectId, day, counts);
        } catch (error) {
          this.#onError(error);
        }
      }
    });
    return this.#flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
