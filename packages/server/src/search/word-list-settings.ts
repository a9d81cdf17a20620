/**
 * The fewest pages a word needs for a word list of its own (sqlite/sqlite-word-postings.ts,
 * postgres/postgres-word-postings.ts), unless LOUPE_SEARCH_LIST_MIN_PAGES says otherwise: below
 * it the database ranks a word's few matches quickly; a higher one leaves slower words to it
 * (figures: bench/README.md, search).
 *
 * A module of its own so that the configuration reads these without loading the search modules.
 */
export const LIST_THRESHOLD = 100;

/**
 * The word lists a process keeps decoded, unless LOUPE_SEARCH_LIST_CACHE_BYTES says otherwise:
 * a query whose lists are kept reads none from the database. On SQLite the reader threads
 * share them (sqlite/shared-word-lists.ts). How the budget weighs against queries a second:
 * bench/README.md, search.
 */
export const LIST_CACHE_BYTES = 128 * 1024 * 1024;

/** What a build stores besides its documents, and how much of it queries keep decoded. */
export interface WordListsOptions {
  /** The fewest pages a word needs for a list: LIST_THRESHOLD unless set (the configuration's; tests lower it for a small site). */
  threshold?: number;
  /** The lists kept decoded for queries (bytes): LIST_CACHE_BYTES unless set. */
  cacheBytes?: number;
}
