import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PreparedPage } from './prepared-page.ts';

describe('prepared pages', () => {
  it('hold the JSON of their items in UTF-8, and the next cursor', () => {
    const items = [{ url: 'https://shop.example/a', snippet: '…a <mark>lämp</mark> 😀', score: 0.5 }];
    const page = PreparedPage.of({ items, nextCursor: 'c1' });
    assert.equal(page.itemsJson.toString('utf8'), JSON.stringify(items));
    assert.equal(page.itemsJson.byteLength, Buffer.byteLength(JSON.stringify(items)));
    assert.deepEqual(page.parsedItems(), items);
    assert.equal(page.nextCursor, 'c1');
    assert.equal(PreparedPage.of({ items: [], nextCursor: null }).itemsJson.toString(), '[]');
  });

  it('hold their bytes in a buffer of their own, not a slice of a shared pool a kept page would keep whole', () => {
    const page = PreparedPage.of({ items: [{ a: 1 }], nextCursor: null });
    assert.equal(page.itemsJson.buffer.byteLength, page.itemsJson.byteLength);
  });
});
