import type { SearchQuery } from '@loupe/contract';
import { sql } from 'kysely';
import { compiledOnce } from '../../database/compiled-query.ts';
import type { Database } from '../../database/database.ts';
import type { PositionalList } from '../postings/positional-list.ts';
import { bestMatches, isOneWord, keepOrTerms } from '../postings/positional-ranking.ts';
import { RankingThreads } from '../postings/ranking-threads.ts';
import type { RankedWindow } from '../search-engine.ts';
import { withAngleBrackets } from '../snippets/snippet-html.ts';
import { markedSnippet } from '../snippets/text-snippet.ts';
import { excludedPhrases, type PostgresQueryTerms, requiredPhrases } from './postgres-query-terms.ts';
import { wantedLexemes } from './postgres-snippet.ts';
import type { PostgresWordPostings } from './postgres-word-postings.ts';

/** One pool for every engine of the process: its threads share the cores. */
const rankingThreads = new RankingThreads();

/**
 * A query ranked over a build's word lists (postgres-word-postings.ts) rather than by ts_rank
 * over every match: the same hits in the same order with the same scores, computed as
 * PostgreSQL computes them (postings/positional-ranking.ts). Only the window's hits are read from the
 * documents, their snippets made from their text (postgres-snippet.ts), as the SQL ranking's
 * are. It declines (undefined) where the lists cannot answer: a build without lists, a term
 * PostgreSQL reads as more than a phrase, a lexeme without a list (on fewer pages than the
 * threshold), or a build no longer ready by the time its hits are read. A query of stop words
 * alone has no hits, as in SQL.
 */
export class PostgresListSearch {
  readonly #database: Database;
  readonly #postings: PostgresWordPostings;
  readonly #terms: PostgresQueryTerms;
  readonly #hits;

  constructor(database: Database, postings: PostgresWordPostings, terms: PostgresQueryTerms) {
    this.#database = database;
    this.#postings = postings;
    this.#terms = terms;
    // Prepared once per connection.
    this.#hits = compiledOnce(() =>
      // The build must still be the ready one: a rebuild that switched meanwhile removes its documents.
      sql<{ page_id: string; url: string; title: string | null; body: string }>`
        SELECT d.page_id, d.url, d.title, d.body
        FROM search_builds b
        CROSS JOIN unnest(${[]}::int[]) WITH ORDINALITY AS h(ordinal, n)
        JOIN search_documents d ON d.build_id = b.id AND d.ordinal = h.ordinal
        WHERE b.id = ${''} AND b.state = 'ready'
        ORDER BY h.n
      `.compile(database.db),
    );
  }

  async search(buildId: string, query: SearchQuery, window: { offset: number; limit: number }): Promise<RankedWindow | undefined> {
    const build = await this.#postings.lists(buildId);
    if (!build) return undefined;
    const readings = await this.#terms.read([...query.required.flat(), ...query.excluded]);
    if ([...readings.values()].includes('other')) return undefined;
    const groups = requiredPhrases(query, readings);
    if (groups.length === 0) return { buildId, reportId: build.reportId, hits: [], more: false };
    const excluded = excludedPhrases(query, readings);
    const lexemes = [...new Set([...groups.flat(), ...excluded].flatMap((term) => term.lexemes))];
    const found = await this.#postings.listsOf(buildId, lexemes);
    const lists = new Map<string, PositionalList>();
    for (const [lexeme, list] of found) {
      if (!list) return undefined;
      lists.set(lexeme, list);
    }
    const ranked = { groups, excluded };
    const count = window.offset + window.limit + 1;
    // Words ORed: each list's terms worked out here once, for every thread's task to read.
    keepOrTerms(ranked, lists);
    // A word alone reads scores it keeps with its list, in a pass too short to send elsewhere.
    const best = isOneWord(ranked)
      ? bestMatches(ranked, lists, build.stats, count)
      : await rankingThreads.rank(ranked, lists, build.stats, count);
    const shown = best.slice(window.offset, window.offset + window.limit);
    const more = best.length > window.offset + window.limit;
    if (shown.length === 0) return { buildId, reportId: build.reportId, hits: [], more };
    const { rows } = await this.#database.db.executeQuery(
      this.#hits(
        shown.map((hit) => hit.ordinal),
        buildId,
      ),
    );
    if (rows.length < shown.length) return undefined;
    const wanted = wantedLexemes(groups);
    const hits = rows.map((row, i) => ({
      pageId: row.page_id,
      url: row.url,
      title: row.title === null ? null : withAngleBrackets(row.title),
      markedSnippet: markedSnippet(withAngleBrackets(row.body), wanted),
      score: asFloat4(shown[i].score),
    }));
    return { buildId, reportId: build.reportId, hits, more };
  }
}

/**
 * A score as the SQL ranking answers it: ts_rank's real, which PostgreSQL writes with the
 * fewest digits that read back as the same real, and node-pg reads as a double.
 */
function asFloat4(score: number): number {
  for (let digits = 1; digits < 9; digits++) {
    const shortest = Number(score.toPrecision(digits));
    if (Math.fround(shortest) === score) return shortest;
  }
  return Number(score.toPrecision(9));
}
