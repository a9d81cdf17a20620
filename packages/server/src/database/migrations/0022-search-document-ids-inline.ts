import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * A document's row holds its tsvector (STORAGE MAIN, kept in the row), which alone puts most
 * rows over the toaster's 2 KB target; the toaster then moves every other column it may out of
 * the row, largest first, down to the 36-character ids. A query's hits read their page id, url
 * and title, and ranking in SQL tests each match's build: each a probe of the TOAST table's
 * index. Kept in the row (compressed there if need be; moved out only if the row would not fit
 * a page otherwise), the window's hits of the search bench at 50,000 pages were read in 250 µs
 * rather than 390 (ten rows). Rows written before stay as they are until their build is
 * replaced.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`ALTER TABLE search_documents
    ALTER COLUMN build_id SET STORAGE MAIN,
    ALTER COLUMN page_id SET STORAGE MAIN,
    ALTER COLUMN url SET STORAGE MAIN,
    ALTER COLUMN title SET STORAGE MAIN`.execute(db);
}
