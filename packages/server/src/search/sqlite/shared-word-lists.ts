import { LRUCache } from 'lru-cache';
import type { PostingList } from '../postings/posting-list.ts';

/** A word's list as a reader thread gets it and gives it back: decoded in shared memory (decodeSharedList), with the build it is of. */
export interface SharedList {
  buildId: string;
  list: PostingList;
}

/** The lists of a query's words, by word. */
export type SharedLists = Record<string, SharedList>;

/**
 * The word lists SQLite's reader threads read lately, kept on the event loop's side in memory
 * the threads share: a query is posted with the lists of its words kept here, and its answer
 * brings back those the thread had to read, to keep. Each list is so kept once, whichever thread
 * read it, within one budget: kept by each thread, the same common words filled every share.
 *
 * Keyed by project and word, the list naming its build: a rebuild's first queries find the
 * previous build's lists, which a thread passes over and replaces (a generation's lists never
 * change, so a list of the ready build is never stale).
 */
export class SharedWordLists {
  readonly #lists: LRUCache<string, SharedList>;

  constructor(maxBytes: number) {
    this.#lists = new LRUCache<string, SharedList>({
      maxSize: maxBytes,
      sizeCalculation: ({ list }) => list.ordinals.byteLength + list.scores.byteLength + 64,
    });
  }

  /** The kept lists of these words of the project. */
  lend(projectId: string, words: Iterable<string>): SharedLists {
    const lent: SharedLists = {};
    for (const word of words) {
      const kept = this.#lists.get(`${projectId} ${word}`);
      if (kept) lent[word] = kept;
    }
    return lent;
  }

  /** Keeps the lists a thread read for the project. */
  keep(projectId: string, read: SharedLists): void {
    for (const [word, list] of Object.entries(read)) this.#lists.set(`${projectId} ${word}`, list);
  }
}
