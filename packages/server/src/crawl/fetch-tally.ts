import type { CrawlProgress, RecentFetch } from '@loupe/contract';

/** What one request of a crawl came to, as the crawler tells its runner: a page fetched or a link checked. */
export interface FetchOutcome {
  url: string;
  kind: RecentFetch['kind'];
  status: number | null;
  /** The fetcher's or link checker's error ('dns', 'loop', 'network: …', 'blocked-by-robots'); null when an answer came. */
  error: string | null;
}

/** Requests kept for the live page: enough to see what the crawl is doing, few enough to write twice a second. */
export const RECENT_FETCHES = 10;

/** An error's kind is its first word ('network: socket hang up' is 'network'): a small, fixed set of keys. */
const KIND = /^[a-z0-9-]{1,40}$/;

function failureKind(error: string): string {
  const kind = error.split(':', 1)[0]!.trim();
  return KIND.test(kind) ? kind : 'network';
}

/** The kind a failed request is counted under; null for an answer that is no error (below 400). */
export function errorKind(outcome: Pick<FetchOutcome, 'status' | 'error'>): string | null {
  if (outcome.error !== null) return failureKind(outcome.error);
  if (outcome.status === null || outcome.status < 400) return null;
  return outcome.status >= 500 ? '5xx' : '4xx';
}

/**
 * A crawl's errors so far by kind and its last requests (issue #24, point 6): a map of a
 * dozen kinds at most and a ring of RECENT_FETCHES, so the progress row stays small
 * however long the crawl. A resumed crawl goes on from what its row held.
 */
export class FetchTally {
  readonly #errors: Record<string, number>;
  /** Oldest first. */
  readonly #recent: RecentFetch[];

  constructor(previous?: Partial<Pick<CrawlProgress, 'errors' | 'recent'>>) {
    this.#errors = { ...previous?.errors };
    this.#recent = [...(previous?.recent ?? [])].reverse().slice(-RECENT_FETCHES);
  }

  add(outcome: FetchOutcome, at: string): void {
    const kind = errorKind(outcome);
    if (kind !== null) this.#errors[kind] = (this.#errors[kind] ?? 0) + 1;
    const error = outcome.error === null ? null : failureKind(outcome.error);
    this.#recent.push({ url: outcome.url, kind: outcome.kind, status: outcome.status, error, at });
    if (this.#recent.length > RECENT_FETCHES) this.#recent.shift();
  }

  /** Counts by kind. */
  errors(): Record<string, number> {
    return { ...this.#errors };
  }

  /** Newest first. */
  recent(): RecentFetch[] {
    return this.#recent.toReversed();
  }
}
