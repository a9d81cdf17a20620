/**
 * A finished crawl written straight into a Loupe's tables instead of crawled (the crawl bench
 * measures crawling): the crawl row, one crawl_urls row per page with its summary, the
 * findings the crawler would have stored, the visible text when given, and a report filed
 * under the project. Shared by bench/search.ts and bench/dashboard.ts.
 *
 * The report is either a stub row (`report: 'stub'`: score 90, no body worth reading, enough
 * for what reads pages only, such as the search index build) or built by the server's own
 * report builder over the written rows (`report: 'built'`), so that every endpoint of the
 * report (getReport, the page index, page detail) answers as after a real crawl.
 */
import { zstdCompressSync } from 'node:zlib';
import type { Insertable } from 'kysely';
import { openDatabase } from '../packages/server/src/database/open-database.ts';
import type { Schema } from '../packages/server/src/database/schema.ts';
import { newId } from '../packages/server/src/ids.ts';
import { buildReport } from '../packages/server/src/reports/report-builder.ts';
import type { Loupe } from './loupe-server.ts';

/** Rows written per transaction. */
const BATCH = 500;

export interface SeedFinding {
  /** A catalog rule, e.g. `descriptions/missing`. */
  ruleId: string;
  severity: 'error' | 'warning' | 'notice';
  count?: number;
  detail?: string;
}

export interface SeedPage {
  /** The path on the site, e.g. `/page/7`. */
  path: string;
  title: string | null;
  /** Visible text, stored zstd-compressed as the crawler stores it; without it, no body row. */
  text?: string;
  /** Defaults to 200. */
  status?: number;
  /** Defaults to 1. */
  depth?: number;
  responseMs?: number;
  bytes?: number;
  /** Defaults to the words of `text`. */
  words?: number;
  /** The page summary (audit/page-summary.ts); defaults to `{ title }`. */
  summary?: Record<string, unknown>;
  /** Page-level findings, as the crawler stores them while fetching. */
  findings?: SeedFinding[];
}

export interface SeedCrawlOptions {
  projectId: string;
  /** The site's origin, e.g. `https://shop.example`. */
  site: string;
  pages: number;
  page: (n: number) => SeedPage;
  report: 'stub' | 'built';
}

export async function seedCrawl(
  loupe: Pick<Loupe, 'env' | 'dataDir' | 'workspaceId'>,
  options: SeedCrawlOptions,
): Promise<{ crawlId: string; reportId: string }> {
  const { projectId, site, pages } = options;
  const database = openDatabase({ databaseUrl: loupe.env.DATABASE_URL, dataDir: loupe.dataDir });
  try {
    const db = database.db;
    const crawlId = newId();
    const at = new Date().toISOString();
    await db
      .insertInto('crawls')
      .values({
        id: crawlId,
        workspace_id: loupe.workspaceId,
        project_id: projectId,
        status: 'completed',
        url: `${site}/`,
        mode: 'site',
        options: '{}',
        max_pages: pages,
        capped: 0,
        credits_reserved: 0,
        credits_charged: pages,
        report_id: null,
        error: null,
        created_at: at,
        started_at: at,
        finished_at: at,
        site_facts: null,
      })
      .execute();
    const html = zstdCompressSync(Buffer.from('<!doctype html><title>x</title>'));
    for (let start = 0; start < pages; start += BATCH) {
      const urls: Insertable<Schema['crawl_urls']>[] = [];
      const bodies: Insertable<Schema['crawl_page_bodies']>[] = [];
      const findings: Insertable<Schema['crawl_findings']>[] = [];
      for (let n = start; n < Math.min(pages, start + BATCH); n++) {
        const page = options.page(n);
        const id = newId();
        const url = `${site}${page.path}`;
        urls.push({
          id,
          crawl_id: crawlId,
          url,
          url_key: url,
          depth: page.depth ?? 1,
          state: 'done',
          kind: 'page',
          source: 'link',
          status_code: page.status ?? 200,
          content_type: 'text/html; charset=utf-8',
          fetched_at: at,
          indexable: 1,
          word_count: page.words ?? page.text?.split(' ').length ?? null,
          response_ms: page.responseMs ?? null,
          bytes: page.bytes ?? null,
          summary: JSON.stringify(page.summary ?? { title: page.title }),
        });
        if (page.text !== undefined) bodies.push({ crawl_id: crawlId, url_id: id, html, text: zstdCompressSync(Buffer.from(page.text)) });
        for (const finding of page.findings ?? []) {
          findings.push({
            id: newId(),
            crawl_id: crawlId,
            url_id: id,
            rule_id: finding.ruleId,
            severity: finding.severity,
            count: finding.count ?? 1,
            samples: '[]',
            detail: finding.detail ?? null,
            stage: 'page',
            share: null,
          });
        }
      }
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('crawl_urls').values(urls).execute();
        if (bodies.length > 0) await trx.insertInto('crawl_page_bodies').values(bodies).execute();
        if (findings.length > 0) await trx.insertInto('crawl_findings').values(findings).execute();
      });
    }
    let reportId: string;
    if (options.report === 'built') {
      reportId = await buildReport(database, await db.selectFrom('crawls').selectAll().where('id', '=', crawlId).executeTakeFirstOrThrow());
    } else {
      reportId = newId();
      await db
        .insertInto('reports')
        .values({
          id: reportId,
          workspace_id: loupe.workspaceId,
          crawl_id: crawlId,
          project_id: projectId,
          url: `${site}/`,
          mode: 'site',
          completeness: 'complete',
          score: 90,
          grade: 'A',
          pages,
          errors: 0,
          warnings: 0,
          notices: 0,
          body: '{}',
          created_at: at,
        })
        .execute();
    }
    await db.updateTable('crawls').set({ report_id: reportId, pages_crawled: pages }).where('id', '=', crawlId).execute();
    return { crawlId, reportId };
  } finally {
    await database.close();
  }
}
