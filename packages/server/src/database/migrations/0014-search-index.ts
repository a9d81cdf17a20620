import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Project search (DESIGN.md §2, §8). `search_builds` is one row per build of a project's index;
 * each build writes its own generation of `search_documents`, and queries read only the
 * generation of the project's one `ready` build, so a rebuild replaces the index in the one
 * transaction that moves `ready` to it.
 *
 * The documents differ by engine: an FTS5 table on SQLite (bm25), with each generation in a
 * rowid range of its own; a table with a weighted tsvector under a GIN index on PostgreSQL
 * (ts_rank).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_builds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('audit_projects.id').onDelete('cascade'))
    // No foreign key: deleting the report leaves the index it built answering.
    .addColumn('report_id', 'text', (c) => c.notNull())
    .addColumn('crawl_id', 'text', (c) => c.notNull())
    // building | ready | failed | retired
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('pages_indexed', 'integer', (c) => c.notNull().defaultTo(0))
    // The id of the last page written: a build taken over after a crash goes on from there.
    .addColumn('resume_after', 'text')
    .addColumn('error', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('search_builds_project').on('search_builds').columns(['project_id', 'id']).execute();
  // One build at a time per project, and one index answering: two concurrent requests or two
  // switches cannot both win.
  await db.schema
    .createIndex('search_builds_one_building')
    .on('search_builds')
    .column('project_id')
    .unique()
    .where(sql.ref('state'), '=', 'building')
    .execute();
  await db.schema
    .createIndex('search_builds_one_ready')
    .on('search_builds')
    .column('project_id')
    .unique()
    .where(sql.ref('state'), '=', 'ready')
    .execute();

  if (isPostgres(db)) {
    await db.schema
      .createTable('search_documents')
      .addColumn('build_id', 'text', (c) => c.notNull().references('search_builds.id').onDelete('cascade'))
      .addColumn('page_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('body', 'text', (c) => c.notNull())
      // english: stemming finds "rose" for "roses"; the title (A) weighs more than the text (B).
      .addColumn('document', sql`tsvector`, (c) =>
        c
          .notNull()
          .generatedAlwaysAs(
            sql`setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector('english'::regconfig, body), 'B')`,
          )
          .stored(),
      )
      // page_id first: an index led by build_id would tempt the planner, when it has no
      // statistics yet, to read the whole generation and test every document's tsvector
      // (50 ms at 5,000 pages) instead of asking the GIN index.
      .addPrimaryKeyConstraint('search_documents_pk', ['page_id', 'build_id'])
      .execute();
    await sql`CREATE INDEX search_documents_document ON search_documents USING gin (document)`.execute(db);
    // Kept in the row (a page's tsvector is a few KB and barely compresses) rather than in the
    // TOAST table: ranking reads it for every match, and the planner, which counts pages but not
    // TOAST fetches, then sees what a scan that tests every row really costs.
    await sql`ALTER TABLE search_documents ALTER COLUMN document SET STORAGE MAIN`.execute(db);
    return;
  }

  // porter over unicode61, as the issue asks: "roses" finds "rose". Ranked columns first, then
  // what is only shown.
  await sql`CREATE VIRTUAL TABLE search_documents USING fts5(
    title, body, page_id UNINDEXED, url UNINDEXED,
    tokenize = 'porter unicode61 remove_diacritics 2'
  )`.execute(db);
  // bm25 weights by column: a title match counts ten times a text match.
  await sql`INSERT INTO search_documents (search_documents, rank) VALUES ('rank', 'bm25(10.0, 1.0)')`.execute(db);
  // Each build's documents take the rowids number · 2³² to number · 2³² + 2³² − 1, so a query
  // bounds its match by rowid (FTS5 seeks there) instead of intersecting it with a generation
  // token's posting list (a list as long as the index: 3 ms per query at 50,000 pages).
  await db.schema
    .createTable('search_generations')
    .addColumn('build_id', 'text', (c) => c.primaryKey())
    .addColumn('number', 'integer', (c) => c.notNull().unique())
    .execute();
  // FTS5 tables take no foreign keys: a build deleted (a project's deletion cascades to its
  // builds) takes its documents and its number with it.
  await sql`CREATE TRIGGER search_builds_documents AFTER DELETE ON search_builds BEGIN
    DELETE FROM search_documents WHERE rowid BETWEEN
      (SELECT number FROM search_generations WHERE build_id = old.id) * 4294967296 AND
      (SELECT number FROM search_generations WHERE build_id = old.id) * 4294967296 + 4294967295;
    DELETE FROM search_generations WHERE build_id = old.id;
  END`.execute(db);
}

/** A migration gets Kysely alone, not the Database object: its dialect adapter tells the engine. */
function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
