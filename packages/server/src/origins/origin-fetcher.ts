import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { LoupeError } from '@loupe/contract';
import { isMissingObject } from '../blobs/s3-blob-store.ts';
import { BlockedAddressError, guardedLookup, type Resolve } from '../outbound/address-guard.ts';
import type { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { readAtMost } from '../outbound/read-at-most.ts';
import { originAddressProblem } from './origin-address.ts';
import type { StoredOrigin } from './origin-config.ts';

export interface OriginFetchLimits {
  /** The largest original accepted (LOUPE_MAX_UPLOAD_BYTES). */
  maxBytes: number;
  /** The whole fetch, redirects and body included. */
  timeoutSeconds: number;
}

/** The origin's answer: the file, or that it has none at this path. */
export type OriginAnswer = { found: true; data: Buffer } | { found: false };

/** Hops an origin may redirect through, on its own host only. */
const MAX_REDIRECTS = 3;
const USER_AGENT = 'LoupeOrigin/1.0';

const failed = (message: string) => new LoupeError('origin_failed', { message });
const tooLarge = (maxBytes: number) => failed(`The origin's file is over ${maxBytes} bytes, the largest original this server stores.`);

/**
 * `<base>/<path>` with each segment percent-encoded: an image path has no `.` or `..` segment
 * and no slash inside a segment (ImagePath), so the address never leaves the base; checked anyway.
 */
export function originUrl(baseUrl: string, path: string): URL {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const url = new URL(base + path.split('/').map(encodeURIComponent).join('/'));
  if (!url.href.startsWith(new URL(base).href)) throw failed('This path would leave the origin.');
  return url;
}

/**
 * Fetches one file from a project's origin (issue #26): over https under the address guard, or
 * from an S3-compatible bucket whose endpoint the guard checks too. Bounded in size and time.
 */
export class OriginFetcher {
  readonly #fetcher: GuardedFetcher;
  readonly #allowPrivate: boolean;
  readonly #resolve: Resolve | undefined;
  readonly #limits: OriginFetchLimits;

  constructor(options: { fetcher: GuardedFetcher; allowPrivate: boolean; resolve?: Resolve; limits: OriginFetchLimits }) {
    this.#fetcher = options.fetcher;
    this.#allowPrivate = options.allowPrivate;
    this.#resolve = options.resolve;
    this.#limits = options.limits;
  }

  async fetch(origin: StoredOrigin, path: string): Promise<OriginAnswer> {
    const address = origin.kind === 'https' ? origin.baseUrl : origin.endpoint;
    const problem = originAddressProblem(address, this.#allowPrivate);
    if (problem) throw failed(`The origin ${address} is refused: ${problem}`);
    const deadline = AbortSignal.timeout(this.#limits.timeoutSeconds * 1000);
    try {
      return origin.kind === 'https' ? await this.#fromHttps(origin.baseUrl, path, deadline) : await this.#fromS3(origin, path, deadline);
    } catch (error) {
      if (error instanceof LoupeError) throw error;
      if (error instanceof BlockedAddressError || (error as { cause?: unknown }).cause instanceof BlockedAddressError) {
        throw failed('The origin resolves to an address that is not public; Loupe does not fetch from it.');
      }
      if (deadline.aborted)
        throw new LoupeError('origin_timeout', { message: `The origin did not answer within ${this.#limits.timeoutSeconds} s.` });
      throw failed(`Could not fetch from the origin: ${(error as Error).message}`);
    }
  }

  async #fromHttps(baseUrl: string, path: string, signal: AbortSignal): Promise<OriginAnswer> {
    const base = new URL(baseUrl);
    let url = originUrl(baseUrl, path);
    for (let hops = 0; ; hops++) {
      const response = await this.#fetcher.open(url, {
        method: 'GET',
        headers: { accept: 'image/*', 'user-agent': USER_AGENT },
        timeoutMs: this.#limits.timeoutSeconds * 1000,
        signal,
      });
      const { statusCode, headers } = response;
      if (statusCode >= 300 && statusCode < 400 && typeof headers.location === 'string') {
        await response.body.dump();
        const next = new URL(headers.location, url);
        // The origin is the project's own site: a hop elsewhere (another host, a metadata address) is not followed.
        if (next.origin !== base.origin)
          throw failed(`The origin redirected to another host (${next.origin}); only its own host is followed.`);
        if (hops === MAX_REDIRECTS) throw failed(`The origin redirected more than ${MAX_REDIRECTS} times.`);
        url = next;
        continue;
      }
      if (statusCode === 404 || statusCode === 410) {
        await response.body.dump();
        return { found: false };
      }
      if (statusCode < 200 || statusCode > 299) {
        await response.body.dump();
        throw failed(`The origin answered HTTP ${statusCode}.`);
      }
      if (Number(headers['content-length'] ?? 0) > this.#limits.maxBytes) {
        response.body.destroy();
        throw tooLarge(this.#limits.maxBytes);
      }
      const data = await readAtMost(response.body, this.#limits.maxBytes);
      if (data.length > this.#limits.maxBytes) throw tooLarge(this.#limits.maxBytes);
      return { found: true, data };
    }
  }

  async #fromS3(origin: Extract<StoredOrigin, { kind: 's3' }>, path: string, signal: AbortSignal): Promise<OriginAnswer> {
    // The SDK's own sockets resolve names through the guard, as the crawler's do.
    const lookup = guardedLookup(this.#resolve, this.#allowPrivate);
    const agents = { httpAgent: new HttpAgent({ lookup }), httpsAgent: new HttpsAgent({ lookup }) };
    const client = new S3Client({
      endpoint: origin.endpoint,
      region: origin.region,
      credentials: { accessKeyId: origin.accessKeyId, secretAccessKey: origin.secretAccessKey },
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 1,
      requestHandler: { ...agents, requestTimeout: this.#limits.timeoutSeconds * 1000 },
    });
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket: origin.bucket, Key: origin.prefix + path }), { abortSignal: signal });
      const body = answer.Body as Readable | undefined;
      if (!body) return { found: true, data: Buffer.alloc(0) };
      if ((answer.ContentLength ?? 0) > this.#limits.maxBytes) {
        body.destroy();
        throw tooLarge(this.#limits.maxBytes);
      }
      const data = await readAtMost(body as unknown as Parameters<typeof readAtMost>[0], this.#limits.maxBytes);
      if (data.length > this.#limits.maxBytes) throw tooLarge(this.#limits.maxBytes);
      return { found: true, data };
    } catch (error) {
      if (isMissingObject(error)) return { found: false };
      throw error;
    } finally {
      client.destroy();
      agents.httpAgent.destroy();
      agents.httpsAgent.destroy();
    }
  }
}
