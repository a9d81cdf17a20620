import type { CrawlProgress, RecentFetch } from '@loupe/contract';
import { DataTable } from '../components/data-table.tsx';

/** The kinds the server counts errors under, in words a site owner reads; an unknown kind shows as it is. */
const KIND_NAMES: Record<string, string> = {
  '4xx': 'Client errors (4xx)',
  '5xx': 'Server errors (5xx)',
  dns: 'No such host',
  refused: 'Connection refused',
  timeout: 'Timed out',
  tls: 'TLS error',
  reset: 'Connection dropped',
  'blocked-address': 'Blocked address',
  'blocked-by-robots': 'Blocked by robots.txt',
  loop: 'Redirect loop',
  'too-many-redirects': 'Too many redirects',
  'invalid-redirect': 'Invalid redirect',
  network: 'Network error',
  body: 'Body cut short',
};

const kindName = (kind: string) => KIND_NAMES[kind] ?? kind;

function outcome(fetch: RecentFetch): string {
  if (fetch.error !== null) return kindName(fetch.error);
  return fetch.status === null ? 'No answer' : String(fetch.status);
}

/**
 * A crawl's errors so far by kind, most first, and its last requests with their status or
 * why they failed (issue #24, point 6), both as the crawl's events bring them.
 */
export function CrawlRequests({ progress }: { progress: CrawlProgress }) {
  const errors = Object.entries(progress.errors).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  return (
    <div className="crawl-requests">
      <h3 id="crawl-errors-heading">Errors so far</h3>
      {errors.length === 0 ? (
        <p className="muted">None so far.</p>
      ) : (
        <ul className="crawl-errors" aria-labelledby="crawl-errors-heading">
          {errors.map(([kind, count]) => (
            <li key={kind} data-kind={kind}>
              <span className="crawl-error-count">{count.toLocaleString('en')}</span> {kindName(kind)}
            </li>
          ))}
        </ul>
      )}
      <h3>Last requests</h3>
      {progress.recent.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <DataTable
          caption="Last requests, newest first"
          className="crawl-recent"
          columns={['URL', 'What', 'Answer', 'At']}
          items={progress.recent}
          row={(fetch) => (
            <tr key={`${fetch.at} ${fetch.url}`} data-failed={fetch.error !== null || (fetch.status ?? 0) >= 400}>
              <td className="last-url">{fetch.url}</td>
              <td>{fetch.kind === 'page' ? 'Page' : 'Link'}</td>
              <td>{outcome(fetch)}</td>
              <td>{new Date(fetch.at).toLocaleTimeString()}</td>
            </tr>
          )}
        />
      )}
    </div>
  );
}
