import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestSchema } from '../testing/test-database.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { compiledOnce } from './compiled-query.ts';
import type { Database } from './database.ts';
import { openPostgresDatabase } from './postgres-database.ts';

if (testDialects().includes('postgres')) {
  describe('fixed queries on PostgreSQL', () => {
    let schema: { schema: string; drop(): Promise<void> };
    let database: Database;

    before(async () => {
      schema = await createTestSchema(process.env.TEST_DATABASE_URL as string, 'prepared');
      // One connection: every run of a statement meets the one prepared before.
      database = openPostgresDatabase({ url: process.env.TEST_DATABASE_URL as string, schema: schema.schema, poolSize: 1 });
      await sql`CREATE TABLE things (id text PRIMARY KEY)`.execute(database.db);
      await sql`INSERT INTO things VALUES ('a'), ('b')`.execute(database.db);
    });
    after(async () => {
      await database.close();
      await schema.drop();
    });

    const statements = async () =>
      (await sql<{ name: string }>`SELECT name FROM pg_prepared_statements WHERE name LIKE 'loupe_%'`.execute(database.db)).rows.map(
        (row) => row.name,
      );

    it('runs as a named statement, prepared once for the connection', async () => {
      const find = compiledOnce(() => sql<{ id: string }>`SELECT id FROM things WHERE id = ${''}`.compile(database.db));
      assert.deepEqual((await database.db.executeQuery(find('a'))).rows, [{ id: 'a' }]);
      assert.deepEqual((await database.db.executeQuery(find('b'))).rows, [{ id: 'b' }]);
      assert.equal((await statements()).length, 1);
      // Any other query is not prepared.
      await sql`SELECT id FROM things WHERE id = ${'a'}`.execute(database.db);
      assert.equal((await statements()).length, 1);
    });

    it('is prepared again when another process changed its table under it (a rolling upgrade)', async () => {
      const all = compiledOnce(() => sql<Record<string, string>>`SELECT * FROM things WHERE id = ${''}`.compile(database.db));
      assert.deepEqual((await database.db.executeQuery(all('a'))).rows, [{ id: 'a' }]);
      await sql`ALTER TABLE things ADD COLUMN name text DEFAULT 'lamp'`.execute(database.db);
      assert.deepEqual((await database.db.executeQuery(all('a'))).rows, [{ id: 'a', name: 'lamp' }]);
      assert.deepEqual((await database.db.executeQuery(all('b'))).rows, [{ id: 'b', name: 'lamp' }]);
    });
  });
}
