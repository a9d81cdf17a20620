import type { CrawlProgress as ShownProgress } from '@loupe/contract';
import type { Logger } from 'pino';
import type { CrawlProgress } from './crawl-progress.ts';
import type { CrawlStore } from './crawl-store.ts';
import { type FetchOutcome, FetchTally } from './fetch-tally.ts';
import { RateWindow } from './rate-window.ts';
import type { CrawlPhase, StoredCrawlProgress } from './stored-crawl-progress.ts';

/** Progress is written at most this often (about twice a second), a change of phase at once. */
const WRITE_EVERY_MS = 500;
/** Rates are worked out over about this long: recent enough to show a stall within seconds. */
const RATE_WINDOW_MS = 5_000;

export interface CrawlProgressRecorderOptions {
  store: CrawlStore;
  crawlId: string;
  log: Logger;
  /** What the crawl's row holds already: a resumed crawl keeps its phase's start. */
  previous: StoredCrawlProgress | null;
  /** Milliseconds; injected by tests to pin the rates. */
  clock?: () => number;
  /** False leaves the writes to `tick()` (tests); true writes changes every WRITE_EVERY_MS. */
  autoTick?: boolean;
}

/**
 * Keeps a crawl's progress in its row while it runs (issue #23, point 2): the crawler's
 * counts, the phases the runner adds (report, done), recent rates, and when each phase began.
 * The crawler may report on every page; the row is written only when something shown has
 * changed, at most every WRITE_EVERY_MS, and a phase change at once.
 */
export class CrawlProgressRecorder {
  readonly #store: CrawlStore;
  readonly #crawlId: string;
  readonly #log: Logger;
  readonly #clock: () => number;
  readonly #rates = new RateWindow(RATE_WINDOW_MS);
  readonly #tally: FetchTally;
  #latest: CrawlProgress;
  /** Null until begin() on a fresh crawl. */
  #phase: CrawlPhase | null;
  #stored: StoredCrawlProgress;
  #written = '';
  #writing: Promise<void> = Promise.resolve();
  #inFlight = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: CrawlProgressRecorderOptions) {
    this.#store = options.store;
    this.#crawlId = options.crawlId;
    this.#log = options.log;
    this.#clock = options.clock ?? Date.now;
    const previous = options.previous?.current;
    this.#latest = {
      phase: 'pages',
      pages: previous?.pages ?? { done: 0, total: 0 },
      links: previous?.links ?? { done: 0, total: 0 },
      lastUrl: '',
    };
    this.#phase = previous?.phase ?? null;
    this.#tally = new FetchTally(previous);
    this.#stored = options.previous ?? { current: this.#shown(new Date(this.#clock()).toISOString()), step: 0, entered: {} };
    if (options.autoTick !== false) this.#timer = setInterval(() => this.tick(), WRITE_EVERY_MS);
  }

  /** The crawl is fetching pages: written at once (a resumed crawl in the pages phase keeps its start). */
  begin(): Promise<void> {
    return this.#enter('pages');
  }

  /** From the crawler, as often as it likes; ignored once the runner builds the report (a late timer of the crawler's). */
  report(progress: CrawlProgress): void {
    if (this.#phase === 'report' || this.#phase === 'done') return;
    this.#latest = progress;
    this.#rates.add(this.#clock(), [progress.pages.done, progress.links.done]);
    if (progress.phase !== this.#phase) void this.#enter(progress.phase);
  }

  /** From the crawler, for each page fetched and link checked: errors by kind and the last requests. */
  fetched(outcome: FetchOutcome): void {
    if (this.#phase === 'report' || this.#phase === 'done') return;
    this.#tally.add(outcome, new Date(this.#clock()).toISOString());
  }

  /** The runner builds the report: written at once; resolves when it is. */
  buildingReport(): Promise<void> {
    return this.#enter('report');
  }

  /**
   * Stops writing and answers the final progress (phase done, the pages counted as the crawl's
   * end counts them), to be written with the crawl's
   * end so that no client sees a finished crawl still "building report", or the reverse.
   */
  async finish(pagesDone: number): Promise<StoredCrawlProgress> {
    this.stop();
    await this.#writing;
    const pages = { done: pagesDone, total: Math.max(pagesDone, this.#latest.pages.total) };
    this.#latest = { ...this.#latest, pages };
    this.#phase = 'done';
    this.#update(true);
    return this.#stored;
  }

  /** Writes what changed since the last write, unless a write is still going (it is then next tick's). */
  tick(): void {
    if (this.#phase === null || this.#phase === 'done' || this.#inFlight > 0) return;
    this.#update(false);
    const json = JSON.stringify(this.#stored);
    if (json !== this.#written) this.#write();
  }

  /** Resolves once every write asked for so far is done. */
  flush(): Promise<void> {
    return this.#writing;
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #enter(phase: CrawlPhase): Promise<void> {
    if (phase === this.#phase) return this.#writing;
    this.#phase = phase;
    this.#update(true);
    return this.#write();
  }

  /** Rebuilds the stored progress from the latest counts; `entering` marks the start of `#phase`. */
  #update(entering: boolean): void {
    const at = this.#clock();
    const phase = this.#phase ?? 'pages';
    const phaseStartedAt = entering ? new Date(at).toISOString() : this.#stored.current.phaseStartedAt;
    const current = this.#shown(phaseStartedAt, at);
    const step = entering ? this.#stored.step + 1 : this.#stored.step;
    const entered = entering ? { ...this.#stored.entered, [phase]: { step, progress: current } } : this.#stored.entered;
    this.#stored = { current, step, entered };
  }

  #shown(phaseStartedAt: string, at = this.#clock()): ShownProgress {
    const [pagesPerSecond = null, linksPerSecond = null] = this.#rates.rates(at);
    const phase = this.#phase ?? 'pages';
    const { pages, links } = this.#latest;
    return {
      phase,
      pages: { ...pages },
      links: { ...links },
      // A rate is shown while its count can move: pages in the pages phase, links until the report.
      pagesPerSecond: phase === 'pages' ? pagesPerSecond : null,
      linksPerSecond: phase === 'pages' || phase === 'links' ? linksPerSecond : null,
      phaseStartedAt,
      secondsLeft: phase === 'pages' ? secondsLeft(pages, pagesPerSecond) : phase === 'links' ? secondsLeft(links, linksPerSecond) : null,
      errors: this.#tally.errors(),
      recent: this.#tally.recent(),
    };
  }

  /** Writes are chained, so they land in order and the last one written is the latest. */
  #write(): Promise<void> {
    const progress = this.#stored;
    const lastUrl = this.#latest.lastUrl;
    this.#written = JSON.stringify(progress);
    this.#inFlight += 1;
    this.#writing = this.#writing
      .then(() => this.#store.setProgress(this.#crawlId, progress, lastUrl))
      // Progress is shown, not kept: a failed write must not fail the crawl.
      .catch((error: unknown) => this.#log.warn({ err: error, crawlId: this.#crawlId }, 'crawl progress not written'))
      .finally(() => (this.#inFlight -= 1));
    return this.#writing;
  }
}

/** What is left of a phase's count at its recent rate; null while the rate is unknown or nil. */
function secondsLeft(count: { done: number; total: number }, perSecond: number | null): number | null {
  if (perSecond === null || perSecond <= 0) return null;
  return Math.ceil(Math.max(0, count.total - count.done) / perSecond);
}
