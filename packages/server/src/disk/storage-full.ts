/** errno codes of a write that found no room: no space left, or over a disk quota. */
const FULL_ERRNO = new Set(['ENOSPC', 'EDQUOT']);
/** SQLITE_FULL, the primary result code (extended codes keep it in the low byte). */
const SQLITE_FULL = 13;
/** PostgreSQL's SQLSTATE disk_full: the database server's own disk. */
const POSTGRES_DISK_FULL = '53100';

/** True when `error` (or its cause) is a write refused for lack of space, from the file system or either database. */
export function isStorageFull(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth++) {
    const { code, errcode, cause } = current as { code?: unknown; errcode?: unknown; cause?: unknown };
    if (typeof code === 'string' && (FULL_ERRNO.has(code) || code === POSTGRES_DISK_FULL)) return true;
    if (typeof errcode === 'number' && (errcode & 0xff) === SQLITE_FULL) return true;
    current = cause;
  }
  return false;
}
