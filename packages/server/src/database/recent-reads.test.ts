import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecentReads } from './recent-reads.ts';

/** A read of the database that counts its calls. */
function database(rows: Record<string, { id: string }>) {
  const reads: string[] = [];
  return { rows, reads, read: async (key: string) => (reads.push(key), rows[key]) };
}

describe('RecentReads', () => {
  it('reads a row once for the requests of its ttl, then again, saying which came from an earlier read', async () => {
    let at = 1000;
    const recent = new RecentReads<string, { id: string }>({ max: 10, ttl: 500, clock: { now: () => at } });
    const db = database({ k: { id: 'first' } });
    assert.deepEqual(await recent.find('k', db.read), { row: { id: 'first' }, kept: false });
    db.rows.k = { id: 'second' };
    at += 499;
    assert.deepEqual(await recent.find('k', db.read), { row: { id: 'first' }, kept: true });
    at += 2;
    assert.deepEqual(
      await recent.find('k', db.read),
      { row: { id: 'second' }, kept: false },
      'a change made by another process is seen after the ttl',
    );
    assert.equal(db.reads.length, 2);
  });

  it('keeps nothing that does not exist: each guess reads the database', async () => {
    const recent = new RecentReads<string, { id: string }>({ max: 10, ttl: 500 });
    const db = database({});
    assert.equal(await recent.find('guess', db.read), undefined);
    assert.equal(await recent.find('guess', db.read), undefined);
    assert.equal(db.reads.length, 2);
  });

  it('reads a row again at once after forget or forgetAll, and keeps nothing read while one came', async () => {
    const recent = new RecentReads<string, { id: string }>({ max: 10, ttl: 60_000 });
    const db = database({ k: { id: 'first' }, other: { id: 'other' } });
    await recent.find('k', db.read);
    await recent.find('other', db.read);
    db.rows.k = { id: 'second' };
    recent.forget('k');
    assert.equal((await recent.find('k', db.read))?.row.id, 'second');
    assert.equal((await recent.find('other', db.read))?.kept, true, 'forget leaves the other rows kept');
    recent.forgetAll();
    assert.equal((await recent.find('other', db.read))?.kept, false);

    let release!: () => void;
    const slow = async (key: string) => {
      const before = db.rows[key];
      await new Promise<void>((resolve) => (release = resolve));
      return before;
    };
    recent.forget('k');
    const pending = recent.find('k', slow);
    db.rows.k = { id: 'third' };
    recent.forget('k');
    release();
    assert.equal((await pending)?.row.id, 'second', 'the request under way is answered');
    assert.deepEqual(await recent.find('k', db.read), { row: { id: 'third' }, kept: false }, 'what it read before the change was not kept');
  });
});
