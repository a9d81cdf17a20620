import { lookup as dnsLookup } from 'node:dns';
import { Agent, type Dispatcher, request } from 'undici';
import { assertPublicHost, guardedLookup, type Resolve } from './address-guard.ts';
import { cachingResolve } from './dns-cache.ts';

export class ResponseTooLargeError extends Error {
  constructor(limit: number) {
    super(`The response is larger than ${limit} bytes.`);
    this.name = 'ResponseTooLargeError';
  }
}

export class TooManyRedirectsError extends Error {
  constructor(limit: number) {
    super(`More than ${limit} redirects.`);
    this.name = 'TooManyRedirectsError';
  }
}

export interface GuardedFetcherOptions {
  allowPrivate: boolean;
  /** Connections per origin at most. */
  connections?: number;
  /**
   * Replaces `dns.lookup` (tests); the guard checks whatever it answers, at connect time.
   */
  lookup?: Resolve;
  /**
   * Replaces the certificate authorities TLS trusts (tests: a local https site's self-signed
   * certificate); left unset, as the service leaves it, Node's bundled ones apply.
   */
  ca?: string | Buffer;
}

export interface GuardedFetchOptions {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
  /** Ends the fetch, hops and body alike, when it aborts (a deadline for the whole). */
  signal?: AbortSignal;
}

export interface FetchedResource {
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Every URL before the final one, in order. */
  redirects: string[];
}

/**
 * Outbound HTTP for user-supplied addresses (image import now, the crawler later). Unless
 * private targets are allowed, every connection resolves its host once, inside the socket's
 * own lookup, and is refused if any address is not public (address-guard.ts); literal IPs,
 * which sockets never look up, are checked before the request. Redirects are followed by
 * hand so each hop is checked again.
 */
export class GuardedFetcher {
  readonly #agent: Agent;
  readonly #allowPrivate: boolean;
  readonly #options: GuardedFetcherOptions;

  constructor(options: GuardedFetcherOptions) {
    this.#options = options;
    this.#allowPrivate = options.allowPrivate;
    this.#agent = new Agent({
      connections: options.connections ?? 16,
      connect: { lookup: guardedLookup(options.lookup, options.allowPrivate), ...(options.ca === undefined ? {} : { ca: options.ca }) },
    });
  }

  /**
   * A fetcher of its own (connections included) for one crawl, whose names are resolved once
   * each for its life, failures included (dns-cache.ts). Close it when the crawl ends.
   */
  withDnsCache(): GuardedFetcher {
    return new GuardedFetcher({ ...this.#options, lookup: cachingResolve(this.#options.lookup ?? dnsLookup) });
  }

  async fetch(url: string, options: GuardedFetchOptions): Promise<FetchedResource> {
    const maxRedirects = options.maxRedirects ?? 5;
    const redirects: string[] = [];
    let current = new URL(url);
    for (;;) {
      if (!this.#allowPrivate) assertPublicHost(current.hostname);
      const asked = request(current, {
        dispatcher: this.#agent,
        method: 'GET',
        headers: options.headers,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        signal: options.signal,
      });
      const response = await (options.signal ? settledByAbort(asked, options.signal) : asked);
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
        await response.body.dump();
        if (redirects.length >= maxRedirects) throw new TooManyRedirectsError(maxRedirects);
        redirects.push(current.href);
        current = new URL(location, current);
        continue;
      }
      return {
        url: current.href,
        status: response.statusCode,
        headers: response.headers,
        body: await readLimited(response.body, options.maxBytes),
        redirects,
      };
    }
  }

  /**
   * One request, redirects not followed, through the same guard: the crawler follows them
   * itself to record each hop, and an alert webhook POSTs its body to exactly the URL given.
   * The caller must consume or destroy the body.
   */
  async open(
    url: URL,
    options: { method: 'GET' | 'HEAD' | 'POST'; headers?: Record<string, string>; body?: string; timeoutMs: number; signal?: AbortSignal },
  ): Promise<Dispatcher.ResponseData> {
    if (!this.#allowPrivate) assertPublicHost(url.hostname);
    const answer = request(url, {
      dispatcher: this.#agent,
      method: options.method,
      headers: options.headers,
      body: options.body,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: options.signal,
    });
    return options.signal ? settledByAbort(answer, options.signal) : answer;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }

  /** Ends every connection now, those still connecting included (close would wait for them). */
  destroy(): Promise<void> {
    return this.#agent.destroy();
  }
}

/**
 * The answer, or the signal's abort at once: undici notices an abort only once the request
 * has a connection, so a request waiting on a TLS handshake that never comes would hold its
 * caller until the connect timeout (undici issue 386). An answer that comes after the abort
 * has its body destroyed.
 */
function settledByAbort(answer: Promise<Dispatcher.ResponseData>, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  if (signal.aborted) {
    void answer.then(
      (late) => late.body.destroy(),
      () => undefined,
    );
    return Promise.reject(signal.reason);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      void answer.then(
        (late) => late.body.destroy(),
        () => undefined,
      );
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(
      (response) => {
        signal.removeEventListener('abort', onAbort);
        resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

async function readLimited(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      body.destroy();
      throw new ResponseTooLargeError(maxBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
