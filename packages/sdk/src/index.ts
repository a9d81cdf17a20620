export { createClient, type ClientOptions, type LoupeClient } from './client.ts';
export { cdnUrl, type CdnUrlOptions } from './cdn-url.ts';
export { LoupeError } from '@loupe/contract';
