import type { SearchQuery, SearchTerm } from '@loupe/contract';
import { sql } from 'kysely';
import type { Database } from '../database/database.ts';
import { rankedWindow } from './ranked-window.ts';
import type { RankedWindow, SearchDocument, SearchEngine } from './search-engine.ts';
import { MARK_END, MARK_START } from './snippet-html.ts';

/** A generation's rowids are its number times this, plus 0 … this − 1 (migration 0014); written as literals, so SQLite computes in integers. */
const SPAN = sql.lit(4294967296);
const LAST = sql.lit(4294967295);

/** FTS5 strings take any character; a double quote is written twice. */
const phrase = (term: SearchTerm) => `"${term.text.replaceAll('"', '""')}"`;

/**
 * The query in FTS5's syntax; every word is inside a string, so no text of the user's is read
 * as an operator or a column name. NOT binds tighter than AND in FTS5: `P NOT E`.
 */
export function fts5Expression(query: SearchQuery): string {
  const groups = query.required.map((group) => (group.length === 1 ? phrase(group[0]) : `(${group.map(phrase).join(' OR ')})`));
  const wanted = groups.join(' AND ');
  if (query.excluded.length === 0) return wanted;
  return `(${wanted}) NOT (${query.excluded.map(phrase).join(' OR ')})`;
}

/** FTS5 over the documents, each generation in a rowid range of its own. */
export class SqliteSearchEngine implements SearchEngine {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async add(buildId: string, documents: readonly SearchDocument[]): Promise<void> {
    if (documents.length === 0) return;
    const db = this.#database.db;
    // The build's number: the next free one, taken by its first batch (one writer at a time on SQLite).
    await sql`INSERT OR IGNORE INTO search_generations (build_id, number)
      SELECT ${buildId}, coalesce(max(number), 0) + 1 FROM search_generations`.execute(db);
    const { rows } = await sql<{ number: number; next: number }>`
      SELECT g.number, coalesce((
        SELECT max(rowid) FROM search_documents WHERE rowid BETWEEN g.number * ${SPAN} AND g.number * ${SPAN} + ${LAST}
      ) - g.number * ${SPAN} + 1, 0) AS next
      FROM search_generations g WHERE g.build_id = ${buildId}`.execute(db);
    const { number, next } = rows[0];
    // Five values a row, far below SQLite's 32,766 bound variables.
    for (let start = 0; start < documents.length; start += 500) {
      const values = documents
        .slice(start, start + 500)
        .map((d, i) => sql`(${number} * ${SPAN} + ${next + start + i}, ${d.title}, ${d.body}, ${d.pageId}, ${d.url})`);
      await sql`INSERT INTO search_documents (rowid, title, body, page_id, url) VALUES ${sql.join(values)}`.execute(db);
    }
  }

  async remove(buildId: string, limit: number): Promise<number> {
    const result = await sql`DELETE FROM search_documents WHERE rowid IN (
      SELECT d.rowid FROM search_generations g JOIN search_documents d
        ON d.rowid BETWEEN g.number * ${SPAN} AND g.number * ${SPAN} + ${LAST}
      WHERE g.build_id = ${buildId} LIMIT ${limit}
    )`.execute(this.#database.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /** FTS5 plans a MATCH the same whatever the documents: nothing to bring up to date. */
  async settle(): Promise<void> {}

  async search(projectId: string, query: SearchQuery, window: { offset: number; limit: number }): Promise<RankedWindow | undefined> {
    const expression = fts5Expression(query);
    // Ranked first on the index alone, one hit more than the window to tell whether more
    // follow; only the window's hits are read again for their snippet (snippet() reads and
    // tokenizes the text, too dear for every match). CROSS JOIN keeps SQLite from turning
    // either join around: FTS5 gets the generation's rowid range as bounds to seek by (with a
    // plain JOIN it reads the matches of every project's generation, then drops the others'),
    // and the second read seeks by rowid. It runs on a reader thread (Database.read): ranking
    // the matches of a common word takes tens of milliseconds, which the event loop would wait.
    const ranked = sql<{ n: number; build_id: string | null; report_id: string | null; page_id: string; url: string; title: string | null; snippet: string | null; score: number }>`
      WITH current AS (
        SELECT b.id, b.report_id, g.number * ${SPAN} AS low, g.number * ${SPAN} + ${LAST} AS high
        FROM search_builds b JOIN search_generations g ON g.build_id = b.id
        WHERE b.project_id = ${projectId} AND b.state = 'ready'
      ),
      top AS (
        SELECT d.rowid AS rid, d.rank AS rank
        FROM current CROSS JOIN search_documents d
        WHERE d.search_documents MATCH ${expression} AND d.rowid >= current.low AND d.rowid <= current.high
        ORDER BY d.rank, d.rowid
        LIMIT ${window.limit + 1} OFFSET ${window.offset}
      ),
      numbered AS (
        SELECT rid, rank, row_number() OVER (ORDER BY rank, rid) AS n FROM top
      )
      SELECT 0 AS n, current.id AS build_id, current.report_id, NULL AS page_id, NULL AS url, NULL AS title, NULL AS snippet, NULL AS score
      FROM current
      UNION ALL
      SELECT numbered.n, NULL, NULL, d.page_id, d.url, d.title,
        CASE WHEN numbered.n <= ${window.limit} THEN snippet(search_documents, 1, ${MARK_START}, ${MARK_END}, '…', 30) END,
        -numbered.rank
      FROM numbered CROSS JOIN search_documents d
      WHERE d.search_documents MATCH ${expression} AND d.rowid = numbered.rid
      ORDER BY 1
    `;
    const rows = await this.#database.read(ranked.compile(this.#database.db));
    return rankedWindow(rows, window.limit, (row) => ({
      pageId: row.page_id,
      url: row.url,
      title: row.title,
      markedSnippet: row.snippet ?? '',
      score: row.score,
    }));
  }
}
