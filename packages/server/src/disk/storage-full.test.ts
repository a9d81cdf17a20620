import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStorageFull } from './storage-full.ts';

const errorWith = (fields: Record<string, unknown>) => Object.assign(new Error('failed'), fields);

describe('isStorageFull', () => {
  it('knows a file system with no space left, or over a quota', () => {
    assert.equal(isStorageFull(errorWith({ code: 'ENOSPC' })), true);
    assert.equal(isStorageFull(errorWith({ code: 'EDQUOT' })), true);
  });

  it("knows SQLite's SQLITE_FULL, extended codes included, and PostgreSQL's disk_full", () => {
    assert.equal(isStorageFull(errorWith({ code: 'ERR_SQLITE_ERROR', errcode: 13, errstr: 'database or disk is full' })), true);
    assert.equal(isStorageFull(errorWith({ code: 'ERR_SQLITE_ERROR', errcode: 13 | (1 << 8) })), true);
    assert.equal(isStorageFull(errorWith({ code: '53100' })), true);
  });

  it('looks through the causes of a wrapped error', () => {
    assert.equal(isStorageFull(new Error('upload failed', { cause: errorWith({ code: 'ENOSPC' }) })), true);
  });

  it('is not fooled by other failures', () => {
    for (const error of [
      errorWith({ code: 'EACCES' }),
      errorWith({ code: 'ERR_SQLITE_ERROR', errcode: 19 }),
      errorWith({ code: 'ERR_SQLITE_ERROR', errcode: 13 + 256 * 256 + 1 }),
      errorWith({ code: '23505' }),
      new Error('ENOSPC in a message is not a code'),
      'ENOSPC',
      null,
      undefined,
    ]) {
      assert.equal(isStorageFull(error), false, String(error));
    }
  });
});
