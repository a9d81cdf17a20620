import type { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { normalizeUrl } from '../page-facts/url-normalizer.ts';
import { FetchDeadline } from './fetch-deadline.ts';
import { type FetchFailure, fetchFailure, HOST_FAILURES } from './fetch-failure.ts';

/** Why a check got no usable answer: a fetch failure, or a redirect chain that leads nowhere (the page fetcher's words). */
export type LinkCheckError = FetchFailure | 'too-many-redirects' | 'loop' | 'invalid-redirect';

export interface LinkCheck {
  status: number | null;
  finalUrl: string;
  redirects: number;
  /** Content-Length of the final answer, when declared (`images/oversized-file`). */
  bytes: number | null;
  responseMs: number;
  error: LinkCheckError | null;
  /**
   * The link's own host did not resolve or refused the connection ('dns', 'refused'): every
   * other link to that host (URL.host, port included) would fail the same way.
   */
  hostFailure: boolean;
}

/** Statuses that mean "this server does not do HEAD here", so the check is made again with GET. */
const HEAD_UNSUPPORTED = new Set([400, 403, 405, 406, 501]);
/** Failures a GET cannot fix: asking again would only cost the target and the crawl. */
const FINAL_FAILURES = new Set<LinkCheckError>(['blocked-address', 'aborted', 'dns', 'refused', 'tls', 'timeout']);

/**
 * Whether a linked URL (another site's page, an image) answers: HEAD first, which costs the
 * target nothing, falling back to GET for servers that refuse HEAD; redirects followed by
 * hand (each hop through the address guard); bodies never read. The whole check, both
 * methods and every hop, ends after `timeoutMs`.
 */
export async function checkLink(
  fetcher: GuardedFetcher,
  url: string,
  options: { timeoutMs: number; maxRedirects: number; userAgent: string; signal?: AbortSignal },
): Promise<LinkCheck> {
  const started = performance.now();
  const deadline = new FetchDeadline(options.timeoutMs, options.signal);
  const result = (
    status: number | null,
    finalUrl: string,
    redirects: number,
    error: LinkCheckError | null,
    bytes: number | null = null,
  ): LinkCheck => ({
    status,
    finalUrl,
    redirects,
    error,
    bytes,
    responseMs: Math.round(performance.now() - started),
    hostFailure: error !== null && HOST_FAILURES.has(error as FetchFailure) && new URL(finalUrl).host === new URL(url).host,
  });
  const once = async (method: 'HEAD' | 'GET'): Promise<LinkCheck> => {
    let current = url;
    const seen = new Set([url]);
    for (let hops = 0; ; hops++) {
      try {
        const response = await fetcher.open(new URL(current), {
          method,
          headers: { 'user-agent': options.userAgent },
          timeoutMs: options.timeoutMs,
          signal: deadline.signal,
        });
        await response.body.dump({ limit: 0 }).catch(() => undefined);
        const status = response.statusCode;
        const location = response.headers.location;
        if (status >= 300 && status < 400 && typeof location === 'string') {
          const next = normalizeUrl(location, current);
          if (next === null) return result(status, current, hops, 'invalid-redirect');
          if (seen.has(next)) return result(status, current, hops, 'loop');
          if (hops >= options.maxRedirects) return result(status, current, hops, 'too-many-redirects');
          seen.add(next);
          current = next;
          continue;
        }
        const length = Number(response.headers['content-length']);
        return result(status, current, hops, null, Number.isFinite(length) && length >= 0 ? length : null);
      } catch (error) {
        return result(null, current, hops, fetchFailure(error, deadline));
      }
    }
  };

  try {
    const head = await once('HEAD');
    if (head.status !== null && !HEAD_UNSUPPORTED.has(head.status)) return head;
    if (head.error !== null && FINAL_FAILURES.has(head.error)) return head;
    return await once('GET');
  } finally {
    deadline.end();
  }
}
