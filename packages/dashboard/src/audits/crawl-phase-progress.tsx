import type { Crawl, CrawlProgress } from '@loupe/contract';

const count = (n: number) => n.toLocaleString('en');

/** What the crawl is doing, in a sentence: the answer to "why is it still at 500 of 500?". */
function phaseSentence(crawl: Crawl, progress: CrawlProgress | null): string {
  if (!progress) return 'Waiting to start.';
  switch (progress.phase) {
    case 'pages':
      return progress.links.total > 0 ? 'Crawling pages, and checking their links as they are found.' : 'Crawling pages.';
    case 'links':
      return 'Checking links: every page is fetched, and the remaining links to assets and other sites are being checked.';
    case 'report':
      return 'Building the report.';
    case 'done':
      return crawl.status === 'completed' ? 'Done.' : 'Ended.';
  }
}

const rate = (perSecond: number | null) => (perSecond === null ? '' : `, ${count(perSecond)} a second`);

/** `About 2m 5s left in this phase.`; nothing while the server cannot tell. */
function timeLeft(seconds: number | null): string {
  if (seconds === null) return '';
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  const text = h > 0 ? `${h}h ${m}m` : m > 0 ? `${m}m ${s}s` : `${s}s`;
  return ` About ${text} left in this phase.`;
}

/**
 * A crawl's phase, its pages and link checks each with a bar and a count, their recent
 * rates (issue #23, point 2) and the time left in the phase (issue #24, point 6). The pages bar fills towards maxPages while pages are fetched
 * (the pages found so far grow as it goes), and to the pages found once they all are.
 */
export function CrawlPhaseProgress({ crawl }: { crawl: Crawl }) {
  const progress = crawl.status === 'queued' ? null : crawl.progress;
  const since = progress && progress.phase !== 'done' ? ` Since ${new Date(progress.phaseStartedAt).toLocaleTimeString()}.` : '';
  return (
    <div className="crawl-phase-progress">
      <p className="crawl-phase" data-phase={progress?.phase ?? 'queued'}>
        {phaseSentence(crawl, progress)}
        <span className="muted">{since}</span>
        {progress && progress.phase !== 'done' && <span className="crawl-time-left">{timeLeft(progress.secondsLeft)}</span>}
      </p>
      {progress ? (
        <>
          <div className="progress-row">
            <span className="progress-label">Pages</span>
            <progress
              aria-label="Pages fetched"
              max={progress.phase === 'pages' ? Math.max(crawl.maxPages, 1) : Math.max(progress.pages.total, 1)}
              value={progress.pages.done}
            />
            <span className="muted">
              {count(progress.pages.done)} of {count(progress.pages.total)} found{rate(progress.pagesPerSecond)}
            </span>
          </div>
          <div className="progress-row">
            <span className="progress-label">Links</span>
            <progress
              aria-label="Links checked"
              max={Math.max(progress.links.total, 1)}
              value={progress.links.total === 0 && progress.phase !== 'pages' ? 1 : progress.links.done}
            />
            <span className="muted">
              {count(progress.links.done)} of {count(progress.links.total)} checked{rate(progress.linksPerSecond)}
            </span>
          </div>
        </>
      ) : (
        <div className="progress-row">
          <span className="progress-label">Pages</span>
          <progress aria-label="Pages fetched">Waiting to start</progress>
        </div>
      )}
    </div>
  );
}
