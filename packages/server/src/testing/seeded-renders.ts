import { type PageLab, resourceKinds } from '@loupe/contract';
import { CrawlStore } from '../crawl/crawl-store.ts';
import { buildReport } from '../reports/report-builder.ts';
import type { TestServer } from './test-server.ts';

/** A lab reading with these metrics, as the renderer would keep it. */
export function labReading(metrics: { lcpMs: number; cls: number; tbtMs: number; ttfbMs: number }, error: string | null = null): PageLab {
  const byKind = Object.fromEntries(resourceKinds.map((kind) => [kind, { requests: 0, bytes: 0 }])) as PageLab['transfer']['byKind'];
  return {
    settled: error === null,
    error,
    durationMs: 900,
    metrics: error === null ? { ...metrics, fcpMs: metrics.lcpMs / 2, longTasks: 1, renderBlocking: [] } : null,
    transfer: {
      requests: 4,
      bytes: 20_000,
      byKind: {
        ...byKind,
        document: { requests: 1, bytes: 5_000 },
        script: { requests: 3, bytes: 15_000 },
      },
      blocked: [],
      failed: 0,
    },
  };
}

/**
 * Puts renders on a finished crawl's pages (replacing any it made) and builds its report
 * again: what a rendering crawl would have stored, with figures the test chooses. Answers the
 * new report's id.
 */
export async function seedRendersAndRebuild(
  t: TestServer,
  crawlId: string,
  renders: { urlId: string; lab: PageLab; screenshot: Uint8Array | null }[],
): Promise<string> {
  const { database } = t.server;
  await database.db.deleteFrom('crawl_page_renders').where('crawl_id', '=', crawlId).execute();
  await database.db
    .insertInto('crawl_page_renders')
    .values(renders.map((r) => ({ crawl_id: crawlId, url_id: r.urlId, html: null, lab: JSON.stringify(r.lab), screenshot: r.screenshot })))
    .execute();
  const crawl = await new CrawlStore(database).byId(crawlId);
  if (!crawl) throw new Error(`no crawl ${crawlId}`);
  return buildReport(database, crawl);
}
