import type { ReportDiff } from '@loupe/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { counted, severities, severityLabels } from '../reports/report-labels.ts';
import { ScoreBadge } from '../reports/score-badge.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { ChangeTableHead } from './change-table-head.tsx';
import { LabDiffSection } from './lab-diff-section.tsx';

type IssueChanges = ReportDiff['issues']['new'];
type MissingPages = ReportDiff['pages']['gone'];

/** An HTTP status with what went wrong, or only what went wrong when there was no answer. */
const statusText = (status: number | null, cause: string | null) =>
  status === null ? (cause ?? 'no answer') : cause ? `${status} (${cause})` : String(status);

const signed = (delta: number | null) => (delta === null ? '–' : delta > 0 ? `+${delta}` : String(delta));
const trend = (delta: number | null, higherIsBetter: boolean) =>
  delta === null || delta === 0 ? 'same' : delta > 0 === higherIsBetter ? 'better' : 'worse';

/** Every section of a diff (contract/diff/report-diff.ts): score, findings, pages, issues, status and title changes. */
export function DiffSections({ diff }: { diff: ReportDiff }) {
  const { workspace } = useWorkspace();
  const report = (side: ReportDiff['old']) => (
    <>
      <Link to={`/w/${workspace.id}/reports/${side.id}`}>{new Date(side.createdAt).toLocaleString()}</Link>
      <span className="muted"> {side.url}</span>
    </>
  );
  return (
    <div className="diff">
      <section className="card" aria-labelledby="diff-score-heading">
        <h2 id="diff-score-heading">Score</h2>
        <div className="diff-score">
          <div>
            <p className="muted">Before</p>
            <ScoreBadge score={diff.old.score} grade={diff.old.grade} large />
            <p>{report(diff.old)}</p>
          </div>
          {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: names the bare signed figure for tools that read labels; a caption would change the layout */}
          <p className={`diff-delta ${trend(diff.score.delta, true)}`} aria-label={`Change ${signed(diff.score.delta)} points`}>
            {signed(diff.score.delta)}
          </p>
          <div>
            <p className="muted">After</p>
            <ScoreBadge score={diff.new.score} grade={diff.new.grade} large />
            <p>{report(diff.new)}</p>
          </div>
        </div>
        {diff.matchedBy === 'path' && <p className="muted">The reports start on different origins: pages are matched by path and query.</p>}
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Findings by severity, before and after</caption>
            <ChangeTableHead first="Findings" />
            <tbody>
              {severities.map((severity) => {
                const count = diff.severities[`${severity}s` as const];
                return (
                  <tr key={severity}>
                    <th scope="row" className={`severity ${severity}`}>
                      {severityLabels[severity].many.charAt(0).toUpperCase() + severityLabels[severity].many.slice(1)}
                    </th>
                    <td className="numeric">{count.before}</td>
                    <td className="numeric">{count.after}</td>
                    <td className={`numeric diff-delta ${trend(count.delta, false)}`}>{signed(count.delta)}</td>
                  </tr>
                );
              })}
              <tr>
                <th scope="row">Pages</th>
                <td className="numeric">{diff.pages.before}</td>
                <td className="numeric">{diff.pages.after}</td>
                <td className="numeric">{signed(diff.pages.after - diff.pages.before)}</td>
              </tr>
            </tbody>
          </table>
        </div>
      </section>
      {diff.lab && <LabDiffSection lab={diff.lab} />}

      <div className="diff-columns">
        <IssueSection id="new-issues" title="New issues" changes={diff.issues.new} empty="No new issue." />
        <IssueSection id="resolved-issues" title="Resolved issues" changes={diff.issues.resolved} empty="No issue was resolved." />
        <IssueSection
          id="gone-issues"
          title="Issues gone with their pages"
          changes={diff.issues.onGonePages}
          empty="No issue went with a page."
        />
      </div>

      <div className="diff-columns">
        <UrlSection id="pages-added" title="Pages added" list={diff.pages.added} empty="No page is new." />
        <UrlSection id="pages-removed" title="Pages removed" list={diff.pages.removed} empty="Every page was crawled again." />
      </div>

      <div className="diff-columns">
        <MissingSection id="pages-broken" title="New URLs broken" list={diff.pages.broken} empty="Every new URL answers with a page." />
        <MissingSection id="pages-gone" title="Pages gone" list={diff.pages.gone} empty="Every page still answers." />
      </div>

      <section className="card" aria-labelledby="status-changes-heading">
        <h2 id="status-changes-heading">
          Status changes <span className="muted">{diff.changed.status.total}</span>
        </h2>
        {diff.changed.status.total === 0 ? (
          <p className="muted">No page answers differently.</p>
        ) : (
          <ChangeTable
            rows={diff.changed.status.pages.map((page) => ({
              url: page.url,
              before: statusText(page.before, page.beforeCause),
              after: statusText(page.after, page.afterCause),
            }))}
          />
        )}
        <Cut shown={diff.changed.status.pages.length} total={diff.changed.status.total} />
      </section>

      <section className="card" aria-labelledby="title-changes-heading">
        <h2 id="title-changes-heading">
          Title changes <span className="muted">{diff.changed.title.total}</span>
        </h2>
        {diff.changed.title.total === 0 ? (
          <p className="muted">No title changed.</p>
        ) : (
          <ChangeTable
            rows={diff.changed.title.pages.map((page) => ({
              url: page.url,
              before: page.before ?? 'no title',
              after: page.after ?? 'no title',
            }))}
          />
        )}
        <Cut shown={diff.changed.title.pages.length} total={diff.changed.title.total} />
      </section>
    </div>
  );
}

