import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery } from 'kysely';
import { SqliteReaders } from './sqlite-readers.ts';
import { FAILING, MISSING, NOTES_LONGER_THAN } from './test-reader-procedures.ts';

/** A query whose rows are of type Row. */
const query = <Row>(sql: string, parameters: unknown[] = []) => CompiledQuery.raw(sql, parameters) as CompiledQuery<Row>;

/** Counts to `n` in SQL: a read that keeps a thread busy for a while. */
const slowCount = (n: number) =>
  query<{ n: number }>('WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ?) SELECT count(*) AS n FROM c', [n]);

describe('SQLite reader threads', () => {
  let dir: string;
  let writer: DatabaseSync;
  let readers: SqliteReaders;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loupe-readers-'));
    const file = join(dir, 'loupe.db');
    writer = new DatabaseSync(file);
    writer.exec(
      "PRAGMA journal_mode = WAL; CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('first');",
    );
    readers = new SqliteReaders(file, 2);
  });
  after(async () => {
    await readers.close();
    writer.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers the rows of a query with its parameters', async () => {
    const rows = await readers.query(query<{ text: string }>('SELECT text FROM notes WHERE id = ?', [1]));
    assert.deepEqual(
      rows.map((row) => row.text),
      ['first'],
    );
  });

  it('reads what the writer has committed', async () => {
    writer.exec("INSERT INTO notes (text) VALUES ('second')");
    const rows = await readers.query(query<{ n: number }>('SELECT count(*) AS n FROM notes', []));
    assert.equal(rows[0]?.n, 2);
  });

  it('leaves the event loop free while a read runs', async () => {
    let turns = 0;
    let reading = true;
    const turn = () => {
      turns += 1;
      if (reading) setImmediate(turn);
    };
    setImmediate(turn);
    const [{ n }] = (await readers.query(slowCount(1_000_000))) as [{ n: number }];
    reading = false;
    assert.equal(n, 1_000_000);
    // On the event loop's thread the query would have run to its end before a single turn.
    assert.ok(turns > 1, `${turns} turns of the event loop during the read`);
  });

  it('answers a quick read while another reader is busy with a slow one', async () => {
    const finished: string[] = [];
    const slow = readers.query(slowCount(1_000_000)).then(() => finished.push('slow'));
    const quick = readers.query(query('SELECT 1 AS one')).then(() => finished.push('quick'));
    await Promise.all([slow, quick]);
    assert.deepEqual(finished, ['quick', 'slow']);
  });

  it('holds up at most one read behind a slow one: the reads queued after it go to the reader that frees first', async () => {
    const finished: string[] = [];
    const slow = readers.query(slowCount(3_000_000)).then(() => finished.push('slow'));
    const quick = Array.from({ length: 12 }, (_, i) => readers.query(query('SELECT ? AS n', [i])).then(() => finished.push(`quick ${i}`)));
    await Promise.all([slow, ...quick]);
    // Shared by how many each reader had waiting, half of them would wait for the slow read.
    assert.ok(finished.indexOf('slow') >= 11, `finished in the order ${finished.join(', ')}`);
  });

  it("rejects with SQLite's message, and refuses writes", async () => {
    await assert.rejects(readers.query(query('SELECT missing FROM nowhere')), /no such table: nowhere/);
    await assert.rejects(readers.query(query("INSERT INTO notes (text) VALUES ('x')")), /readonly|read-only|query_only/i);
    const rows = await readers.query(query<{ n: number }>('SELECT count(*) AS n FROM notes', []));
    assert.equal(rows[0]?.n, 2, 'nothing was written');
  });

  it("runs a procedure with the thread's connection and answers its result, or its error", async () => {
    const answer = await readers.run(NOTES_LONGER_THAN, { length: 5 });
    assert.deepEqual(answer.texts, ['second']);
    assert.deepEqual([...answer.bytes], [2]);
    await assert.rejects(readers.run(FAILING, null), /the procedure failed/);
    await assert.rejects(readers.run(MISSING, null), /has no reader procedure noSuchProcedure/);
    assert.deepEqual(
      (await readers.run(NOTES_LONGER_THAN, { length: 0 })).texts,
      ['first', 'second'],
      'the thread goes on after a failure',
    );
  });
});
