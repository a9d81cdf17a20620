import type { SearchQuery } from '@loupe/contract';
import type { Database } from '../database/database.ts';
import { PostgresSearchEngine } from './postgres/postgres-search-engine.ts';
import { SqliteSearchEngine } from './sqlite/sqlite-search-engine.ts';
import type { WordListsOptions } from './word-list-settings.ts';

/**
 * Told by a seal after each part of its work (a block of lists, a word's list): a seal of a
 * large generation takes minutes, and a build that records nothing for ten is taken for one
 * whose worker died. Answers false when the build is no longer under way (failed, replaced).
 */
export type SealProgress = () => Promise<boolean>;

/** A page as indexed, its text cleaned by `indexedText`. */
export interface SearchDocument {
  pageId: string;
  url: string;
  title: string | null;
  body: string;
}

/** One hit as an engine ranks it; the snippet still carries the engine's marker characters. */
export interface RankedHit {
  pageId: string;
  url: string;
  title: string | null;
  markedSnippet: string;
  score: number;
}

/** A window of the ranking, and the build whose generation answered it. */
export interface RankedWindow {
  buildId: string;
  reportId: string;
  hits: RankedHit[];
  /** Whether a hit ranks after the window. */
  more: boolean;
}

/**
 * Full-text search over the generations of `search_documents` (DESIGN.md §2): FTS5 with bm25 on
 * SQLite, tsvector with ts_rank on PostgreSQL. Everything dialect-specific is behind this; the
 * query reaches an engine parsed, and each compiles it to its own syntax with the words bound as
 * values, never as query text.
 */
export interface SearchEngine {
  /** About how much text a build writes per transaction. */
  readonly charsPerTransaction: number;
  /** Adds documents to a build's generation (in the transaction of the Database it was made with). */
  add(buildId: string, documents: readonly SearchDocument[]): Promise<void>;
  /**
   * Removes documents of a build's generation, `limit` or so at a time where a long delete would
   * hold up queries; answers how many went (0: none left).
   */
  remove(buildId: string, limit: number): Promise<number>;
  /**
   * Once a build's documents are all written, before it answers queries: stores what its
   * queries are ranked by besides the documents (its word lists), telling `progress` as it goes.
   * False when the signal stopped it first, or `progress` answered that the build is no longer
   * under way; run again, it goes on where it stopped.
   */
  seal(buildId: string, signal: AbortSignal, progress: SealProgress): Promise<boolean>;
  /**
   * Once a generation has replaced another: brings what the database plans queries by up to
   * date with the documents now there.
   */
  settle(): Promise<void>;
  /**
   * Hits `offset` to `offset + limit` of the project's ready generation, best first. One
   * statement reads which generation is ready and its documents, so a query never straddles a
   * switch; it tells which build answered, with or without hits. Undefined when the project
   * has no ready build. `readyBuildId`, the build the caller just read as ready, lets an engine
   * answer from what it keeps of that build (PostgreSQL's word lists), so long as it still is.
   */
  search(
    projectId: string,
    query: SearchQuery,
    window: { offset: number; limit: number },
    readyBuildId?: string,
  ): Promise<RankedWindow | undefined>;
}

/** The engine of the database's dialect, chosen here only; the options are what a build stores (its word lists) and how many of them queries keep. */
export function searchEngineFor(database: Database, options: WordListsOptions = {}): SearchEngine {
  return database.kind === 'postgres' ? new PostgresSearchEngine(database, options) : new SqliteSearchEngine(database, options);
}
