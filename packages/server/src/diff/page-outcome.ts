import type { ReportDiff } from '@loupe/contract';
import { causeOf } from '../crawl/link-outcome.ts';

export { causeOf };

export type MissingPage = ReportDiff['pages']['gone']['pages'][number];

const REDIRECT_ERRORS = new Set(['loop', 'too-many-redirects', 'invalid-redirect']);

/** Whether a stored page answered with a page: 2xx, or a 3xx that did not fail (as the diff's SQL tests it). */
export function answered(status: number | null, fetchError: string | null): boolean {
  return status !== null && status >= 200 && status < 400 && (fetchError === null || fetchError === 'truncated');
}

/**
 * Why a URL is not a page in a crawl. `state` is its row's state there: null when the crawl has
 * no row for it (it did not find the URL), anything but done when it was found and never fetched.
 */
export function missingPage(url: string, state: string | null, status: number | null, fetchError: string | null): MissingPage {
  const page = (kind: MissingPage['kind'], cause: string): MissingPage => ({ url, status, kind, cause });
  if (state === null) return page('not-linked', 'not found by the crawl: no longer linked, or out of its scope');
  if (state !== 'done') return page('not-reached', 'not reached: the crawl stopped before fetching it');
  if (fetchError === 'blocked-by-robots') return page('blocked-by-robots', 'blocked by robots.txt');
  if (fetchError !== null && REDIRECT_ERRORS.has(fetchError)) return page('redirect-error', causeOf(fetchError) as string);
  if (status === 404 || status === 410) return page('not-found', `answers ${status}`);
  if (status !== null && status >= 400 && status < 500) return page('client-error', `answers ${status}`);
  if (status !== null && status >= 500) return page('server-error', `answers ${status}`);
  return page('no-answer', causeOf(fetchError) ?? 'no answer');
}
