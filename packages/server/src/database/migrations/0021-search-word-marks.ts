import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** Words between two marks of a document's text (search/word-marks.ts). */
export const WORD_MARK_SPAN = 32;

/**
 * PostgreSQL's snippets cut the words around a hit's first match out of its page's text, and
 * ts_headline marks them (search/postgres-tsquery.ts). The cut split the whole text into an
 * array first: a third of the database's time a query, at 50,000 pages. A document now keeps
 * where every WORD_MARK_SPAN-th word of its text starts, and `search_text_words` splits only
 * the span of the text holding the words wanted (the same words: 63 → 45 µs a page of 4.3 KB,
 * most of the rest reading the page). Documents written before have no marks, and their words
 * are cut as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // marks[j + 1]: the character (from 1, as substr counts) where word 1 + SPAN·j of the text
  // starts, its words as string_to_array(text, ' ') splits them.
  await sql`ALTER TABLE search_documents ADD COLUMN word_marks integer[]`.execute(db);
  // Kept in the row (compressed there if need be) rather than moved to the TOAST table with
  // the text: a snippet reads the marks several times, each read of a moved value a probe.
  await sql`ALTER TABLE search_documents ALTER COLUMN word_marks SET STORAGE MAIN`.execute(db);
  const span = sql.lit(WORD_MARK_SPAN);
  // Words first_word … last_word (from 1) of the text, joined by single spaces again: what
  // array_to_string((string_to_array(body, ' '))[first_word : last_word], ' ') answers. The
  // marks name the span holding them (its first word's start, the next span's start), which
  // alone is split. STABLE, as array_to_string is: the planner then puts the function's
  // expression into the query in place of each call (an IMMUTABLE function calling a STABLE
  // one is not inlined, and ran as a query of its own each call: 14% of the database's time).
  await sql`
    CREATE FUNCTION search_text_words(body text, marks integer[], first_word integer, last_word integer) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT CASE
        WHEN marks IS NULL THEN array_to_string((string_to_array(body, ' '))[first_word : last_word], ' ')
        WHEN first_word > last_word OR (first_word - 1) / ${span} >= cardinality(marks) THEN ''
        ELSE array_to_string((string_to_array(
          CASE WHEN (last_word - 1) / ${span} + 1 < cardinality(marks)
            THEN substr(body, marks[(first_word - 1) / ${span} + 1], marks[(last_word - 1) / ${span} + 2] - marks[(first_word - 1) / ${span} + 1] - 1)
            ELSE substr(body, marks[(first_word - 1) / ${span} + 1])
          END, ' '))[first_word - (first_word - 1) / ${span} * ${span} : last_word - (first_word - 1) / ${span} * ${span}], ' ')
      END
    $$`.execute(db);
}
