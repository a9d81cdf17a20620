import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listTally } from './list-tally.ts';

describe('the tally of a list read page by page', () => {
  const tally = (index: number, shown: number, hasNext: boolean) => listTally({ index, pageSize: 50, shown, hasNext }, 'link', 'links');

  it('counts a list that fits on one page', () => {
    assert.equal(tally(0, 0, false), '0 links');
    assert.equal(tally(0, 1, false), '1 link');
    assert.equal(tally(0, 50, false), '50 links');
  });

  it('gives no total while more pages follow, only where this page stands', () => {
    assert.equal(tally(0, 50, true), 'Links 1–50 shown, more follow');
    assert.equal(tally(1, 50, true), 'Links 51–100 shown, more follow');
  });

  it('counts the whole list on its last page', () => {
    assert.equal(tally(1, 1, false), '51 links (51–51 shown)');
    assert.equal(tally(20, 50, false), '1,050 links (1,001–1,050 shown)');
  });
});
