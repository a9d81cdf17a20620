import { LoupeError, type OperationDefinition } from '@loupe/contract';
import type { CallOptions, FileUpload } from './client-types.ts';
import { errorFromResponse } from './error-from-response.ts';
import { retryDelay } from './retry-delay.ts';

/** Told before each retry, e.g. to show "rate limited, retrying in 2 s". */
export interface RetryNotice {
  operationId: string;
  /** 429 or 503. */
  status: number;
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  workspaceId?: string;
  fetch: typeof fetch;
  headers: Record<string, string>;
  retries: number;
  onRetry?: (retry: RetryNotice) => void;
}

/** Only these say "not now" without having acted on the request, so any method may be sent again. */
const RETRYABLE_STATUSES = new Set([429, 503]);

/** The part that carries the file (`OperationDefinition.upload` in the contract). */
const FILE_PART = 'file';

export interface Transport {
  /**
   * Sends one operation and answers its successful response; a failure (after the retries
   * on 429/503) throws a LoupeError. `search` replaces the query, to follow a `next` link.
   */
  send(operation: OperationDefinition, request: Record<string, unknown>, call?: CallOptions, search?: string): Promise<Response>;
}

export function createTransport(options: TransportOptions): Transport {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  return {
    async send(operation, request, call = {}, search) {
      const url = new URL(baseUrl + fillPath(operation.path, request));
      if (search !== undefined) url.search = search;
      else for (const [key, value] of queryEntries(operation, request)) url.searchParams.set(key, value);
      const headers = requestHeaders(operation, options);
      const upload = operation.upload ? (request.upload as FileUpload<Record<string, unknown>> | undefined) : undefined;
      const json = !upload && operation.body !== undefined && request.body !== undefined;
      if (json) headers['content-type'] = 'application/json';

      for (let attempt = 0; ; attempt++) {
        // Built for every attempt: a sent body cannot be sent twice.
        const body = upload ? multipartBody(upload) : json ? JSON.stringify(request.body) : undefined;
        const response = await options.fetch(url, { method: operation.method, headers, body, signal: call.signal });
        if (response.ok) return response;
        const delayMs =
          RETRYABLE_STATUSES.has(response.status) && attempt < options.retries
            ? retryDelay(response.headers.get('retry-after'), attempt)
            : undefined;
        if (delayMs === undefined) throw await errorFromResponse(response);
        await response.body?.cancel();
        options.onRetry?.({ operationId: operation.id, status: response.status, attempt: attempt + 1, delayMs });
        await wait(delayMs, call.signal);
      }
    },
  };
}

function fillPath(path: string, request: Record<string, unknown>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = request[name];
    if (value === undefined || value === null || value === '') {
      throw new LoupeError('validation_failed', { details: { fieldErrors: { [name]: ['Required.'] }, formErrors: [] } });
    }
    return encodeURIComponent(String(value));
  });
}

function* queryEntries(operation: OperationDefinition, request: Record<string, unknown>): Generator<[string, string]> {
  const keys = [...Object.keys(operation.query?.shape ?? {}), ...(operation.paged ? ['limit', 'cursor'] : [])];
  for (const key of keys) {
    const value = request[key];
    if (value !== undefined && value !== null) yield [key, value instanceof Date ? value.toISOString() : String(value)];
  }
}

function requestHeaders(operation: OperationDefinition, options: TransportOptions): Record<string, string> {
  const headers: Record<string, string> = { ...options.headers };
  if (operation.stream) headers.accept = 'text/event-stream';
  if (options.apiKey && !operation.public) headers.authorization = `Bearer ${options.apiKey}`;
  if (operation.api === 'workspace' && operation.teamHeader !== false && options.workspaceId) {
    headers['x-service-team'] = options.workspaceId;
  }
  return headers;
}

function multipartBody(upload: FileUpload<Record<string, unknown>>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields ?? {})) {
    if (value !== undefined && value !== null) form.append(name, String(value));
  }
  const file = upload.file;
  const type = upload.contentType ?? (file instanceof Blob && file.type ? file.type : 'application/octet-stream');
  // A Uint8Array over a SharedArrayBuffer cannot go into a Blob as it is.
  const part = file instanceof Blob ? file : file.buffer instanceof ArrayBuffer ? (file as Uint8Array<ArrayBuffer>) : new Uint8Array(file);
  form.append(FILE_PART, new Blob([part], { type }), upload.filename);
  return form;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
