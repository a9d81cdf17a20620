import { LoupeError, labP75s, type Report, type ReportDiff, type Severity } from '@loupe/contract';
import type { PageSummary } from '../audit/page-summary.ts';
import type { Database } from '../database/database.ts';
import type { Principal } from '../principal.ts';
import { labP75Changes } from '../reports/lab-distribution.ts';
import { type ReportRow, ReportStore } from '../reports/report-store.ts';
import { type RuleDescriber, reportLab, reportRules } from '../reports/report-views.ts';
import { type DiffSide, DiffStore, type IssueRow, keyOfUrl, type PageOutcomeRow } from './diff-store.ts';
import { causeOf, missingPage } from './page-outcome.ts';

export interface DiffQuery {
  old: string;
  new: string;
  allowCrossSite: boolean;
  limit: number;
}

type IssueChanges = ReportDiff['issues']['new'];

const severities: readonly Severity[] = ['notice', 'warning', 'error'];

/** Compares two reports of the caller's workspace (DESIGN.md §8 Diff). */
export class DiffService {
  readonly #reports: ReportStore;
  readonly #store: DiffStore;

  constructor(database: Database) {
    this.#reports = new ReportStore(database);
    this.#store = new DiffStore(database);
  }

  async diff(principal: Principal, query: DiffQuery): Promise<ReportDiff> {
    const before = await this.#reports.get(principal.workspaceId, query.old);
    const after = await this.#reports.get(principal.workspaceId, query.new);
    const [beforeSite, afterSite] = [siteOf(before.url), siteOf(after.url)];
    if (beforeSite !== afterSite && !query.allowCrossSite) {
      throw new LoupeError('reports_not_comparable', {
        message: `These reports are of two sites (${beforeSite} and ${afterSite}); pass allowCrossSite=true to compare them anyway, page by path.`,
      });
    }
    const older = sideOf(before);
    const newer = sideOf(after);
    // Pages are matched on path and query: on one origin that is matching whole URLs; across a
    // move to https or www., or another site, it is all that can say which page is which.
    const matchedBy = older.origin === newer.origin ? 'url' : 'path';
    const { limit } = query;
    const store = this.#store;
    const [
      pagesBefore,
      pagesAfter,
      added,
      broken,
      removed,
      gone,
      status,
      title,
      newIssues,
      resolvedIssues,
      goneIssues,
      siteBefore,
      siteAfter,
    ] = await Promise.all([
      store.pageCount(older),
      store.pageCount(newer),
      store.pagesOnlyIn(newer, older, limit, true),
      store.pagesOnlyIn(newer, older, limit, false),
      store.pagesOnlyIn(older, newer, limit),
      store.gonePages(older, newer, limit),
      store.statusChanges(older, newer, limit),
      store.titleChanges(older, newer, limit),
      store.issuesOnlyIn(newer, older, limit),
      // A finding is resolved only where its page is still there; a page gone takes its findings with it.
      store.issuesOnlyIn(older, newer, limit, true),
      store.issuesOnlyIn(older, newer, limit, false),
      this.#siteFindings(before, older),
      this.#siteFindings(after, newer),
    ]);
    const siteKeys = (findings: SiteFinding[], side: DiffSide) => new Set(findings.map((f) => issueKey(f, side)));
    const [beforeKeys, afterKeys] = [siteKeys(siteBefore, older), siteKeys(siteAfter, newer)];
    return {
      old: reportOf(before),
      new: reportOf(after),
      matchedBy,
      score: change(before.score, after.score),
      lab: labP75Changes(labP75s(reportLab(before)), labP75s(reportLab(after))),
      severities: {
        errors: count(before.errors, after.errors),
        warnings: count(before.warnings, after.warnings),
        notices: count(before.notices, after.notices),
      },
      pages: {
        before: pagesBefore,
        after: pagesAfter,
        added: { total: added.total, urls: added.rows.map((row) => row.url) },
        broken: missingPages(broken),
        removed: { total: removed.total, urls: removed.rows.map((row) => row.url) },
        gone: missingPages(gone),
      },
      issues: {
        new: issueChanges(
          newIssues,
          siteAfter.filter((f) => !beforeKeys.has(issueKey(f, newer))),
          reportRules(after),
          limit,
        ),
        resolved: issueChanges(
          resolvedIssues,
          siteBefore.filter((f) => !afterKeys.has(issueKey(f, older))),
          reportRules(before),
          limit,
        ),
        onGonePages: issueChanges(goneIssues, [], reportRules(before), limit),
      },
      changed: {
        status: {
          total: status.total,
          pages: status.rows.map((row) => ({
            url: row.url,
            before: row.before,
            after: row.after,
            beforeCause: causeOf(row.beforeError),
            afterCause: causeOf(row.afterError),
          })),
        },
        title: {
          total: title.total,
          pages: title.rows.map((row) => ({ url: row.url, before: titleOf(row.beforeSummary), after: titleOf(row.afterSummary) })),
        },
      },
    };
  }

