import type { Report } from '@loupe/contract';
import { counted, points } from './report-labels.ts';
import { ScoreBadge } from './score-badge.tsx';

const unscored: Record<NonNullable<Report['health']['unscoredReason']>, string> = {
  blocked: 'The site refused most requests (401, 403, 429), so no score was given.',
  'no-html-page': 'The crawl found no HTML page, so there is nothing to score.',
};

/** The health score and grade, what it was computed over, and the fixes that gain most. */
export function HealthSummary({ report }: { report: Report }) {
  const { health, pages, counts, topFixes } = report;
  return (
    <div className="health-summary">
      <section className="card health-card" aria-labelledby="health-heading">
        <h2 id="health-heading">Health</h2>
        <div className="health-score">
          <ScoreBadge score={health.score} grade={health.grade} large />
          <div>
            {health.score === null && health.unscoredReason && <p>{unscored[health.unscoredReason]}</p>}
            {health.margin !== null && <p className="muted">± {Math.round(health.margin)} points: the crawl was partial.</p>}
            {health.errorFreeShare !== null && (
              <p className="muted">{Math.round(health.errorFreeShare * 100)} % of scored URLs have no error.</p>
            )}
          </div>
        </div>
        <dl className="facts">
          <dt>Pages crawled</dt>
          <dd>{pages.crawled.toLocaleString('en')}</dd>
          <dt>HTML pages</dt>
          <dd>{pages.html.toLocaleString('en')}</dd>
          <dt>Failed</dt>
          <dd>{pages.failed.toLocaleString('en')}</dd>
          <dt>Redirects</dt>
          <dd>{pages.redirects.toLocaleString('en')}</dd>
          <dt>Blocked by robots.txt</dt>
          <dd>{pages.blockedByRobots.toLocaleString('en')}</dd>
        </dl>
        <ul className="severity-counts" aria-label="Findings by severity">
          <li className="severity error">{counted(counts.errors, 'error')}</li>
          <li className="severity warning">{counted(counts.warnings, 'warning')}</li>
          <li className="severity notice">{counted(counts.notices, 'notice')}</li>
        </ul>
      </section>
      <section className="card" aria-labelledby="fixes-heading">
        <h2 id="fixes-heading">Fix first</h2>
        {topFixes.length === 0 ? (
          <p className="muted">Nothing to fix: no finding costs points.</p>
        ) : (
          <ol className="top-fixes">
            {topFixes.map((fix) => (
              <li key={fix.ruleId}>
                <a href={`#issue-${fix.ruleId}`}>{fix.title}</a>{' '}
                <span className="gain">
                  {points(fix.gain)} → {fix.scoreWithout}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
