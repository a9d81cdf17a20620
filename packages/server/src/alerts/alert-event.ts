import type { AlertEvent, CrawlStatus, FiredCondition } from '@loupe/contract';
import type { ProjectCrawl, ReportFacts } from './alert-evidence-store.ts';

type Grade = NonNullable<AlertEvent['report']>['grade'];

export interface AlertEventInput {
  deliveryId: string;
  test: boolean;
  project: { id: string; name: string; siteUrl: string };
  crawl: ProjectCrawl | null;
  report: ReportFacts | null;
  previousReport: ReportFacts | null;
  conditions: FiredCondition[];
  createdAt: string;
}

/** The body a webhook receives and an email is written from (AlertEvent in the contract). */
export function alertEvent(input: AlertEventInput): AlertEvent {
  const { crawl, report, previousReport } = input;
  return {
    event: 'crawl.alert',
    deliveryId: input.deliveryId,
    test: input.test,
    project: input.project,
    crawl: crawl && { id: crawl.id, status: crawl.status as CrawlStatus, url: crawl.url, finishedAt: crawl.finished_at },
    report: report && {
      id: report.id,
      score: report.score,
      grade: report.grade as Grade,
      completeness: report.completeness as 'complete' | 'partial',
      pages: report.pages,
      errors: report.errors,
      warnings: report.warnings,
      notices: report.notices,
    },
    previousReport: previousReport && {
      id: previousReport.id,
      score: previousReport.score,
      grade: previousReport.grade as Grade,
      createdAt: previousReport.created_at,
    },
    conditions: input.conditions,
    createdAt: input.createdAt,
  };
}