  /**
   * Site-level findings (robots.txt, sitemaps) with the URL they name. The finding rows carry no
   * URL; the report's issue keeps it as the finding's example, the one without a page.
   */
  async #siteFindings(report: ReportRow, side: DiffSide): Promise<SiteFinding[]> {
    const body = JSON.parse(report.body) as Pick<Report, 'issues'>;
    const urls = new Map<string, string>();
    for (const issue of body.issues) {
      const example = issue.examples.find((e) => e.pageId === null);
      if (example) urls.set(issue.ruleId, example.url);
    }
    const rows = await this.#store.siteFindings(side);
    return rows.map((row) => ({ ruleId: row.ruleId, severity: row.severity as Severity, url: urls.get(row.ruleId) ?? report.url }));
  }
}

interface SiteFinding {
  ruleId: string;
  severity: Severity;
  url: string;
}

/** Two reports are of one site when their start URLs' host names match, a leading www. aside. */
export function siteOf(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '');
}

function sideOf(report: ReportRow): DiffSide {
  return { crawlId: report.crawl_id, origin: new URL(report.url).origin };
}

/** Site-level findings are keyed like page ones: rule, and the URL's page key. */
function issueKey(finding: SiteFinding, side: DiffSide): string {
  return `${finding.ruleId} ${keyOfUrl(side, finding.url)}`;
}

function reportOf(row: ReportRow): ReportDiff['old'] {
  return { id: row.id, url: row.url, createdAt: row.created_at, score: row.score, grade: row.grade as ReportDiff['old']['grade'] };
}

function change(before: number | null, after: number | null) {
  return { before, after, delta: before === null || after === null ? null : after - before };
}

function count(before: number, after: number) {
  return { before, after, delta: after - before };
}

function missingPages(list: { total: number; rows: PageOutcomeRow[] }): ReportDiff['pages']['gone'] {
  return { total: list.total, pages: list.rows.map((row) => missingPage(row.url, row.state, row.status, row.fetchError)) };
}

function titleOf(summary: string | null): string | null {
  return summary === null ? null : ((JSON.parse(summary) as PageSummary).title ?? null);
}

/**
 * The store's page issues (sorted by rule, then URL, each rule cut at `limit` with its total)
 * and the site-level ones, grouped by rule: errors first, then by rule id.
 */
function issueChanges(pageRows: IssueRow[], site: SiteFinding[], describe: RuleDescriber, limit: number): IssueChanges {
  const groups = new Map<string, { severity: number; total: number; urls: string[] }>();
  const group = (ruleId: string) => {
    let found = groups.get(ruleId);
    if (!found) groups.set(ruleId, (found = { severity: 0, total: 0, urls: [] }));
    return found;
  };
  for (const row of pageRows) {
    const entry = group(row.ruleId);
    entry.severity = Math.max(entry.severity, row.severityRank);
    entry.total = row.total;
    entry.urls.push(row.url);
  }
  for (const finding of site) {
    const entry = group(finding.ruleId);
    entry.severity = Math.max(entry.severity, severities.indexOf(finding.severity));
    entry.total += 1;
    entry.urls.push(finding.url);
    entry.urls.sort();
  }
  const byRule = [...groups]
    .map(([ruleId, entry]) => ({
      ruleId,
      // The report's own description first: a rule pack's rules are not in the built-in catalog.
      title: describe(ruleId)?.title ?? ruleId,
      severity: severities[entry.severity] as Severity,
      total: entry.total,
      urls: entry.urls.slice(0, limit),
    }))
    .sort(
      (a, b) => severities.indexOf(b.severity) - severities.indexOf(a.severity) || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0),
    );
  return {
    total: byRule.reduce((sum, entry) => sum + entry.total, 0),
    rules: byRule.length,
    byRule: byRule.slice(0, limit),
  };
}
