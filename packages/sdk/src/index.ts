export { type ErrorCode, LoupeError, type ValidationDetails } from '@loupe/contract';
export { type CdnUrlOptions, cdnUrl } from './cdn-url.ts';
export { type ClientOptions, createClient } from './client.ts';
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
  PagedOperationId,
  PageMethod,
  RequestOf,
} from './client-types.ts';
export { errorFromResponse } from './error-from-response.ts';
export { type ImageSnippetOptions, imgSnippet, type PictureSnippetOptions, pictureSnippet } from './image-snippet.ts';
export { isLoupeError } from './is-loupe-error.ts';
export { type ResponsiveSources, type ResponsiveSourcesOptions, responsiveSources } from './responsive-sources.ts';
export { BACKOFF_BASE_MS, MAX_RETRY_DELAY_MS } from './retry-delay.ts';
export type { RetryNotice } from './transport.ts';
