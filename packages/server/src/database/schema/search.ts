import type { Generated } from 'kysely';

export interface SearchTables {
  search_builds: SearchBuildTable;
}

/**
 * One build of a project's search index. Its documents live in `search_documents`, an FTS5
 * table on SQLite and a tsvector table on PostgreSQL, which only the search engines query.
 */
export interface SearchBuildTable {
  id: string;
  project_id: string;
  report_id: string;
  crawl_id: string;
  /** building | ready (the one queries read) | failed | retired (replaced; documents being removed) */
  state: string;
  pages_indexed: Generated<number>;
  /** The last page written, in id order. */
  resume_after: string | null;
  error: string | null;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
}
