import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** Where a search's answer came from: kept from an earlier query (search/search-result-cache.ts), or ranked for it. */
export type SearchAnswerSource = 'kept' | 'ranked';

/**
 * The server's Prometheus metrics (DESIGN.md §2: `/metrics`), in a registry of its own: tests run
 * several servers in one process, and each counts its own requests. Besides Node's own (heap,
 * event loop delay, GC), the time of every request by route pattern (never the raw URL, whose
 * ids would make a series each), and where search answers come from, which tells whether
 * LOUPE_SEARCH_CACHE_BYTES suits the queries people ask.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #requests: Histogram<'method' | 'route' | 'status'>;
  readonly #searchAnswers: Counter<'source'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'loupe_' });
    this.#requests = new Histogram({
      name: 'loupe_http_request_duration_seconds',
      help: 'Time from a request received to its answer sent, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      // From a kept answer (under a millisecond) to a crawl's report export.
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [this.registry],
    });
    this.#searchAnswers = new Counter({
      name: 'loupe_search_answers_total',
      help: 'Project search answers, by where they came from: kept from an earlier query, or ranked for this one.',
      labelNames: ['source'],
      registers: [this.registry],
    });
  }

  /** A request answered; `route` is its pattern (`/api/v1/projects/:projectId`), or `unmatched`. */
  requestAnswered(method: string, route: string, status: number, seconds: number): void {
    this.#requests.observe({ method, route, status: String(status) }, seconds);
  }

  searchAnswered(source: SearchAnswerSource): void {
    this.#searchAnswers.inc({ source });
  }
}
