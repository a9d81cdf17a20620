import type { SearchHit, SearchQuery } from '@loupe/contract';
import { LRUCache } from 'lru-cache';
import type { PreparedPage } from '../http/prepared-page.ts';
import type { SearchAnswerSource } from '../metrics/metrics.ts';

/** A page of hits, serialised (http/prepared-page.ts), and the build whose generation ranked it. */
export interface SearchAnswer {
  buildId: string;
  page: PreparedPage<SearchHit>;
}

/**
 * What identifies an answer. A generation never changes once it answers queries (a rebuild
 * writes a new one, under a new build id), so the same question put to it gets the same answer.
 */
export interface SearchQuestion {
  buildId: string;
  query: SearchQuery;
  offset: number;
  limit: number;
}

export interface SearchResultCacheOptions {
  maxEntries: number;
  /** Bound on the answers' size in memory, as sizeOf estimates it; 0 keeps none. */
  maxBytes: number;
  /** Told of each answer given: kept (or being ranked for another request), or ranked for this one. */
  observe?: (source: SearchAnswerSource) => void;
}

/**
 * Recent answers of this process. A query ranks every page holding its words, and people
 * search the same words again: the second time costs a map lookup. Keyed by the build that
 * answered, never invalidated: once a rebuild switches, queries ask under the new build id,
 * and the old answers age out.
 */
export class SearchResultCache {
  readonly #answers: LRUCache<string, SearchAnswer> | undefined;
  /** Misses being answered: concurrent requests for one answer share its computation. */
  readonly #pending = new Map<string, Promise<SearchAnswer>>();
  readonly #observe: (source: SearchAnswerSource) => void;

  constructor(options: SearchResultCacheOptions) {
    this.#answers =
      options.maxBytes > 0 && options.maxEntries > 0
        ? new LRUCache({ max: options.maxEntries, maxSize: options.maxBytes, sizeCalculation: sizeOf })
        : undefined;
    this.#observe = options.observe ?? (() => {});
  }

  /**
   * The answer to `question`, kept or from `answer`. A fresh answer is kept under the build that
   * gave it, which is a newer one than the question's when a rebuild switched in between.
   */
  async get(question: SearchQuestion, answer: () => Promise<SearchAnswer>): Promise<SearchAnswer> {
    const key = keyOf(question);
    const kept = this.#answers?.get(key);
    if (kept) {
      this.#observe('kept');
      return kept;
    }
    let pending = this.#pending.get(key);
    this.#observe(pending ? 'kept' : 'ranked');
    if (!pending) {
      pending = answer()
        .then((fresh) => {
          this.#answers?.set(keyOf({ ...question, buildId: fresh.buildId }), fresh);
          return fresh;
        })
        .finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    return pending;
  }

  get size(): number {
    return this.#answers?.size ?? 0;
  }
}

/** The parsed query, not its text: `lantern  oil` and `lantern oil -!` ask the same. */
function keyOf(question: SearchQuestion): string {
  const terms = (group: SearchQuery['excluded']) => group.map((term) => [term.text, term.quoted]);
  return JSON.stringify([
    question.buildId,
    question.offset,
    question.limit,
    question.query.required.map(terms),
    terms(question.query.excluded),
  ]);
}

/** What an entry holds besides its page's bytes and its key's characters: the objects, the cursor, the build id. */
const ENTRY_BYTES = 400;

/** What the answer and its key hold in memory: its page's JSON bytes (outside the JS heap), its key's characters, and a little more. */
export function sizeOf(answer: SearchAnswer, key: string): number {
  return ENTRY_BYTES + answer.page.itemsJson.byteLength + key.length;
}
