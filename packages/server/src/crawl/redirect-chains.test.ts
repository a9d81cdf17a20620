import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brokenChains, type RedirectHop } from './redirect-chains.ts';

/** A chain of `length` redirects: c0 → c1 → … → c<length>, the last a page. */
const chain = (length: number): RedirectHop[] => Array.from({ length }, (_, n) => ({ key: `c${n}`, nextKey: `c${n + 1}` }));

describe('redirect chains that lead nowhere', () => {
  it('finds none among no redirects, or one to a page', () => {
    assert.deepEqual(brokenChains([], 10), new Map());
    assert.deepEqual(brokenChains(chain(1), 10), new Map());
  });

  it('takes a redirect to itself, a loop of two, and a chain into a loop as loops', () => {
    assert.deepEqual(brokenChains([{ key: 'a', nextKey: 'a' }], 10), new Map([['a', 'loop']]));
    const hops = [
      { key: 'a', nextKey: 'b' },
      { key: 'b', nextKey: 'a' },
      { key: 'c', nextKey: 'a' },
    ];
    assert.deepEqual(
      brokenChains(hops, 10),
      new Map([
        ['a', 'loop'],
        ['b', 'loop'],
        ['c', 'loop'],
      ]),
    );
  });

  it('follows as many redirects as the page fetcher, and says too many past them', () => {
    assert.deepEqual(brokenChains(chain(10), 10).get('c0'), undefined);
    assert.equal(brokenChains(chain(11), 10).get('c0'), 'too-many-redirects');
    // From its second hop on, the same chain is short enough.
    assert.equal(brokenChains(chain(11), 10).get('c1'), undefined);
    assert.equal(brokenChains(chain(11), 10).size, 1);
  });

  it('leaves a chain to a URL the crawl did not fetch alone', () => {
    assert.deepEqual(
      brokenChains(
        [
          { key: 'a', nextKey: 'b' },
          { key: 'b', nextKey: 'not fetched' },
        ],
        10,
      ),
      new Map(),
    );
  });
});
