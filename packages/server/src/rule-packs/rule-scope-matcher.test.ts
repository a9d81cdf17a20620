import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RuleScope } from '@loupe/contract';
import { outcome, subject } from './test-rules.ts';

const ALWAYS = { type: 'status' as const, in: [200, 301, 404, 500] };
const inScope = (scope: Partial<RuleScope>, on = subject()) => outcome(ALWAYS, on, { scope }) !== 'out-of-scope';

describe('rule scope', () => {
  it('takes every 2xx HTML URL by default', () => {
    assert.equal(inScope({}), true);
    assert.equal(inScope({}, subject({ status: 404 })), false);
    assert.equal(inScope({}, subject({ status: 301 })), false);
    assert.equal(inScope({}, subject({ contentType: 'image/png' })), false);
  });

  it('filters by path with include and exclude globs, exclude winning', () => {
    const on = subject({ url: 'https://example.test/docs/intro' });
    assert.equal(inScope({ include: ['/docs/**'] }, on), true);
    assert.equal(inScope({ include: ['/blog/**'] }, on), false);
    assert.equal(inScope({ include: ['/docs/**'], exclude: ['/docs/intro'] }, on), false);
    assert.equal(inScope({ include: [] }, on), true);
    assert.equal(inScope({ include: ['/search?q=*'] }, subject({ url: 'https://example.test/search?q=shoes' })), true);
  });

  it('filters by status class, any, and failed', () => {
    assert.equal(inScope({ statuses: ['4xx'] }, subject({ status: 404 })), true);
    assert.equal(inScope({ statuses: ['3xx', '5xx'] }, subject({ status: 404 })), false);
    assert.equal(inScope({ statuses: ['any'] }, subject({ status: 500 })), true);
    const failed = subject({ status: null, contentType: null, html: null, visibleText: null, title: null });
    assert.equal(inScope({ statuses: ['failed'] }, failed), true);
    assert.equal(inScope({ statuses: ['2xx'] }, failed), false);
  });

  it('filters by media type, with wildcards, ignoring parameters and case; an answer without one passes', () => {
    const png = subject({ contentType: 'Image/PNG' });
    assert.equal(inScope({ contentTypes: ['image/png'] }, png), true);
    assert.equal(inScope({ contentTypes: ['image/*'] }, png), true);
    assert.equal(inScope({ contentTypes: ['*/*'] }, png), true);
    assert.equal(inScope({ contentTypes: ['text/*'] }, png), false);
    assert.equal(inScope({}, subject({ contentType: null })), true);
  });

  it('filters by host, *. covering subdomains only', () => {
    const on = subject({ url: 'https://shop.example.test/' });
    assert.equal(inScope({ hosts: ['shop.example.test'] }, on), true);
    assert.equal(inScope({ hosts: ['SHOP.example.test.'] }, on), true);
    assert.equal(inScope({ hosts: ['*.example.test'] }, on), true);
    assert.equal(inScope({ hosts: ['*.example.test'] }, subject({ url: 'https://example.test/' })), false);
    assert.equal(inScope({ hosts: ['example.test'] }, on), false);
  });

  it('keeps non-indexable URLs out when indexableOnly', () => {
    assert.equal(inScope({ indexableOnly: true }, subject({ indexable: false })), false);
    assert.equal(inScope({ indexableOnly: true }, subject({ indexable: true })), true);
    assert.equal(inScope({ indexableOnly: false }, subject({ indexable: false })), true);
  });
});
