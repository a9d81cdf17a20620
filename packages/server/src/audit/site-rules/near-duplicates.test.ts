import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlPage } from '../page-rules/test-page.ts';
import { summarizePage } from '../page-summary.ts';
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

describe('near and exact duplicates of real pages', () => {
  /** Words drawn from a seed, so two seeds give unrelated texts. */
  const prose = (count: number, seed: number) => Array.from({ length: count }, (_, i) => `w${(i * seed) % 997}`).join(' ');
  const summarized = (id: string, html: string) => {
    const page = htmlPage(`<!doctype html><html lang="en"><head><title>${id}</title></head><body>${html}</body></html>`, {
      url: `https://example.com/${id}`,
    });
    return summarizePage({ ...page, facts: page.facts! });
  };
  const simhashed = (id: string, html: string): SimhashedPage[] => {
    const { simhash, textHash } = summarized(id, html);
    return simhash === null ? [] : [{ id, url: `https://example.com/${id}`, simhash, textHash }];
  };
  const menu = `<nav>${prose(400, 3)}</nav><div id="sidebar">${prose(200, 5)}</div>`;

  it('are not pages that share a long menu but not their content', () => {
    const short = [summarized('a', `${menu}<main>${prose(30, 7)}</main>`), summarized('b', `${menu}<main>${prose(30, 11)}</main>`)];
    assert.deepEqual(
      short.map((page) => [page.summary.wordCount, page.simhash]),
      [
        [30, null],
        [30, null],
      ],
    );
    assert.notEqual(short[0]?.textHash, short[1]?.textHash);
    const long = [...simhashed('a', `${menu}<main>${prose(150, 7)}</main>`), ...simhashed('b', `${menu}<main>${prose(150, 11)}</main>`)];
    assert.equal(long.length, 2);
    assert.equal(findNearDuplicates(long).size, 0);
  });

  // SimHash moves a few bits for one word more; this text is one it moves by 2.
  it('are the same content under different menus, and a copy of it with a word more', () => {
    const content = prose(300, 17);
    const a = summarized('a', `<header>${prose(50, 3)}</header><main>${content}</main>`);
    const b = summarized('b', `<header>${prose(80, 13)}</header><main>${content}</main>`);
    assert.equal(a.textHash, b.textHash);
    const pages = [
      ...simhashed('a', `<header>${prose(50, 3)}</header><main>${content}</main>`),
      ...simhashed('c', `<div class="navheader">${prose(80, 13)}</div>${content} Updated.`),
    ];
    assert.equal(findNearDuplicates(pages).get('a')?.count, 1);
  });
});
