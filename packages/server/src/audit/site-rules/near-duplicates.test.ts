import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findNearDuplicates, type SimhashedPage } from './near-duplicates.ts';

const page = (id: string, simhash: bigint, textHash: string | null = id): SimhashedPage => ({
  id,
  url: `https://example.com/${id}`,
  simhash: simhash.toString(16).padStart(16, '0'),
  textHash,
});

describe('findNearDuplicates', () => {
  const base = 0x0123456789abcdefn;

  it('pairs pages within 3 bits, wherever the bits differ, and not at 4', () => {
    // Three bits apart, one in each of three bands: only the fourth band is shared.
    const three = base ^ (1n << 3n) ^ (1n << 20n) ^ (1n << 40n);
    // Four bits apart, one in each band: no band is shared, and they are too far anyway.
    const four = base ^ (1n << 3n) ^ (1n << 20n) ^ (1n << 40n) ^ (1n << 60n);
    const found = findNearDuplicates([page('a', base), page('b', three), page('c', four)]);
    assert.deepEqual(found.get('a'), { count: 1, urls: ['https://example.com/b'], closest: 3 });
    assert.deepEqual(found.get('b'), { count: 2, urls: ['https://example.com/a', 'https://example.com/c'], closest: 1 });
    assert.equal(found.get('c')?.count, 1, 'c is one bit from b, four from a');
  });

  it('leaves exact duplicates to content/duplicate', () => {
    const found = findNearDuplicates([page('a', base, 'same'), page('b', base ^ 1n, 'same')]);
    assert.equal(found.size, 0);
  });

  it('finds nothing among distinct pages', () => {
    const found = findNearDuplicates([page('a', base), page('b', ~base & 0xffffffffffffffffn), page('c', 0n)]);
    assert.equal(found.size, 0);
  });
});
