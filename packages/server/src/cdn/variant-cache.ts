import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { decodeVariantFile, encodeVariantFile, readVariantFileHeader, variantHash } from './variant-cache-file.ts';

/** A transformed image. `data` is shared between callers and must not be modified. */
export interface Variant {
  data: Buffer;
  contentType: string;
  /**
   * Strong (DESIGN §7): a digest of the key and the bytes. The bytes count because a purge after
   * an original was changed outside Loupe recomputes the same key into new pixels.
   */
  etag: string;
}

/** What a purge took out of the cache. */
export interface PurgeResult {
  variants: number;
  bytes: number;
}

export interface VariantCacheOptions {
  directory: string;
  maxDiskBytes: number;
  maxMemoryBytes: number;
  /**
   * The bytes the disk can still take before it is nearly full (DiskGuard.spareBytes): a write
   * that does not fit evicts older variants first, and is skipped if even that is not enough.
   */
  spareBytes?: () => Promise<number>;
}

export type VariantSource = 'memory' | 'disk' | 'computed' | 'joined';

interface DiskEntry {
  /** SHA-256 of the key in hex: the file name. */
  hash: string;
  /** The whole file, header included, since that is what the disk bound limits. */
  size: number;
}

const HASH_NAME = /^[0-9a-f]{64}$/;
const SHARD_NAME = /^[0-9a-f]{2}$/;
/** Files inspected at once by `open()`: enough to overlap I/O without exhausting descriptors. */
const OPEN_CONCURRENCY = 32;

/**
 * Transformed variants on disk (bounded, least recently used evicted first) and in a small
 * memory LRU, with one computation per key however many requests ask at once (DESIGN §2, §7).
 *
 * The disk index is kept in memory (a Map in access order), so a miss costs no I/O and a memory
 * hit costs two Map operations. Recency survives a restart through file mtimes: `open()` orders
 * by mtime, and a disk hit refreshes it (without waiting). Memory hits do not touch the file,
 * which keeps the warm path free of I/O; a variant hot only in memory may therefore look old
 * after a restart, which costs at most one recomputation.
 */
export class VariantCache {
  readonly #directory: string;
  readonly #maxDiskBytes: number;
  readonly #maxMemoryBytes: number;
  readonly #spareBytes: (() => Promise<number>) | undefined;
  readonly #memory: LRUCache<string, Variant> | undefined;
  readonly #index = new Map<string, DiskEntry>();
  readonly #inFlight = new Map<string, Promise<Variant>>();
  /** Running computations by key, flagged when a purge covers them so that they store nothing. */
  readonly #computing = new Map<string, Set<{ purged: boolean }>>();
  /** Background work (mtime refreshes) that `close()` waits for. */
  readonly #background = new Set<Promise<unknown>>();
  /** Unlinks still running, by hash: a new write of the same hash waits, or the unlink could remove it. */
  readonly #removing = new Map<string, Promise<void>>();
  #diskBytes = 0;

  constructor(options: VariantCacheOptions) {
    this.#directory = options.directory;
    this.#maxDiskBytes = options.maxDiskBytes;
    this.#maxMemoryBytes = options.maxMemoryBytes;
    this.#spareBytes = options.spareBytes;
    this.#memory =
      options.maxMemoryBytes > 0
        ? new LRUCache<string, Variant>({ maxSize: options.maxMemoryBytes, sizeCalculation: (variant, key) => memorySize(key, variant) })
        : undefined;
  }

