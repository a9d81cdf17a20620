import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantPage } from './test-page.ts';

function descriptionOf(length: number): string {
  return 'd'.repeat(length);
}

describe('descriptions/missing', () => {
  it('fires without a meta description', () => {
    assert.deepEqual(check('descriptions/missing', compliantPage({ description: null })), {
      count: 1,
      samples: ['no <meta name="description">'],
    });
  });
  it('fires on an empty one', () => {
    assert.equal(check('descriptions/missing', compliantPage({ description: ' ' }))?.detail, 'the description is empty');
  });
  it('does not fire on a page with a description', () => {
    assert.equal(check('descriptions/missing', compliantPage()), null);
  });
});

describe('descriptions/too-short', () => {
  it('fires at 69 code points', () => {
    assert.equal(check('descriptions/too-short', compliantPage({ description: descriptionOf(69) }))?.detail, '69 characters');
  });
  it('does not fire at 70, or on an empty description', () => {
    assert.equal(check('descriptions/too-short', compliantPage({ description: descriptionOf(70) })), null);
    assert.equal(check('descriptions/too-short', compliantPage({ description: '' })), null);
  });
});

describe('descriptions/too-long', () => {
  it('does not fire at 160 code points', () => {
    assert.equal(check('descriptions/too-long', compliantPage({ description: descriptionOf(160) })), null);
  });
  it('fires at 161', () => {
    assert.equal(check('descriptions/too-long', compliantPage({ description: descriptionOf(161) }))?.detail, '161 characters');
  });
});

describe('descriptions/multiple', () => {
  it('fires on two meta descriptions', () => {
    const page = compliantPage({ head: '<meta name="description" content="Another summary">' });
    assert.equal(check('descriptions/multiple', page)?.count, 2);
    assert.equal(check('descriptions/multiple', page)?.detail, '2 descriptions');
  });
  it('does not fire on one', () => {
    assert.equal(check('descriptions/multiple', compliantPage()), null);
  });
});
