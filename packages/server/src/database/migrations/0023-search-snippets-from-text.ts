import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL's snippets are made from the hit's text by the server (search/postgres-snippet.ts)
 * rather than by ts_headline over the words around the first match, so what found those words
 * goes: the word marks and their function (migration 0021), and each block's title ends
 * (migration 0020), which told where a document's text begins among its positions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP FUNCTION search_text_words(text, integer[], integer, integer)`.execute(db);
  await sql`ALTER TABLE search_documents DROP COLUMN word_marks`.execute(db);
  await sql`ALTER TABLE search_list_blocks DROP COLUMN title_ends`.execute(db);
}
