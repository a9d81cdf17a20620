import type { Report } from '@loupe/contract';
import { Link } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { FindingSamples } from './finding-samples.tsx';
import { IssueInstances } from './issue-instances.tsx';
import { categoryLabel, counted, points, severities, severityLabels } from './report-labels.ts';

type Issue = Report['issues'][number];

export interface IssueGroupsProps {
  report: Report;
  /** The page detail's address for an example URL the crawl fetched. */
  pageHref: (pageId: string) => string;
  /** Shows the pages a rule fired on in the page index. */
  onShowPages: (ruleId: string) => void;
}

/**
 * The report's issues by category (those costing most first) and, within one, by severity:
 * each with its counts, the score gained if it were fixed, its explanation, fix and examples.
 */
export function IssueGroups({ report, pageHref, onShowPages }: IssueGroupsProps) {
  if (report.issues.length === 0) {
    return <EmptyState title="No issues">Every check passed on every page of this crawl.</EmptyState>;
  }
  const byCategory = new Map<string, Issue[]>();
  for (const issue of report.issues) byCategory.set(issue.category, [...(byCategory.get(issue.category) ?? []), issue]);
  // The report's categories come with their lost points; any category without a summary goes last.
  const order = [...report.categories].sort((a, b) => b.lostPoints - a.lostPoints).map((summary) => summary.category);
  const categories = [...new Set([...order, ...byCategory.keys()])].filter((category) => byCategory.has(category));
  return (
    <div className="issue-groups">
      {categories.map((category) => {
        const summary = report.categories.find((each) => each.category === category);
        const issues = byCategory.get(category)!;
        return (
          <section key={category} className="card issue-category" aria-labelledby={`category-${category}`}>
            <h3 id={`category-${category}`}>
              {categoryLabel(category)}{' '}
              <span className="muted category-counts">
                {summary
                  ? severities
                      .map((severity) => ({ severity, count: summary[`${severity}s` as const] }))
                      .filter(({ count }) => count > 0)
                      .map(({ severity, count }) => counted(count, severity))
                      .join(' · ')
                  : `${issues.length} issues`}
                {summary && summary.lostPoints > 0 && ` · costs ${Math.round(summary.lostPoints * 10) / 10} points`}
              </span>
            </h3>
            {severities.map((severity) => {
              const ofSeverity = issues.filter((issue) => issue.severity === severity);
              if (ofSeverity.length === 0) return null;
              return (
                <div key={severity} className="severity-group">
                  <h4 className={`severity ${severity}`}>
                    {ofSeverity.length} {ofSeverity.length === 1 ? severityLabels[severity].one : severityLabels[severity].many}
                  </h4>
                  <ul className="issue-list">
                    {ofSeverity.map((issue) => (
                      <IssueItem key={issue.ruleId} reportId={report.id} issue={issue} pageHref={pageHref} onShowPages={onShowPages} />
                    ))}
                  </ul>
                </div>
              );
            })}
          </section>
        );
      })}
    </div>
  );
}

function IssueItem({
  reportId,
  issue,
  pageHref,
  onShowPages,
}: {
  reportId: string;
  issue: Issue;
  pageHref: (pageId: string) => string;
  onShowPages: (ruleId: string) => void;
}) {
  // Site-level checks that name pages (duplicates, broken links) count them like page checks do.
  const reach =
    issue.pages === 0
      ? `site-wide${issue.share === null ? '' : `, ${Math.round(issue.share * 100)} % affected`}`
      : `${issue.pages.toLocaleString('en')} ${issue.pages === 1 ? 'page' : 'pages'}${issue.instances > issue.pages ? `, ${issue.instances.toLocaleString('en')} instances` : ''}`;
  return (
    <li id={`issue-${issue.ruleId}`} className="issue">
      <details>
        <summary>
          <span className="issue-title">{issue.title}</span>
          <span className="issue-reach muted">{reach}</span>
          {issue.gain > 0 && (
            <span className="gain" title={issue.scoreWithout === null ? undefined : `The score would be ${issue.scoreWithout}`}>
              {points(issue.gain)} if fixed
            </span>
          )}
        </summary>
        <div className="issue-body">
          <p>{issue.explanation}</p>
          <p>
            <strong>Fix:</strong> {issue.fix}
          </p>
          {issue.examples.length > 0 && (
            <>
              <p className="muted">Examples</p>
              <ul className="issue-examples">
                {issue.examples.map((example) => (
                  <li key={example.url}>
                    {example.pageId ? <Link to={pageHref(example.pageId)}>{example.url}</Link> : <span>{example.url}</span>}
                    {example.count > 1 && <span className="muted"> ×{example.count}</span>}
                    {example.detail && <span className="muted"> — {example.detail}</span>}
                    <FindingSamples samples={example.samples} />
                  </li>
                ))}
              </ul>
            </>
          )}
          <IssueInstances reportId={reportId} ruleId={issue.ruleId} instances={issue.instances} pageHref={pageHref} />{' '}
          {issue.pages > 0 && (
            <button type="button" className="button" onClick={() => onShowPages(issue.ruleId)}>
              Show its {issue.pages.toLocaleString('en')} {issue.pages === 1 ? 'page' : 'pages'} in the page index
            </button>
          )}
        </div>
      </details>
    </li>
  );
}
