export { createClient, type ClientOptions, type LoupeClient } from './client.ts';
export { LoupeError } from '@loupe/contract';
