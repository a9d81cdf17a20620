/**
 * The fewest pages a word needs for a word list of its own (sqlite-word-postings.ts), unless
 * LOUPE_SEARCH_LIST_MIN_PAGES says otherwise. Below it FTS5 ranks a word's matches in a
 * fraction of a millisecond. At 50,000 pages of the search bench, lists of the words on 100
 * pages or more held 23 million matches in 112 MB and answered 669 cold queries a second at 20
 * clients (p50 28 ms); on 1,000 or more, 16 million in 82 MB and 457 (p50 40 ms), the rarer
 * words' queries then ranked by FTS5 the slowest.
 *
 * A module of its own so that the configuration reads these without loading the search modules.
 */
export const LIST_THRESHOLD = 100;

/**
 * The word lists a process keeps decoded, unless LOUPE_SEARCH_LIST_CACHE_BYTES says otherwise:
 * a query whose lists are kept reads none from the database. On SQLite the reader threads
 * share them (shared-word-lists.ts). At 50,000 pages of the search bench (lists of 112 MB
 * stored, 184 MB decoded), twenty clients' never-seen queries on SQLite, while each of two
 * threads kept its own half: 64 MB answered 1,350 and 1,375 a second, 128 MB 1,591 and 1,542
 * (runs taken in turns); 128 MB 1,732 and 1,684, 384 MB 1,957 and 2,046 (in turns, another
 * hour). Shared, 128 MB: 1,973, 1,826 and 1,884 where kept in halves 1,588, 1,725 and 1,678.
 */
export const LIST_CACHE_BYTES = 128 * 1024 * 1024;

export interface WordListsOptions {
  /** Tests lower it to give a small site's words lists. */
  threshold?: number;
  /** The lists kept decoded for queries (bytes): LIST_CACHE_BYTES unless set. */
  cacheBytes?: number;
}
