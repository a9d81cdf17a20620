import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createZstdDecompress } from 'node:zlib';
import type { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { normalizeUrl } from '../page-facts/url-normalizer.ts';
import { FetchDeadline } from './fetch-deadline.ts';
import { fetchFailure } from './fetch-failure.ts';

export interface FetchLimits {
  /** The whole fetch, every hop and the body, ends after this; so does each hop left idle this long. */
  timeoutMs: number;
  /** Bodies beyond this are cut off (the page is analysed on what arrived) and flagged. */
  maxBodyBytes: number;
  maxRedirects: number;
  /** False: a redirect is answered as it is (status and the Location in finalUrl), for the caller to queue. */
  followRedirects?: boolean;
  userAgent: string;
  headers: Record<string, string>;
  /** Media types whose bodies are read; HTML by default (robots.txt reads text/plain). */
  readBodies?: RegExp;
}

export interface RedirectHop {
  url: string;
  status: number;
}

export interface FetchedPage {
  /** The URL asked for. */
  url: string;
  /** Where the redirects ended (equal to url without redirects). */
  finalUrl: string;
  /** Status of the last response; null when no response arrived. */
  status: number | null;
  headers: Record<string, string>;
  contentType: string | null;
  /** Decoded text of the body when its type is read (HTML by default); null otherwise: other bodies are not downloaded. */
  html: string | null;
  /** Bytes as transferred (compressed when the server compressed); Content-Length for bodies not read. */
  bytes: number;
  /** The decoded body reached `maxBodyBytes` and was cut there. */
  truncated: boolean;
  /** To the last response's headers (time to first byte), and to the end of its body. */
  ttfbMs: number;
  responseMs: number;
  redirects: RedirectHop[];
  /**
   * 'loop' | 'too-many-redirects' | 'invalid-redirect' | 'blocked-address' | 'timeout' |
   * 'network: …' | 'body: …'; 'aborted' when the caller's signal stopped it (no result).
   */
  error: string | null;
  /** Seconds from Retry-After on a 429/503, to back off before asking again. */
  retryAfterSeconds: number | null;
  /** The connection was reset or closed before any response: a site's passing failure, worth asking again. */
  connectionLost: boolean;
}

/** Errors of a connection the other side dropped (undici's "other side closed" is UND_ERR_SOCKET). */
const LOST_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

function lostConnection(error: unknown): boolean {
  const { code, cause } = error as { code?: string; cause?: { code?: string } };
  return LOST_CONNECTION.has(code ?? '') || LOST_CONNECTION.has(cause?.code ?? '');
}

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

/** What a browser accepts, so `performance/uncompressed` sees what visitors get. */
const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
const decoders: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
  zstd: createZstdDecompress,
};

/**
 * The decoded body, chunk by chunk, counting the transferred bytes on the way. An unknown
 * encoding is read as it is (the page is then analysed on bytes that may not be text).
 */
