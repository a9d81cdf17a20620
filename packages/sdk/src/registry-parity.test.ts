import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type OperationId, operations } from '@loupe/contract';
import { createClient, type LoupeClient, type PagedOperationId } from './index.ts';

/** Fails to compile unless A and B are the same set of names. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const methodsMatchOperations: Same<Exclude<keyof LoupeClient, 'all' | 'page'>, OperationId> = true;
type PagedIds = (typeof operations)[number] extends infer O ? (O extends { paged: true; id: infer I } ? I : never) : never;
const allMatchesPagedOperations: Same<keyof LoupeClient['all'], PagedIds> = true;
const pageMatchesPagedOperations: Same<keyof LoupeClient['page'], PagedIds> = true;

/**
 * Request and answer types, checked by `npm run typecheck` (never called): each
 * `@ts-expect-error` fails the typecheck if the line it marks ever compiles.
 */
export async function requestTypes(loupe: LoupeClient): Promise<void> {
  await loupe.getCredits();
  await loupe.listImageProjects();
  // @ts-expect-error -- path parameters are required
  await loupe.getImageProject();
  // @ts-expect-error -- and typed
  await loupe.getImageProject({ projectId: 1 });
  // @ts-expect-error -- a body is checked against the operation's schema
  await loupe.createPreset({ projectId: 'p', body: { name: 'thumb', transforms: { width: 'wide' } } });
  const file = new Uint8Array();
  await loupe.uploadImage({ projectId: 'p', upload: { file, filename: 'a.png', fields: { path: 'a.png' } } });
  await loupe.uploadImage({ projectId: 'p', body: { url: 'https://example.com/a.png' } });
  // @ts-expect-error -- an upload takes a file or a URL to import, not both
  await loupe.uploadImage({ projectId: 'p', body: { url: 'https://example.com/a.png' }, upload: { file, filename: 'a.png' } });
  // @ts-expect-error -- only upload operations take an upload
  await loupe.createImageProject({ body: { name: 'x' }, upload: { file, filename: 'a.png' } });
  const project: { slug: string } = await loupe.getImageProject({ projectId: 'p' });
  const page: { path: string }[] = await loupe.listImages({ projectId: 'p', prefix: 'a/' });
  for await (const event of loupe.streamCrawlEvents({ crawlId: 'c' })) if (event.type === 'progress') event.pagesCrawled satisfies number;
  for await (const event of await loupe.streamCrawlEvents({ crawlId: 'c' })) event.type satisfies 'status' | 'progress';
  for await (const image of loupe.all.listImages({ projectId: 'p' })) image.path satisfies string;
  // @ts-expect-error -- client.all has only the paged operations
  loupe.all.getImageProject({ projectId: 'p' });
  const first = await loupe.page.listImages({ projectId: 'p', limit: 10 });
  first.items[0]?.path satisfies string | undefined;
  if (first.nextCursor !== null) await loupe.page.listImages({ projectId: 'p', cursor: first.nextCursor });
  void [project, page];
}

describe('registry ↔ SDK parity', () => {
  const client = createClient({ baseUrl: 'http://127.0.0.1:9', fetch: () => Promise.reject(new Error('no requests here')) });
  const { all, page, ...methods } = client;

  it('has one method per registry operation, and no other', () => {
    assert.deepEqual(Object.keys(methods).sort(), operations.map((operation) => operation.id).sort());
    for (const method of Object.values(methods)) assert.equal(typeof method, 'function');
  });

  it('has client.all.<id> exactly for the paged operations', () => {
    const paged: PagedOperationId[] = operations.flatMap((operation) => ('paged' in operation && operation.paged ? [operation.id] : []));
    assert.ok(paged.length > 0);
    assert.deepEqual(Object.keys(all).sort(), paged.sort());
    for (const method of Object.values(all)) assert.equal(typeof method, 'function');
  });

  it('has client.page.<id> exactly for the paged operations', () => {
    assert.deepEqual(Object.keys(page).sort(), Object.keys(all).sort());
    for (const method of Object.values(page)) assert.equal(typeof method, 'function');
  });

  it('is checked by the compiler as well', () => {
    assert.equal(methodsMatchOperations && allMatchesPagedOperations && pageMatchesPagedOperations, true);
  });
});
