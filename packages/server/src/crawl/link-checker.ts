import type { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { BlockedAddressError } from '../outbound/address-guard.ts';
import { normalizeUrl } from './url-normalizer.ts';

export interface LinkCheck {
  status: number | null;
  finalUrl: string;
  redirects: number;
  /** Content-Length of the final answer, when declared (`images/oversized-file`). */
  bytes: number | null;
  responseMs: number;
  error: string | null;
}

/** Statuses that mean "this server does not do HEAD here", so the check is made again with GET. */
const HEAD_UNSUPPORTED = new Set([400, 403, 405, 406, 501]);

/**
 * Whether a linked URL (another site's page, an image) answers: HEAD first, which costs the
 * target nothing, falling back to GET for servers that refuse HEAD; redirects followed by
 * hand (each hop through the address guard); bodies never read.
 */
export async function checkLink(
  fetcher: GuardedFetcher,
  url: string,
  options: { timeoutMs: number; maxRedirects: number; userAgent: string; signal?: AbortSignal },
): Promise<LinkCheck> {
  const started = performance.now();
  const once = async (method: 'HEAD' | 'GET'): Promise<LinkCheck> => {
    let current = url;
    for (let hops = 0; ; hops++) {
      try {
        const response = await fetcher.open(new URL(current), {
          method,
          headers: { 'user-agent': options.userAgent },
          timeoutMs: options.timeoutMs,
          signal: options.signal,
        });
        await response.body.dump({ limit: 0 }).catch(() => undefined);
        const location = response.headers.location;
        const next = typeof location === 'string' ? normalizeUrl(location, current) : null;
        if (response.statusCode >= 300 && response.statusCode < 400 && next) {
          if (hops >= options.maxRedirects) return result(response.statusCode, current, hops, 'too-many-redirects');
          current = next;
          continue;
        }
        const length = Number(response.headers['content-length']);
        return result(response.statusCode, current, hops, null, Number.isFinite(length) && length >= 0 ? length : null);
      } catch (error) {
        const blocked = error instanceof BlockedAddressError || (error as { cause?: unknown }).cause instanceof BlockedAddressError;
        return result(null, current, hops, blocked ? 'blocked-address' : `network: ${(error as Error).message}`);
      }
    }
  };
  const result = (status: number | null, finalUrl: string, redirects: number, error: string | null, bytes: number | null = null): LinkCheck => ({
    status,
    finalUrl,
    redirects,
    error,
    bytes,
    responseMs: Math.round(performance.now() - started),
  });

  const head = await once('HEAD');
  if (head.status !== null && !HEAD_UNSUPPORTED.has(head.status)) return head;
  if (head.error === 'blocked-address') return head;
  return once('GET');
}
