import type { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { readAtMost } from '../outbound/read-at-most.ts';
import { FetchDeadline } from './fetch-deadline.ts';
import type { FetchBytes } from './sitemap-reader.ts';

/**
 * How the crawler asks for a sitemap file: through the address guard, within one deadline for
 * the whole answer (a file trickled a byte at a time is unreachable), and read no further than
 * one byte past `maxBytes`, which the reader then refuses as too large. Null without an answer.
 */
export function sitemapFetcher(
  fetcher: GuardedFetcher,
  options: { userAgent: string; timeoutMs: number; maxBytes: number; signal?: AbortSignal },
): FetchBytes {
  return async (url) => {
    const deadline = new FetchDeadline(options.timeoutMs, options.signal);
    try {
      const response = await fetcher.open(new URL(url), {
        method: 'GET',
        headers: { 'user-agent': options.userAgent },
        timeoutMs: options.timeoutMs,
        signal: deadline.signal,
      });
      const body = await readAtMost(response.body, options.maxBytes);
      return { status: response.statusCode, body, contentType: String(response.headers['content-type'] ?? '') };
    } catch {
      return null;
    } finally {
      deadline.end();
    }
  };
}
