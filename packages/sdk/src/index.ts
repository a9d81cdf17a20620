export { createClient, type ClientOptions } from './client.ts';
export type {
  AllPagesMethod,
  AnswerOf,
  CallOptions,
  ClientAnswer,
  ClientMethod,
  ClientRequest,
  EventStream,
  FileUpload,
  LoupeClient,
  Page,
  PageMethod,
  PagedOperationId,
  RequestOf,
} from './client-types.ts';
export type { RetryNotice } from './transport.ts';
export { MAX_RETRY_DELAY_MS, BACKOFF_BASE_MS } from './retry-delay.ts';
export { isLoupeError } from './is-loupe-error.ts';
export { errorFromResponse } from './error-from-response.ts';
export { cdnUrl, type CdnUrlOptions } from './cdn-url.ts';
export { LoupeError, type ErrorCode, type ValidationDetails } from '@loupe/contract';
