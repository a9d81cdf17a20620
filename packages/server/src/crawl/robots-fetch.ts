import type { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { readAtMost } from '../outbound/read-at-most.ts';
import { normalizeUrl } from '../page-facts/url-normalizer.ts';
import { FetchDeadline } from './fetch-deadline.ts';
import { type FetchText, ROBOTS_MAX_BYTES } from './robots-policy.ts';

/** Google follows at least five redirects of a robots.txt, then reads the file as missing. */
const ROBOTS_MAX_REDIRECTS = 5;

/**
 * How the crawler asks for a robots.txt, as Google does: whatever its Content-Type (a file
 * served as application/octet-stream or with none is still read), redirects followed through
 * the address guard, the first 500 KiB read (a line cut at the end is dropped by the policy).
 * Too many redirects answer as a 404 would; no answer at all is null (unreachable).
 */
export function robotsFetcher(fetcher: GuardedFetcher, options: { userAgent: string; timeoutMs: number; signal?: AbortSignal }): FetchText {
  return async (url) => {
    // One deadline for every hop and the body: a file trickled a byte at a time is unreachable.
    const deadline = new FetchDeadline(options.timeoutMs, options.signal);
    try {
      return await read(url, deadline.signal);
    } finally {
      deadline.end();
    }
  };

  async function read(url: string, signal: AbortSignal): Promise<{ status: number; body: string } | null> {
    let current = url;
    for (let hops = 0; ; hops++) {
      const response = await fetcher
        .open(new URL(current), { method: 'GET', headers: { 'user-agent': options.userAgent }, timeoutMs: options.timeoutMs, signal })
        .catch(() => null);
      if (response === null) return null;
      const location = response.headers.location;
      const next = typeof location === 'string' ? normalizeUrl(location, current) : null;
      if (response.statusCode >= 300 && response.statusCode < 400) {
        await response.body.dump({ limit: 0 }).catch(() => undefined);
        if (next === null || hops >= ROBOTS_MAX_REDIRECTS) return { status: 404, body: '' };
        current = next;
        continue;
      }
      const body = await readAtMost(response.body, ROBOTS_MAX_BYTES).catch(() => null);
      return body === null ? null : { status: response.statusCode, body: body.toString('utf8') };
    }
  }
}