async function* decodedBody(body: Readable, encoding: string | undefined, transferred: { bytes: number }): AsyncGenerator<Buffer> {
  const decoder = encoding ? decoders[encoding.trim().toLowerCase()] : undefined;
  if (!decoder) {
    for await (const chunk of body) {
      transferred.bytes += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
    return;
  }
  body.on('data', (chunk: Buffer) => {
    transferred.bytes += chunk.length;
  });
  // pipeline, not pipe: a body that fails (timeout, reset) fails the decoder too.
  yield* pipeline(body, decoder(), () => undefined) as AsyncIterable<Buffer>;
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

function retryAfter(value: string | undefined): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

/**
 * Fetches one URL for the crawler: redirects followed by hand and recorded hop by hop
 * (loops and over-long chains stop with an error), only HTML bodies downloaded, and those
 * cut at the size limit. Every connection goes through the address guard. The whole fetch
 * ends after `limits.timeoutMs`, however the site trickles its answer.
 */
export async function fetchPage(fetcher: GuardedFetcher, url: string, limits: FetchLimits, signal?: AbortSignal): Promise<FetchedPage> {
  const deadline = new FetchDeadline(limits.timeoutMs, signal);
  try {
    return await fetchWithin(fetcher, url, limits, deadline);
  } finally {
    deadline.end();
  }
}

async function fetchWithin(fetcher: GuardedFetcher, url: string, limits: FetchLimits, deadline: FetchDeadline): Promise<FetchedPage> {
  const started = performance.now();
  const redirects: RedirectHop[] = [];
  const seen = new Set([url]);
  const result = (partial: Partial<FetchedPage>): FetchedPage => ({
    url,
    finalUrl: partial.finalUrl ?? url,
    status: null,
    headers: {},
    contentType: null,
    html: null,
    bytes: 0,
    truncated: false,
    ttfbMs: ttfbMs ?? Math.round(performance.now() - started),
    responseMs: Math.round(performance.now() - started),
    redirects,
    error: null,
    retryAfterSeconds: null,
    connectionLost: false,
    ...partial,
  });

  let ttfbMs: number | undefined;
  let current = url;
  for (;;) {
    let response: Awaited<ReturnType<GuardedFetcher['open']>>;
    try {
      response = await fetcher.open(new URL(current), {
        method: 'GET',
        headers: {
          'user-agent': limits.userAgent,
          accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
          'accept-encoding': ACCEPT_ENCODING,
          ...limits.headers,
        },
        timeoutMs: limits.timeoutMs,
        signal: deadline.signal,
      });
    } catch (error) {
      // Pages keep undici's words for other failures (link checks group them: link-checker.ts).
      const failure = fetchFailure(error, deadline);
      const reason =
        failure === 'timeout' || failure === 'blocked-address' || failure === 'aborted' ? failure : `network: ${(error as Error).message}`;
      return result({ finalUrl: current, error: reason, connectionLost: !deadline.signal.aborted && lostConnection(error) });
    }
    ttfbMs = Math.round(performance.now() - started);
    const headers = flatHeaders(response.headers);
    const status = response.statusCode;
    const location = headers.location;
    if (status >= 300 && status < 400 && location) {
      await discard(response.body);
      if (limits.followRedirects === false) {
        const next = normalizeUrl(location, current);
        return result({ finalUrl: next ?? current, status, headers, error: next === null ? 'invalid-redirect' : null });
      }
      redirects.push({ url: current, status });
      const next = normalizeUrl(location, current);
      if (next === null) return result({ finalUrl: current, status, headers, error: 'invalid-redirect' });
      if (seen.has(next)) return result({ finalUrl: next, status, headers, error: 'loop' });
      if (redirects.length > limits.maxRedirects) return result({ finalUrl: next, status, headers, error: 'too-many-redirects' });
      seen.add(next);
      current = next;
      continue;
    }

    const contentType = headers['content-type'] ?? null;
    const retry = status === 429 || status === 503 ? retryAfter(headers['retry-after']) : null;
    if (!contentType || !(limits.readBodies ?? HTML_TYPES).test(contentType)) {
      // Not a page: its status and headers are all an audit needs, so the body is not read.
      await discard(response.body);
      return result({
        finalUrl: current,
        status,
        headers,
        contentType,
        retryAfterSeconds: retry,
        bytes: Number(headers['content-length'] ?? 0),
      });
    }
    const chunks: Buffer[] = [];
    // The limit bounds the decoded size, so a small compressed body cannot expand without bound.
    let decoded = 0;
    let truncated = false;
    const transferred = { bytes: 0 };
    try {
      for await (const buffer of decodedBody(response.body, headers['content-encoding'], transferred)) {
        if (decoded + buffer.length > limits.maxBodyBytes) {
          chunks.push(buffer.subarray(0, limits.maxBodyBytes - decoded));
          decoded = limits.maxBodyBytes;
          truncated = true;
          await discard(response.body);
          break;
        }
        chunks.push(buffer);
        decoded += buffer.length;
      }
    } catch (error) {
      // A body that does not arrive in time is no answer, as in Screaming Frog's "Connection
      // Timeout": no status, and the page is not analysed on the part that came.
      const failure = fetchFailure(error, deadline);
      if (failure === 'timeout' || failure === 'aborted') return result({ finalUrl: current, error: failure });
      return result({ finalUrl: current, status, headers, contentType, error: `body: ${(error as Error).message}` });
    }
    return result({
      finalUrl: current,
      status,
      headers,
      contentType,
      html: Buffer.concat(chunks).toString('utf8'),
      bytes: transferred.bytes,
      truncated,
      retryAfterSeconds: retry,
    });
  }
}

/** Drops the rest of a body without reading it; undici then closes or reuses the connection. */
async function discard(body: { dump(options?: { limit?: number }): Promise<void> }): Promise<void> {
  await body.dump({ limit: 0 }).catch(() => undefined);
}