  /** Loads the on-disk index (existing files, oldest access first) — call once at start. */
  async open(): Promise<void> {
    await mkdir(this.#directory, { recursive: true });
    const found: { key: string; entry: DiskEntry; mtimeMs: number }[] = [];
    const paths: string[] = [];
    for (const shard of await readdir(this.#directory, { withFileTypes: true })) {
      if (!shard.isDirectory() || !SHARD_NAME.test(shard.name)) continue;
      for (const name of await readdir(join(this.#directory, shard.name))) {
        const path = join(this.#directory, shard.name, name);
        // A temporary file left by a crash mid-write is never published: remove it.
        if (name.endsWith('.tmp')) await rm(path, { force: true });
        else if (HASH_NAME.test(name) && name.startsWith(shard.name)) paths.push(path);
      }
    }
    for (let start = 0; start < paths.length; start += OPEN_CONCURRENCY) {
      const batch = paths.slice(start, start + OPEN_CONCURRENCY);
      await Promise.all(
        batch.map(async (path) => {
          const hash = path.slice(-64);
          const file = await readVariantFileHeader(path, hash).catch(() => undefined);
          // Truncated, foreign or misnamed: never servable, so it only takes space.
          if (!file) return rm(path, { force: true }).catch(() => {});
          found.push({ key: file.key, entry: { hash, size: file.size }, mtimeMs: file.mtimeMs });
        }),
      );
    }
    found.sort((a, b) => a.mtimeMs - b.mtimeMs || a.entry.hash.localeCompare(b.entry.hash));
    for (const { key, entry } of found) {
      this.#index.set(key, entry);
      this.#diskBytes += entry.size;
    }
    this.#evictOverBound();
  }

  /** Memory first, then disk (promoting into memory). undefined on a miss. Reports which tier hit. */
  async get(key: string): Promise<{ variant: Variant; tier: 'memory' | 'disk' } | undefined> {
    const remembered = this.#fromMemory(key);
    if (remembered) return { variant: remembered, tier: 'memory' };
    const variant = await this.#fromDisk(key);
    return variant ? { variant, tier: 'disk' } : undefined;
  }

  /**
   * The cached variant, or the result of `produce`, run once for all concurrent callers of the
   * same key and stored in both tiers before any of them is answered. If `produce` fails, every
   * joined caller gets its error, nothing is cached, and the next call runs it again.
   */
  async getOrCreate(
    key: string,
    produce: () => Promise<{ data: Buffer; contentType: string }>,
  ): Promise<{ variant: Variant; source: VariantSource }> {
    const cached = await this.get(key);
    if (cached) return { variant: cached.variant, source: cached.tier };
    const pending = this.#inFlight.get(key);
    if (pending) return { variant: await pending, source: 'joined' };
    // A computation may have finished while a disk read above was failing: look once more.
    const remembered = this.#fromMemory(key);
    if (remembered) return { variant: remembered, source: 'memory' };
    const computation = this.#compute(key, produce);
    this.#inFlight.set(key, computation);
    try {
      return { variant: await computation, source: 'computed' };
    } finally {
      if (this.#inFlight.get(key) === computation) this.#inFlight.delete(key);
    }
  }

  /**
   * Drops every cached variant whose key starts with prefix. A computation still running for such
   * a key answers its callers but stores nothing, and later callers do not join it: after the
   * purge, the next request reads the original again.
   */
  async purgePrefix(prefix: string): Promise<PurgeResult> {
    for (const [key, runs] of this.#computing) {
      if (!key.startsWith(prefix)) continue;
      for (const run of runs) run.purged = true;
      this.#inFlight.delete(key);
    }
    const purged = new Map<string, number>();
    for (const [key, variant] of this.#memory?.entries() ?? []) {
      if (key.startsWith(prefix)) purged.set(key, variant.data.length);
    }
    const hashes: string[] = [];
    for (const [key, entry] of this.#index) {
      if (!key.startsWith(prefix)) continue;
      purged.set(key, entry.size);
      hashes.push(entry.hash);
    }
    for (const key of purged.keys()) {
      this.#memory?.delete(key);
      this.#forget(key);
    }
    await Promise.all(hashes.map((hash) => this.#remove(hash)));
    let bytes = 0;
    for (const size of purged.values()) bytes += size;
    return { variants: purged.size, bytes };
  }

  /**
   * Takes disk space back for others (DiskGuard): removes least recently used variants until
   * `bytes` are freed or none is left on disk; resolves with the bytes freed once the files are gone.
   */
  async evict(bytes: number): Promise<number> {
    let freed = 0;
    const removals: Promise<void>[] = [];
    for (const [key, entry] of this.#index) {
      if (freed >= bytes) break;
      this.#forget(key);
      removals.push(this.#remove(entry.hash));
      freed += entry.size;
    }
    await Promise.all(removals);
    return freed;
  }

  stats(): { memoryBytes: number; diskBytes: number; memoryEntries: number; diskEntries: number } {
    return {
      memoryBytes: this.#memory?.calculatedSize ?? 0,
      diskBytes: this.#diskBytes,
      memoryEntries: this.#memory?.size ?? 0,
      diskEntries: this.#index.size,
    };
  }

  /** Waits for running computations and background file work; the files stay for the next `open()`. */
  async close(): Promise<void> {
    await Promise.allSettled(this.#inFlight.values());
    while (this.#background.size > 0 || this.#removing.size > 0) {
      await Promise.allSettled([...this.#background, ...this.#removing.values()]);
    }
    this.#memory?.clear();
  }

  #fromMemory(key: string): Variant | undefined {
    const variant = this.#memory?.get(key);
    // A memory hit is a use of the disk copy too; otherwise the hottest variants would be the
    // first evicted from disk, and lost at the next restart.
    if (variant) this.#touch(key);
    return variant;
  }

  async #fromDisk(key: string): Promise<Variant | undefined> {
    const entry = this.#index.get(key);
    if (!entry) return undefined;
    const path = this.#path(entry.hash);
    let file: Buffer;
    try {
      file = await readFile(path);
    } catch {
      // Removed behind our back (or unreadable): a miss, and the index must stop promising it.
      if (this.#index.get(key) === entry) this.#forget(key);
      return undefined;
    }
    const stored = decodeVariantFile(file, key);
    if (!stored) {
      if (this.#index.get(key) === entry) {
        this.#forget(key);
        void this.#remove(entry.hash);
      }
      return undefined;
    }
    const variant: Variant = { ...stored, etag: etagOf(key, stored.data) };
    // Purged or evicted during the read: answer, but do not bring the variant back.
    if (this.#index.get(key) !== entry) return variant;
    this.#remember(key, variant);
    this.#touch(key);
    const now = new Date();
    this.#inBackground(utimes(path, now, now));
    return variant;
  }

  async #compute(key: string, produce: () => Promise<{ data: Buffer; contentType: string }>): Promise<Variant> {
    const run = { purged: false };
    const runs = this.#computing.get(key) ?? new Set();
    runs.add(run);
    this.#computing.set(key, runs);
    try {
      const { data, contentType } = await produce();
      const variant: Variant = { data, contentType, etag: etagOf(key, data) };
      if (run.purged) return variant;
      this.#remember(key, variant);
      await this.#write(key, variantHash(key), variant, run);
      return variant;
    } finally {
      runs.delete(run);
      if (runs.size === 0 && this.#computing.get(key) === runs) this.#computing.delete(key);
    }
  }

  /** Never throws: a variant that cannot be written is still a good answer, just not a cached one. */
  async #write(key: string, hash: string, variant: Variant, run: { purged: boolean }): Promise<void> {
    const pieces = encodeVariantFile(key, variant.contentType, variant.data);
    const size = pieces.reduce((total, piece) => total + piece.length, 0);
    if (size > this.#maxDiskBytes) return;
    const path = this.#path(hash);
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      if (!(await this.#roomFor(size))) return;
      await mkdir(join(this.#directory, hash.slice(0, 2)), { recursive: true });
      await writeFile(temporary, pieces);
      await this.#removing.get(hash);
      // Purged while the file was written: publishing it would bring the old bytes back.
      if (run.purged) {
        this.#memory?.delete(key);
        await rm(temporary, { force: true });
        return;
      }
      await rename(temporary, path);
    } catch {
      await rm(temporary, { force: true }).catch(() => {});
      return;
    }
    if (run.purged) {
      this.#memory?.delete(key);
      await this.#remove(hash);
      return;
    }
    this.#forget(key);
    this.#index.set(key, { hash, size });
    this.#diskBytes += size;
    this.#evictOverBound();
  }

  /** The cache gives way first on a filling disk: it writes into spare space only, its own oldest entries going to make it. */
  async #roomFor(size: number): Promise<boolean> {
    if (!this.#spareBytes) return true;
    const spare = await this.#spareBytes();
    if (spare >= size) return true;
    return (await this.evict(size - spare)) >= size - spare;
  }

  #remember(key: string, variant: Variant): void {
    if (!this.#memory || memorySize(key, variant) > this.#maxMemoryBytes) return;
    this.#memory.set(key, variant);
  }

  /** Moves the key to the most recently used end of the disk index. */
  #touch(key: string): void {
    const entry = this.#index.get(key);
    if (!entry) return;
    this.#index.delete(key);
    this.#index.set(key, entry);
  }

  #forget(key: string): void {
    const entry = this.#index.get(key);
    if (!entry) return;
    this.#index.delete(key);
    this.#diskBytes -= entry.size;
  }

  /** The index is updated at once, so the bound holds even while the unlinks are still running. */
  #evictOverBound(): void {
    void this.evict(this.#diskBytes - this.#maxDiskBytes);
  }

  /** Unlinks a variant's file; never rejects, since a file that stays is only wasted space until the next `open()`. */
  #remove(hash: string): Promise<void> {
    const previous = this.#removing.get(hash) ?? Promise.resolve();
    const removal = previous
      .then(() => rm(this.#path(hash), { force: true }))
      .catch(() => {})
      .finally(() => {
        if (this.#removing.get(hash) === removal) this.#removing.delete(hash);
      });
    this.#removing.set(hash, removal);
    return removal;
  }

  #inBackground(work: Promise<unknown>): void {
    const tracked = work.catch(() => {}).finally(() => this.#background.delete(tracked));
    this.#background.add(tracked);
  }

  #path(hash: string): string {
    return join(this.#directory, hash.slice(0, 2), hash);
  }
}

/** lru-cache needs a positive size; the key is counted because small variants are dominated by it. */
function memorySize(key: string, variant: Variant): number {
  return variant.data.length + key.length + 1;
}

function etagOf(key: string, data: Buffer): string {
  return `"${createHash('sha256').update(key).update('\0').update(data).digest('hex')}"`;
}
