import type { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { normalizeUrl } from '../page-facts/url-normalizer.ts';

/** How the http:// twins of an https crawl's pages answered (`redirects/http-not-redirected`). */
export interface HttpTwinCheck {
  /** The twin of the first URL asked for, the start URL: what the finding is about. */
  url: string;
  /** Twins that answered. */
  checked: number;
  /** Of those, the ones that did not answer 301 or 308 to their https URL. */
  notRedirected: number;
  /** Up to three of them, with what they answered: `http://… → 302 https://…`, `http://… → 200`. */
  samples: string[];
  /** Twins that gave no answer (nothing listens, a timeout): they serve nothing over http, so they are not counted. */
  unanswered: number;
  /** Twins not asked because the time budget ran out. */
  skipped: number;
}

export interface HttpTwinOptions {
  timeoutMs: number;
  userAgent: string;
  /** squirrelscan probes 20 URLs within 20 s (audit-checks.md §1). */
  budgetMs?: number;
  concurrency?: number;
  signal?: AbortSignal;
}

const PERMANENT = new Set([301, 308]);
const DEFAULT_BUDGET_MS = 20_000;
const DEFAULT_CONCURRENCY = 4;
const MAX_SAMPLES = 3;

/**
 * The http:// form of an https URL: the scheme changes and nothing else, so the default
 * port 443 becomes the default port 80, and an explicit port stays as it is.
 */
export function httpTwin(httpsUrl: string): string {
  const twin = new URL(httpsUrl);
  twin.protocol = 'http:';
  return twin.href;
}

/**
 * Asks the http:// twin of each https URL once, through the crawler's fetcher and its address
 * guard, redirects not followed: a twin passes when it answers 301 or 308 with its https URL
 * as Location. Only the user agent is sent: the crawl's own headers (cookies, tokens) must
 * not travel in clear text. Probes stop starting once the budget is spent, and each waits
 * at most what is left of it.
 */
export async function checkHttpTwins(
  fetcher: GuardedFetcher,
  httpsUrls: readonly string[],
  options: HttpTwinOptions,
): Promise<HttpTwinCheck> {
  const result: HttpTwinCheck = {
    url: httpsUrls[0] === undefined ? '' : httpTwin(httpsUrls[0]),
    checked: 0,
    notRedirected: 0,
    samples: [],
    unanswered: 0,
    skipped: 0,
  };
  const deadline = Date.now() + (options.budgetMs ?? DEFAULT_BUDGET_MS);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < httpsUrls.length; index = next++) {
      const left = deadline - Date.now();
      if (left <= 0 || options.signal?.aborted) {
        result.skipped += 1;
        continue;
      }
      const httpsUrl = httpsUrls[index] as string;
      const twin = httpTwin(httpsUrl);
      const answer = await fetcher
        .open(new URL(twin), {
          method: 'GET',
          headers: { 'user-agent': options.userAgent },
          timeoutMs: Math.min(options.timeoutMs, left),
          signal: options.signal,
        })
        .catch(() => null);
      if (answer === null) {
        result.unanswered += 1;
        continue;
      }
      await answer.body.dump({ limit: 0 }).catch(() => undefined);
      result.checked += 1;
      const location = typeof answer.headers.location === 'string' ? normalizeUrl(answer.headers.location, twin) : null;
      if (PERMANENT.has(answer.statusCode) && location !== null && location === normalizeUrl(httpsUrl)) continue;
      result.notRedirected += 1;
      if (result.samples.length < MAX_SAMPLES)
        result.samples.push(`${twin} → ${answer.statusCode}${location === null ? '' : ` ${location}`}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, httpsUrls.length) }, worker));
  return result;
}
