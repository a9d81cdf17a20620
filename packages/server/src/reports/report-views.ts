import type { IssueInstance, LabDistribution, PageLab, Report, ReportPage, ReportPageDetail, SharedReport } from '@loupe/contract';
import { storedInstances } from '../audit/finding-instances.ts';
import type { Severity } from '../audit/health-score.ts';
import type { PageSummary } from '../audit/page-summary.ts';
import { findRule } from '../audit/rule-catalog.ts';
import type { InstanceRow } from './issue-instances.ts';
import type { PageRow, ReportRow } from './report-store.ts';

export type StoredFinding = {
  rule_id: string;
  severity: string;
  count: number;
  samples: string;
  more_instances: string | null;
  detail: string | null;
};

/** Stored rows as the API shows them; `publicUrl` (LOUPE_PUBLIC_URL) makes the share links absolute. */
export function toReport(row: ReportRow, publicUrl: string): Report {
  return { ...reportBody(row), share: row.share_token === null ? null : toShare(row, publicUrl) };
}

function reportBody(row: ReportRow): Omit<Report, 'share'> {
  type Body = Pick<Report, 'health' | 'pages' | 'counts' | 'categories' | 'issues' | 'topFixes'> &
    Partial<Pick<Report, 'ruleErrors' | 'lab'>>;
  const body = JSON.parse(row.body) as Body;
  return {
    id: row.id,
    crawlId: row.crawl_id,
    projectId: row.project_id,
    url: row.url,
    mode: row.mode as Report['mode'],
    completeness: row.completeness as Report['completeness'],
    createdAt: row.created_at,
    ...body,
    // Reports built before rules had budgets recorded none.
    ruleErrors: body.ruleErrors ?? [],
    // Reports built before rendering crawls have no lab section.
    lab: body.lab ?? null,
  };
}

/** The lab distribution a report's body holds; null for a crawl that did not render, or a report built before. */
export function reportLab(row: Pick<ReportRow, 'body'>): LabDistribution | null {
  return (JSON.parse(row.body) as Partial<Pick<Report, 'lab'>>).lab ?? null;
}

export function toSharedReport(row: ReportRow): SharedReport {
  const { crawlId: _crawl, projectId: _project, ...shared } = reportBody(row);
  return shared;
}

export function toShare(row: ReportRow, publicUrl: string) {
  const token = row.share_token as string;
  return { token, url: `${publicUrl}/r/${token}`, apiUrl: `${publicUrl}/api/v1/shared/${token}`, sharedAt: row.shared_at as string };
}

export function toReportPage(row: PageRow): ReportPage {
  const summary = pageSummary(row);
  return {
    id: row.id,
    url: row.url,
    status: row.status_code,
    fetchError: row.fetch_error,
    contentType: row.content_type,
    title: summary?.title ?? null,
    score: row.score,
    errors: row.error_count ?? 0,
    warnings: row.warning_count ?? 0,
    notices: row.notice_count ?? 0,
    depth: row.depth,
    inlinks: row.inlinks ?? 0,
    words: row.word_count,
    responseMs: row.response_ms,
    bytes: row.bytes,
    indexable: row.indexable === null ? null : row.indexable === 1,
    lcpMs: row.lab_lcp_ms,
    cls: row.lab_cls,
    tbtMs: row.lab_tbt_ms,
  };
}

/** How a finding's rule is named and fixed: by the report's own issues (custom rules included), else the catalog. */
export type RuleDescriber = (ruleId: string) => { category: string; title: string; fix: string } | undefined;

export function reportRules(row: ReportRow): RuleDescriber {
  const { issues } = JSON.parse(row.body) as Pick<Report, 'issues'>;
  const byId = new Map(issues.map((issue) => [issue.ruleId, issue]));
  return (ruleId) => byId.get(ruleId) ?? findRule(ruleId);
}

export function toReportPageDetail(
  row: PageRow,
  findings: StoredFinding[],
  describe: RuleDescriber,
  render: { lab: PageLab; hasScreenshot: boolean } | undefined,
): ReportPageDetail {
  const summary = pageSummary(row);
  return {
    ...toReportPage(row),
    finalUrl: row.final_url,
    redirects: row.redirects ? (JSON.parse(row.redirects) as ReportPageDetail['redirects']) : [],
    headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {},
    ttfbMs: row.ttfb_ms,
    description: summary?.description ?? null,
    h1: summary?.h1 ?? null,
    canonical: summary?.canonical ?? null,
    lang: summary?.lang ?? null,
    findings: findings.map((finding) => toPageFinding(finding, describe)),
    lab: render?.lab ?? null,
    hasScreenshot: render?.hasScreenshot ?? false,
  };
}

export function toPageFinding(finding: StoredFinding, describe: RuleDescriber): ReportPageDetail['findings'][number] {
  const rule = describe(finding.rule_id);
  return {
    ruleId: finding.rule_id,
    category: rule?.category ?? finding.rule_id.split('/')[0],
    severity: finding.severity as Severity,
    title: rule?.title ?? finding.rule_id,
    fix: rule?.fix ?? '',
    count: finding.count,
    samples: JSON.parse(finding.samples) as string[],
    kept: storedInstances(finding).length,
    detail: finding.detail,
  };
}

/** An instance row as the API shows it; a finding about the whole site takes the URL its issue names. */
export function toIssueInstance(row: InstanceRow, siteUrl: string): IssueInstance {
  return { ...row, url: row.url ?? siteUrl, severity: row.severity as Severity };
}

function pageSummary(row: PageRow): PageSummary | null {
  return row.summary ? (JSON.parse(row.summary) as PageSummary) : null;
}
