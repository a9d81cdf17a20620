import { type Crawl, LoupeError, type Report } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';
import { crawlProgressBar } from './crawl-progress-bar.ts';
import { type ExitCode, exitCodes } from './exit-codes.ts';
import type { Output } from './output.ts';
import { ProgressBar } from './progress-bar.ts';
import { formatReportSummary } from './report-summary.ts';

const ENDED = new Set(['completed', 'failed', 'canceled']);
/** Times the event stream is opened again if it closes before the crawl ends (a server restart). */
const RECONNECTS = 3;

export interface FollowedCrawl {
  crawl: Crawl;
  /** Null when the crawl ended without one (it failed before crawling anything). */
  report: Report | null;
}

/**
 * Follows a crawl's server-sent events to its end, drawing its phase and progress on stderr
 * (nothing with --json), then prints the crawl and its report: a summary table, or with --json one
 * `{ crawl, report }` document. Exits 0 when the crawl completed, 8 when it failed or was
 * canceled (its partial report is still printed).
 */
export async function followCrawl(client: LoupeClient, started: Crawl, output: Output): Promise<ExitCode> {
  const bar = output.json ? undefined : new ProgressBar(output.stderr, { unit: 'pages' });
  let crawl = started;
  let lastStatus = '';
  for (let attempt = 0; attempt <= RECONNECTS && !ENDED.has(crawl.status); attempt++) {
    for await (const event of client.streamCrawlEvents({ crawlId: crawl.id })) {
      if (event.type === 'status' && event.status !== lastStatus) {
        lastStatus = event.status;
        bar?.log(`Crawl ${crawl.id}: ${event.status}`);
      } else if (event.type === 'progress') {
        bar?.show(crawlProgressBar(event, event.maxPages, event.lastUrl));
      }
    }
    crawl = await client.getCrawl({ crawlId: crawl.id });
  }
  bar?.stop();
  if (!ENDED.has(crawl.status)) {
    throw new LoupeError('not_ready', {
      message: `Lost the event stream of crawl ${crawl.id}, which goes on (${crawl.status}): loupe crawls watch ${crawl.id}`,
    });
  }
  const report = crawl.reportId ? await client.getReport({ reportId: crawl.reportId }) : null;
  output.result({ crawl, report } satisfies FollowedCrawl, ({ crawl, report }) =>
    report ? formatReportSummary(report, crawl) : `Crawl ${crawl.id} ${crawl.status}${crawl.error ? `: ${crawl.error}` : ''}; no report.`,
  );
  return crawl.status === 'completed' ? exitCodes.ok : exitCodes.crawlIncomplete;
}
