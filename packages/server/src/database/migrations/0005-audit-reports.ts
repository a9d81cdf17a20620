import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Page checks run while the page is in memory; what stays is what the site checks and the
  // report need: a small summary per page, the links between URLs, and the findings. The
  // full PageFacts (up to ~1 MB a page) are no longer stored.
  await db.schema.alterTable('crawl_urls').dropColumn('facts').execute();
  for (const [name, type] of [
    // Response headers an audit reads (security, encoding, robots), JSON.
    ['headers', 'text'],
    ['ttfb_ms', 'integer'],
    // PageSummary JSON: title, description, h1, words, canonical… for the page index and detail.
    ['summary', 'text'],
    // Hashes of the normalized title, description and visible text: duplicates are a GROUP BY.
    ['title_hash', 'text'],
    ['description_hash', 'text'],
    ['text_hash', 'text'],
    ['lang', 'text'],
    ['word_count', 'integer'],
    ['indexable', 'integer'],
    // Set when the report is built: the page's score and its findings by severity.
    ['score', 'real'],
    ['inlinks', 'integer'],
    ['error_count', 'integer'],
    ['warning_count', 'integer'],
    ['notice_count', 'integer'],
  ] as const) {
    await db.schema.alterTable('crawl_urls').addColumn(name, type).execute();
  }
  // Robots.txt and sitemap results of the crawl's start, for the site-level checks (JSON).
  await db.schema.alterTable('crawls').addColumn('site_facts', 'text').execute();

  // Who links to whom: `target_key` is the url_key of the target's crawl_urls row. No index
  // on the target: its hash keys land at random, and keeping it up to date while crawling
  // cost more than the one GROUP BY the report makes over the links (bench/crawl.ts).
  await db.schema
    .createTable('crawl_links')
    .addColumn('crawl_id', 'text', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('target_key', 'text', (c) => c.notNull())
    // link | image | canonical | hreflang
    .addColumn('kind', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('crawl_links_pk', ['crawl_id', 'source_id', 'kind', 'target_key'])
    .execute();

  await db.schema
    .createTable('crawl_findings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('crawl_id', 'text', (c) => c.notNull().references('crawls.id').onDelete('cascade'))
    // The page it concerns; null for a site-level finding (robots, sitemaps).
    .addColumn('url_id', 'text')
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('samples', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    // page: written by the crawler; site: written by the report build (replaced on a rebuild).
    .addColumn('stage', 'text', (c) => c.notNull())
    // For site-level findings: the share affected, a(k) of the health score.
    .addColumn('share', 'real')
    .execute();
  await db.schema.createIndex('crawl_findings_url').on('crawl_findings').columns(['crawl_id', 'url_id']).execute();
  await db.schema.createIndex('crawl_findings_rule').on('crawl_findings').columns(['crawl_id', 'rule_id']).execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('crawl_id', 'text', (c) => c.notNull().unique().references('crawls.id').onDelete('cascade'))
    .addColumn('project_id', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    // complete | partial (canceled, failed or stopped at maxPages)
    .addColumn('completeness', 'text', (c) => c.notNull())
    .addColumn('score', 'integer')
    .addColumn('grade', 'text')
    .addColumn('pages', 'integer', (c) => c.notNull())
    .addColumn('errors', 'integer', (c) => c.notNull())
    .addColumn('warnings', 'integer', (c) => c.notNull())
    .addColumn('notices', 'integer', (c) => c.notNull())
    // Health, issues by rule with samples, categories, top fixes (JSON): the full report's body.
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('share_token', 'text', (c) => c.unique())
    .addColumn('shared_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reports_workspace').on('reports').columns(['workspace_id', 'id']).execute();
  await db.schema.createIndex('reports_project').on('reports').columns(['workspace_id', 'project_id', 'id']).execute();
}
