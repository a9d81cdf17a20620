import type { Crawl, Report } from '@loupe/contract';
import { formatFields, formatTable } from './table.ts';

/** How many issues the summary lists; the rest are in `loupe reports get --json` and the export. */
const TOP_ISSUES = 10;

function score(report: Report): string {
  const { health } = report;
  if (health.score === null) return `n/a (${health.unscoredReason ?? 'not scored'})`;
  const margin = health.margin === null ? '' : ` ±${Math.round(health.margin)}`;
  return `${health.score}${margin}`;
}

/**
 * A report for people: score and grade, pages, findings by severity, and the issues that
 * cost the most points. Given the crawl that made it, also its state and credits.
 */
export function formatReportSummary(report: Report, crawl?: Crawl): string {
  const fields: [string, string | number | null][] = [
    ['report', report.id],
    ['site', report.url],
  ];
  if (crawl) {
    fields.push(['crawl', `${crawl.id} (${crawl.status})`]);
    if (crawl.creditsCharged !== null) fields.push(['credits', `${crawl.creditsCharged} charged`]);
  }
  fields.push(
    ['score', score(report)],
    ['grade', report.health.grade],
    [
      'pages',
      `${report.pages.crawled} crawled, ${report.pages.html} HTML, ${report.pages.failed} failed, ${report.pages.redirects} redirects, ${report.pages.blockedByRobots} blocked by robots.txt`,
    ],
    ['issues', `${report.counts.errors} errors, ${report.counts.warnings} warnings, ${report.counts.notices} notices`],
    ['report is', report.completeness],
  );
  const sections = [formatFields(fields)];
  if (report.issues.length > 0) {
    const top = report.issues.slice(0, TOP_ISSUES);
    sections.push(
      `Top issues (${top.length} of ${report.issues.length}, by points lost):\n` +
        formatTable(
          ['severity', 'rule', 'issue', 'pages', 'points'],
          top.map((issue) => [
            issue.severity,
            issue.ruleId,
            issue.title,
            issue.scope === 'site' ? 'site' : issue.pages,
            Number(issue.lostPoints.toFixed(1)),
          ]),
        ),
    );
  } else {
    sections.push('No issues found.');
  }
  return sections.join('\n\n');
}
