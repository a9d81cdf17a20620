import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { mulberry32 } from '../../testing/seeded-random.ts';
import { openTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import { testDialects } from '../../testing/test-dialects.ts';

/** Words of random letters: a text that neither compresses nor makes a small tsvector. */
function randomWords(count: number): string {
  const random = mulberry32(3);
  const word = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
  return Array.from({ length: count }, word).join(' ');
}

for (const dialect of testDialects().filter((d) => d === 'postgres')) {
  describe(`search document storage (${dialect})`, () => {
    let store: TestDatabase;
    before(async () => {
      store = await openTestDatabase(dialect);
    });
    after(() => store.close());

    it("keeps a large page's ids, url and title in its row, only the text and tsvector moved out (migration 0022)", async () => {
      await store.database.db.connection().execute(async (db) => {
        await sql`BEGIN`.execute(db);
        try {
          // The row alone, without the build, project and workspace it belongs to; rolled back.
          await sql`SET LOCAL session_replication_role = replica`.execute(db);
          const id = '01a21e6b-59a9-73f4-9b48-d42866f349f4';
          await sql`INSERT INTO search_documents (build_id, ordinal, page_id, url, title, body)
            VALUES (${id}, 0, ${id}, ${`https://example.com/${'a'.repeat(60)}`}, ${'A title of forty and more characters here'}, ${randomWords(2000)})`.execute(
            db,
          );
          const { rows: toast } = await sql<{ name: string }>`
            SELECT reltoastrelid::regclass::text AS name FROM pg_class WHERE oid = 'search_documents'::regclass`.execute(db);
          const { rows } = await sql<{
            values: number;
          }>`SELECT count(DISTINCT chunk_id)::int AS values FROM ${sql.table(toast[0].name)}`.execute(db);
          // Moved out, each value its own chunk_id: the text, and the tsvector too large for the row; not the four others.
          assert.ok(rows[0].values >= 1 && rows[0].values <= 2, `${rows[0].values} values in the TOAST table`);
        } finally {
          await sql`ROLLBACK`.execute(db);
        }
      });
    });
  });
}
