import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { insertRows } from './bulk-insert.ts';

/** A table of the test's own, beside the schema's (which insertRows is typed on; hence the casts). */
const TABLE = 'bulk_rows' as never;

for (const dialect of testDialects()) {
  describe(`insertRows (${dialect})`, () => {
    let test: TestDatabase;
    const insert = (rows: unknown[][], skipConflictsOn?: string[]) =>
      insertRows(test.database, TABLE, ['batch', 'name', 'value'] as never, rows, skipConflictsOn as never);
    const rowsOf = async (batch: string) =>
      (
        await sql<{ name: string; value: number }>`select name, value from bulk_rows where batch = ${batch} order by name`.execute(
          test.database.db,
        )
      ).rows.map((row) => ({ ...row }));

    before(async () => {
      test = await openTestDatabase(dialect);
      await sql`create table bulk_rows (batch text not null, name text not null, value integer not null, unique (batch, name))`.execute(
        test.database.db,
      );
    });
    after(() => test.close());

    for (const count of [0, 1, 255, 256, 257, 1000]) {
      it(`writes all of ${count} rows, each with its own values`, async () => {
        const batch = `batch-${count}`;
        const rows = Array.from({ length: count }, (_, n) => [batch, `name-${String(n).padStart(5, '0')}`, n]);
        await insert(rows);
        assert.deepEqual(
          await rowsOf(batch),
          rows.map(([, name, value]) => ({ name, value })),
        );
      });
    }

    it('leaves rows whose unique key exists as they are, when told to', async () => {
      await insert([['conflicts', 'a', 1]], ['batch', 'name']);
      await insert(
        [
          ['conflicts', 'a', 7],
          ['conflicts', 'b', 2],
        ],
        ['batch', 'name'],
      );
      assert.deepEqual(await rowsOf('conflicts'), [
        { name: 'a', value: 1 },
        { name: 'b', value: 2 },
      ]);
    });
  });
}
