import { randomBytes } from 'node:crypto';
import type { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { extractPageFacts } from '../page-facts/page-facts.ts';
import { type FetchLimits, fetchPage } from './page-fetcher.ts';

/** How a site answered a path that cannot exist. */
export interface NotFoundProbe {
  url: string;
  /** Null when no response arrived (`error` says why). */
  status: number | null;
  error: string | null;
  /** The main content's hash of a 2xx HTML answer, as pages have it (`facts.mainText.textHash`); null otherwise. */
  textHash: string | null;
  wordCount: number;
}

/** A path no site has on purpose: random, so no cache or route can know it. */
export function notFoundProbeUrl(origin: string): string {
  return new URL(`/loupe-not-found-${randomBytes(9).toString('base64url')}`, origin).href;
}

/**
 * Asks the site for a path that cannot exist, through the crawler's own fetcher (and so its
 * address guard). The answer is no page of the crawl: it is kept in the site facts, costs
 * no credit, and is never a URL of the report. A redirect is not followed: a site that
 * redirects unknown paths serves no error page under them.
 */
export async function probeNotFound(
  fetcher: GuardedFetcher,
  url: string,
  limits: FetchLimits,
  signal?: AbortSignal,
): Promise<NotFoundProbe> {
  const answer = await fetchPage(fetcher, url, { ...limits, followRedirects: false }, signal);
  const html = answer.status !== null && answer.status >= 200 && answer.status < 300 ? answer.html : null;
  const main = html === null ? null : extractPageFacts(html, answer.finalUrl, answer.headers).mainText;
  return { url, status: answer.status, error: answer.error, textHash: main?.textHash ?? null, wordCount: main?.wordCount ?? 0 };
}

/**
 * The probe a page's text is compared with: only a 2xx HTML answer with words. An empty
 * answer (a script-only app shell) would equal every other empty page without saying
 * anything about them.
 */
export function comparableProbe(probe: NotFoundProbe | undefined): { url: string; textHash: string } | null {
  if (!probe || probe.textHash === null || probe.wordCount === 0) return null;
  return { url: probe.url, textHash: probe.textHash };
}
