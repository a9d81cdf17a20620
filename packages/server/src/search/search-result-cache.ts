import type { Page, SearchHit, SearchQuery } from '@loupe/contract';
import { LRUCache } from 'lru-cache';
import { deepFreeze } from '../http/frozen-answers.ts';

/** A page of hits and the build whose generation ranked it. */
export interface SearchAnswer {
  buildId: string;
  page: Page<SearchHit>;
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
  observe?: (source: 'kept' | 'ranked') => void;
}

/**
 * Recent answers of this process. A common word ranks every page holding it (tens of
 * milliseconds on SQLite, hundreds on PostgreSQL at 50,000 pages), and people search the same
 * words again: the second time costs a map lookup. Keyed by the build that answered, never
 * invalidated: once a rebuild switches, queries ask under the new build id, and the old
 * answers age out.
 */
export class SearchResultCache {
  readonly #answers: LRUCache<string, SearchAnswer> | undefined;
  /** Misses being answered: concurrent requests for one answer share its computation. */
  readonly #pending = new Map<string, Promise<SearchAnswer>>();
  readonly #observe: (source: 'kept' | 'ranked') => void;

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
          // Frozen: served again as it is, its JSON made once (http/frozen-answers.ts).
          deepFreeze(fresh);
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
  return JSON.stringify([question.buildId, question.offset, question.limit, question.query.required.map(terms), terms(question.query.excluded)]);
}

/** Bytes of an object and its fields' slots in V8, about: what a hit costs besides its strings. */
const OBJECT_BYTES = 96;
/** What a hit's JSON holds besides its strings' characters: names, quotes, its score. */
const HIT_JSON_BYTES = 110;

/**
 * Close to what the answer and its key hold in memory: their strings, a byte a character (V8
 * keeps text of Latin-1 alone so; the rarer others take two), the objects holding them, and the
 * answer's JSON once it has been sent (kept beside it: http/frozen-answers.ts). Counted from the
 * fields rather than by serialising the answer, which cost each miss a twentieth of the event
 * loop's time under load (profiled).
 */
export function sizeOf(answer: SearchAnswer, key: string): number {
  let bytes = OBJECT_BYTES * 2 + key.length + answer.buildId.length + (answer.page.nextCursor?.length ?? 0);
  for (const hit of answer.page.items) {
    const text = hit.pageId.length + hit.reportId.length + hit.url.length + (hit.title?.length ?? 0) + hit.snippet.length;
    bytes += OBJECT_BYTES + HIT_JSON_BYTES + 2 * text;
  }
  return bytes;
}