function IssueSection({ id, title, changes, empty }: { id: string; title: string; changes: IssueChanges; empty: string }) {
  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>
        {title}{' '}
        <span className="muted">
          {changes.total} on {changes.rules} {changes.rules === 1 ? 'rule' : 'rules'}
        </span>
      </h2>
      {changes.total === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="diff-issues">
          {changes.byRule.map((group) => (
            <li key={group.ruleId}>
              <details>
                <summary>
                  <span className={`severity ${group.severity}`}>{counted(group.total, group.severity)}</span> {group.title}
                </summary>
                <ul className="url-list">
                  {group.urls.map((url) => (
                    <li key={url}>{url}</li>
                  ))}
                </ul>
                <Cut shown={group.urls.length} total={group.total} />
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A card of a counted list of URLs, of which the diff sends the first few (a Cut says how many more). */
function CountedList({
  id,
  title,
  total,
  empty,
  children,
}: {
  id: string;
  title: string;
  total: number;
  empty: string;
  children: ReactNode[];
}) {
  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>
        {title} <span className="muted">{total}</span>
      </h2>
      {total === 0 ? <p className="muted">{empty}</p> : <ul className="url-list">{children}</ul>}
      <Cut shown={children.length} total={total} />
    </section>
  );
}

function UrlSection({ id, title, list, empty }: { id: string; title: string; list: { total: number; urls: string[] }; empty: string }) {
  return (
    <CountedList id={id} title={title} total={list.total} empty={empty}>
      {list.urls.map((url) => (
        <li key={url}>{url}</li>
      ))}
    </CountedList>
  );
}

/** Pages that do not answer with a page, each with why (contract/diff/report-diff.ts MissingPage). */
function MissingSection({ id, title, list, empty }: { id: string; title: string; list: MissingPages; empty: string }) {
  return (
    <CountedList id={id} title={title} total={list.total} empty={empty}>
      {list.pages.map((page) => (
        <li key={page.url}>
          {page.url} <span className="muted">{page.cause}</span>
        </li>
      ))}
    </CountedList>
  );
}

function ChangeTable({ rows }: { rows: { url: string; before: string | number; after: string | number }[] }) {
  return (
    <div className="table-scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.url}>
              <td className="url-cell">{row.url}</td>
              <td>{row.before}</td>
              <td>{row.after}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Each list of a diff is cut at the API's limit; say so when it was. */
function Cut({ shown, total }: { shown: number; total: number }) {
  if (shown >= total) return null;
  return (
    <p className="muted">
      Showing {shown.toLocaleString('en')} of {total.toLocaleString('en')}.
    </p>
  );
}
