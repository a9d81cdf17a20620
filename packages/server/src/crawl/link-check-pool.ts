import type { Logger } from 'pino';
import type { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import type { CrawlUrlRow, FrontierStore } from './frontier-store.ts';
import { checkLink, type LinkCheck } from './link-checker.ts';
import { NOT_CHECKED } from './link-outcome.ts';

export type LinkKind = 'asset' | 'external';

export interface LinkCheckPoolOptions {
  store: FrontierStore;
  /** The crawl's own fetcher, whose DNS answers are cached for the crawl. */
  fetcher: GuardedFetcher;
  log: Logger;
  crawlId: string;
  /** What is checked: assets (images, the site's scripts and stylesheets) always; other sites' links, scripts and stylesheets unless turned off. */
  kinds: readonly LinkKind[];
  check: { timeoutMs: number; maxRedirects: number; userAgent: string };
  /** Checks in flight at once, across hosts. */
  concurrency: number;
  /** Checks in flight at once to one host: another site is asked politely. */
  perHost: number;
  /** Checks this crawl may make in all, those of an earlier run (before a resume) included. */
  cap: number;
  alreadySettled: number;
  /** The crawled site's host and the pause its pages are asked with: its assets wait as long. */
  site: { host: string; gapMs: number };
  /** The crawl's stop (cancel, shutdown): checks cut short wait for the resume. */
  signal: AbortSignal;
  /** Told of each link settled by an answer or its host's failure (not of those left unchecked). */
  onChecked?: (url: string, check: LinkCheck) => void;
}

/** A crawl's link checks unless the operator says otherwise (LOUPE_LINK_CHECK_CAP, LOUPE_LINK_CHECK_BUDGET_SECONDS). */
export const DEFAULT_LINK_CHECKS = { cap: 10_000, budgetMs: 60_000 };

/** How long a page's wake waits for others to join it. */
const WAKE_DELAY_MS = 50;
/** Rows claimed from the frontier at once, and how few left in hand call for more. */
const CLAIM_BATCH = 200;

/** A host that never answered and timed out this many times in a row is taken as not answering at all. */
const SILENT_HOST_TIMEOUTS = 3;

interface HostQueue {
  rows: CrawlUrlRow[];
  inFlight: number;
  /** Whether any check of the host got an answer, and its timeouts in a row since. */
  answered: boolean;
  timeouts: number;
  /** Set once the host proved unusable (no such host, connection refused, silent): its links all settle with it. */
  failure: LinkCheck | null;
}

/**
 * Checks a crawl's images, scripts, stylesheets and links to other sites while its pages are crawled (DESIGN.md §10):
 * a pool fed from the frontier, where no check waits for another's slowest, each host gets
 * at most `perHost` at once and the pool `concurrency`. A host that does not resolve,
 * refuses connections or never answered and timed out three times in a row settles all of
 * its links with that answer at once. `finish` gives the
 * checks left after the last page a time budget; whatever is left then, or beyond the cap,
 * is recorded as not checked.
 */
export class LinkCheckPool {
  readonly #o: LinkCheckPoolOptions;
  readonly #hosts = new Map<string, HostQueue>();
  /** Ends the checks in flight at the budget, as well as on the crawl's stop. */
  readonly #stop = new AbortController();
  readonly #signal: AbortSignal;
  #settled: number;
  #claimed: number;
  #inHand = 0;
  #inFlight = 0;
  #filling: Promise<void> | null = null;
  /** The frontier held nothing to check at the last claim: true until a page may have added some. */
  #frontierEmpty = false;
  #idle: (() => void) | null = null;
  #wakeTimer: NodeJS.Timeout | null = null;

  constructor(options: LinkCheckPoolOptions) {
    this.#o = options;
    this.#settled = options.alreadySettled;
    this.#claimed = options.alreadySettled;
    this.#signal = AbortSignal.any([options.signal, this.#stop.signal]);
  }

  /** Links settled so far (checked, or answered for by their host's failure). */
  get settled(): number {
    return this.#settled;
  }

  /** Links taken from the frontier and not settled yet. */
  get pending(): number {
    return this.#inHand;
  }

  /**
   * A page was recorded: the frontier may hold new links to check. Wakes within WAKE_DELAY_MS
   * are one claim, not a query a page.
   */
  wake(): void {
    this.#frontierEmpty = false;
    this.#wakeTimer ??= setTimeout(() => {
      this.#wakeTimer = null;
      this.#fill();
    }, WAKE_DELAY_MS);
  }

  /**
   * After the last page: checks what is left for at most `budgetMs`, then records the rest
   * as not checked (over the cap, past the budget). Answers when every link is settled.
   */
  async finish(budgetMs: number): Promise<void> {
    clearTimeout(this.#wakeTimer ?? undefined);
    this.#wakeTimer = null;
    this.#frontierEmpty = false;
    this.#fill();
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<'budget'>((resolve) => {
      timer = setTimeout(() => resolve('budget'), budgetMs);
    });
    const outcome = await Promise.race([this.#drained(), budget]);
    clearTimeout(timer);
    if (this.#o.signal.aborted) return;
    if (outcome === 'budget') {
      this.#stop.abort();
      await this.#drained();
    }
    const { store, crawlId, kinds } = this.#o;
    const reason = outcome === 'budget' ? NOT_CHECKED.timeBudget : NOT_CHECKED.overCap;
    this.#settled += await store.settleUnfinished(crawlId, kinds, { fetch_error: reason, fetched_at: new Date().toISOString() });
    if (!kinds.includes('external'))
      await store.settleUnfinished(crawlId, ['external'], { fetch_error: NOT_CHECKED.turnedOff, fetched_at: new Date().toISOString() });
  }

  /** Resolves once nothing is in hand and the frontier has nothing left this pool may take. */
  #drained(): Promise<void> {
    if (this.#quiet()) return Promise.resolve();
    return new Promise((resolve) => {
      this.#idle = resolve;
    });
  }

  #quiet(): boolean {
    const nothingToTake = this.#frontierEmpty || this.#claimed >= this.#o.cap || this.#signal.aborted;
    return this.#inHand === 0 && this.#filling === null && nothingToTake;
  }

  /**
   * More is claimed when few links are in hand, or when slots are free and every link in hand
   * waits for a busy host: one slow host never holds up the others' links.
   */
  #fill(): void {
    if (this.#filling || this.#frontierEmpty || this.#signal.aborted) return;
    const room = Math.min(CLAIM_BATCH, this.#o.cap - this.#claimed);
    if (room <= 0) return;
    if (this.#inHand >= CLAIM_BATCH / 2 && (this.#inFlight >= this.#o.concurrency || this.#anyReady())) return;
    this.#filling = this.#claim(room)
      .catch((error: unknown) => this.#o.log.error({ err: error, crawlId: this.#o.crawlId }, 'link check claim failed'))
      .finally(() => {
        this.#filling = null;
        this.#dispatch();
        if (!this.#frontierEmpty) this.#fill();
      });
  }

  async #claim(room: number): Promise<void> {
    const { store, crawlId, kinds } = this.#o;
    const rows: CrawlUrlRow[] = [];
    for (const kind of kinds) {
      if (rows.length >= room) break;
      rows.push(...(await store.claim(crawlId, kind, room - rows.length)));
    }
    if (rows.length === 0) {
      this.#frontierEmpty = true;
      return;
    }
    this.#claimed += rows.length;
    this.#inHand += rows.length;
    const settleNow = new Map<HostQueue, CrawlUrlRow[]>();
    for (const row of rows) {
      const host = this.#host(row.url);
      if (host.failure) settleNow.set(host, [...(settleNow.get(host) ?? []), row]);
      else host.rows.push(row);
    }
    for (const [host, settled] of settleNow) await this.#settleWith(host.failure!, settled);
  }

  #anyReady(): boolean {
    for (const [name, host] of this.#hosts) if (host.rows.length > 0 && host.inFlight < this.#perHost(name)) return true;
    return false;
  }

  #perHost(name: string): number {
    return name === this.#o.site.host && this.#o.site.gapMs > 0 ? 1 : this.#o.perHost;
  }

  #host(url: string): HostQueue {
    const name = URL.parse(url)?.host ?? '';
    let host = this.#hosts.get(name);
    if (!host) {
      host = { rows: [], inFlight: 0, answered: false, timeouts: 0, failure: null };
      this.#hosts.set(name, host);
    }
    return host;
  }

  #dispatch(): void {
    for (const [name, host] of this.#hosts) {
      if (this.#signal.aborted || this.#inFlight >= this.#o.concurrency) break;
      const perHost = this.#perHost(name);
      while (host.rows.length > 0 && host.inFlight < perHost && this.#inFlight < this.#o.concurrency) {
        const row = host.rows.shift()!;
        host.inFlight += 1;
        this.#inFlight += 1;
        void this.#check(name, host, row);
      }
    }
    if (this.#signal.aborted) this.#abandonQueued();
    if (this.#quiet()) this.#wakeIdle();
  }

  async #check(name: string, host: HostQueue, row: CrawlUrlRow): Promise<void> {
    try {
      const check = await checkLink(this.#o.fetcher, row.url, { ...this.#o.check, signal: this.#signal });
      // Cut short (stop or budget): the row stays in flight, for the resume or finish to settle.
      if (this.#signal.aborted) this.#inHand -= 1;
      else {
        await this.#settleWith(check, [row]);
        host.timeouts = check.error === 'timeout' && !host.answered ? host.timeouts + 1 : 0;
        host.answered ||= check.status !== null;
        if ((check.hostFailure || host.timeouts >= SILENT_HOST_TIMEOUTS) && !host.failure) {
          host.failure = check;
          await this.#settleWith(check, host.rows.splice(0));
        }
      }
      if (name === this.#o.site.host && this.#o.site.gapMs > 0) await abortableDelay(this.#o.site.gapMs, this.#signal);
    } catch (error) {
      this.#o.log.error({ err: error, url: row.url }, 'link check failed');
      this.#inHand -= 1;
    } finally {
      host.inFlight -= 1;
      this.#inFlight -= 1;
      this.#dispatch();
      this.#fill();
    }
  }

  async #settleWith(check: LinkCheck, rows: readonly CrawlUrlRow[]): Promise<void> {
    if (rows.length === 0) return;
    const result = {
      status_code: check.status,
      final_url: rows.length === 1 ? check.finalUrl : null,
      bytes: check.bytes,
      response_ms: check.responseMs,
      fetch_error: check.error,
      fetched_at: new Date().toISOString(),
    };
    if (rows.length === 1) await this.#o.store.complete(rows[0]!.id, result);
    else
      await this.#o.store.completeMany(
        rows.map((row) => row.id),
        result,
      );
    this.#settled += rows.length;
    this.#inHand -= rows.length;
    for (const row of rows) this.#o.onChecked?.(row.url, check);
  }

  /** Stopped: links held in memory stay in flight in the frontier, which a resume requeues and finish settles. */
  #abandonQueued(): void {
    for (const host of this.#hosts.values()) this.#inHand -= host.rows.splice(0).length;
  }

  #wakeIdle(): void {
    const idle = this.#idle;
    this.#idle = null;
    idle?.();
  }
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
