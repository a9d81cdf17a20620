import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextLink } from './link-header.ts';

describe('nextLink', () => {
  it('answers the target of rel="next"', () => {
    assert.equal(nextLink('</api/v1/reports?limit=2&cursor=abc>; rel="next"'), '/api/v1/reports?limit=2&cursor=abc');
  });

  it('finds it among other links and parameters, rel unquoted or with several relations', () => {
    assert.equal(nextLink('</p1>; rel="prev", </p3>; title="Next"; rel="next last"'), '/p3');
    assert.equal(nextLink('<https://x.test/p2>;rel=next'), 'https://x.test/p2');
  });

  it('is undefined on the last page', () => {
    assert.equal(nextLink(null), undefined);
    assert.equal(nextLink(''), undefined);
    assert.equal(nextLink('</p1>; rel="prev"'), undefined);
  });
});
