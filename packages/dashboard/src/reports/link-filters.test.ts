import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isFiltered, linkFilterParams, linkFiltersFrom } from './link-filters.ts';

describe("the links view's filters in the address", () => {
  it('reads every filter the API takes, and writes the same address back', () => {
    const address = 'target=external&kind=image&status=broken&reason=no-such-host';
    const filters = linkFiltersFrom(new URLSearchParams(address));
    assert.deepEqual(filters, { target: 'external', kind: 'image', statusClass: 'broken', reason: 'no-such-host' });
    assert.equal(linkFilterParams(filters).toString(), address);
    assert.equal(isFiltered(filters), true);
  });

  it('leaves out a value the API would refuse, and an empty one', () => {
    const filters = linkFiltersFrom(new URLSearchParams('target=everywhere&kind=&status=6xx&reason=No%20such%20host&other=1'));
    assert.deepEqual(filters, { target: undefined, kind: undefined, statusClass: undefined, reason: undefined });
    assert.equal(isFiltered(filters), false);
    assert.equal(linkFilterParams(filters).toString(), '');
  });

  it('keeps one filter alone', () => {
    assert.equal(linkFilterParams(linkFiltersFrom(new URLSearchParams('status=not-checked'))).toString(), 'status=not-checked');
  });
});
