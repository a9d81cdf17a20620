import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The links that point at a URL, found without reading every link of the crawl (issue #24,
 * point 1): a page's inlinks, and the report's links filtered on their target's outcome, grouped
 * by target. At 50,000 pages a filter on a rare outcome read all 500,000 links (2–4 s) and a
 * rare page's inlinks took 0.2 s. On SQLite the table becomes WITHOUT ROWID, its primary key
 * the table itself, so the new index costs about the separate primary-key index it replaces.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) await clusterOnPrimaryKey(db);
  await db.schema.createIndex('crawl_links_target').on('crawl_links').columns(['crawl_id', 'target_key', 'source_id', 'kind']).execute();
}

async function clusterOnPrimaryKey(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE crawl_links_clustered (
    crawl_id text NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    source_id text NOT NULL,
    target_key text NOT NULL,
    kind text NOT NULL,
    anchor text,
    element text,
    rel integer DEFAULT 0 NOT NULL,
    target_url text,
    CONSTRAINT crawl_links_pk PRIMARY KEY (crawl_id, source_id, kind, target_key)
  ) WITHOUT ROWID`.execute(db);
  await sql`INSERT INTO crawl_links_clustered SELECT crawl_id, source_id, target_key, kind, anchor, element, rel, target_url FROM crawl_links`.execute(
    db,
  );
  await sql`DROP TABLE crawl_links`.execute(db);
  await sql`ALTER TABLE crawl_links_clustered RENAME TO crawl_links`.execute(db);
}
