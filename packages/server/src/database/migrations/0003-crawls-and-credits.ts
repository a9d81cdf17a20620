import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The balance lives on the workspace so a reservation is one conditional UPDATE:
  // `credit_balance >= n` and the subtraction happen together, so concurrent starts cannot overspend.
  await db.schema
    .alterTable('workspaces')
    .addColumn('credit_balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addColumn('crawl_id', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('credit_ledger_workspace').on('credit_ledger').columns(['workspace_id', 'id']).execute();

  await db.schema
    .createTable('crawls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('project_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    // The validated request (JSON): include/exclude, robots, concurrency…
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('max_pages', 'integer', (c) => c.notNull())
    .addColumn('capped', 'integer', (c) => c.notNull())
    .addColumn('pages_crawled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_reserved', 'integer', (c) => c.notNull())
    .addColumn('credits_charged', 'integer')
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('report_id', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('crawls_workspace_status').on('crawls').columns(['workspace_id', 'status', 'id']).execute();

  // The frontier and the crawled pages in one table: a URL is discovered once per crawl
  // (unique url_key), then fetched; a restart finds the queued ones still here.
  await db.schema
    .createTable('crawl_urls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('crawl_id', 'text', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    // SHA-256 of the normalized URL: a short unique key whatever the URL's length.
    .addColumn('url_key', 'text', (c) => c.notNull())
    .addColumn('depth', 'integer', (c) => c.notNull())
    // queued → fetching → done; `external` rows are checked with HEAD, not crawled.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('final_url', 'text')
    .addColumn('content_type', 'text')
    .addColumn('bytes', 'integer')
    .addColumn('response_ms', 'integer')
    .addColumn('redirects', 'text')
    .addColumn('fetch_error', 'text')
    // PageFacts as JSON for HTML pages: what the audit checks read.
    .addColumn('facts', 'text')
    .addColumn('fetched_at', 'text')
    .addUniqueConstraint('crawl_urls_key', ['crawl_id', 'url_key'])
    .execute();
  await db.schema.createIndex('crawl_urls_frontier').on('crawl_urls').columns(['crawl_id', 'state', 'depth', 'id']).execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_after', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_ready').on('jobs').columns(['state', 'run_after']).execute();
}
