/**
 * The fewest pages a word needs for a word list of its own (sqlite-word-postings.ts), unless
 * LOUPE_SEARCH_LIST_MIN_PAGES says otherwise. Below it FTS5 ranks a word's matches in a
 * fraction of a millisecond. At 50,000 pages of the search bench, lists of the words on 100
 * pages or more held 23 million matches in 112 MB and answered 669 cold queries a second at 20
 * clients (p50 28 ms); on 1,000 or more, 16 million in 82 MB and 457 (p50 40 ms), the rarer
 * words' queries then ranked by FTS5 the slowest.
 *
 * A module of its own so that the configuration reads it without loading the search modules.
 */
export const LIST_THRESHOLD = 100;
