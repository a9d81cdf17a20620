import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantPage, GOOD_HEADERS } from './test-page.ts';

const CRAWLED_IN_2025 = { ...GOOD_HEADERS, date: 'Wed, 01 Jan 2025 12:00:00 GMT' };

describe('indexability/noindex', () => {
  it('fires on meta robots noindex and on googlebot none, naming the source', () => {
    assert.deepEqual(check('indexability/noindex', compliantPage({ head: '<meta name="robots" content="noindex, follow">' })), {
      count: 1,
      samples: ['meta robots: noindex'],
      detail: 'meta robots: noindex',
    });
    assert.equal(
      check('indexability/noindex', compliantPage({ head: '<meta name="googlebot" content="none">' }))?.detail,
      'meta robots: none',
    );
  });
  it('fires on an X-Robots-Tag header', () => {
    const page = compliantPage({}, { headers: { ...GOOD_HEADERS, 'x-robots-tag': 'noindex' } });
    assert.equal(check('indexability/noindex', page)?.detail, 'X-Robots-Tag: noindex');
  });
  it('fires when unavailable_after has passed at the time of the crawl', () => {
    const page = compliantPage({ head: '<meta name="robots" content="unavailable_after: 2024-06-30">' }, { headers: CRAWLED_IN_2025 });
    assert.equal(check('indexability/noindex', page)?.detail, 'unavailable_after: 2024-06-30 (passed)');
  });
  it('does not fire for an unavailable_after still to come, or one it cannot read', () => {
    const future = compliantPage({ head: '<meta name="robots" content="unavailable_after: 2025-06-30">' }, { headers: CRAWLED_IN_2025 });
    assert.equal(check('indexability/noindex', future), null);
    const unreadable = compliantPage({ head: '<meta name="robots" content="unavailable_after: someday">' }, { headers: CRAWLED_IN_2025 });
    assert.equal(check('indexability/noindex', unreadable), null);
  });
  it("does not fire for nofollow alone, for another crawler's header, or on a plain page", () => {
    assert.equal(check('indexability/noindex', compliantPage({ head: '<meta name="robots" content="nofollow">' })), null);
    const otherBot = compliantPage({}, { headers: { ...GOOD_HEADERS, 'x-robots-tag': 'otherbot: noindex' } });
    assert.equal(check('indexability/noindex', otherBot), null);
    assert.equal(check('indexability/noindex', compliantPage()), null);
  });
});

describe('indexability/nosnippet', () => {
  it('fires on nosnippet and on max-snippet:0', () => {
    assert.equal(check('indexability/nosnippet', compliantPage({ head: '<meta name="robots" content="nosnippet">' }))?.detail, 'nosnippet');
    assert.equal(
      check('indexability/nosnippet', compliantPage({ head: '<meta name="robots" content="max-snippet:0">' }))?.detail,
      'max-snippet:0',
    );
  });
  it('does not fire on a positive max-snippet', () => {
    assert.equal(check('indexability/nosnippet', compliantPage({ head: '<meta name="robots" content="max-snippet:50">' })), null);
  });
});

describe('indexability/meta-in-body', () => {
  it('fires on a meta tag after the head ended', () => {
    const page = compliantPage({ extraBody: '<meta name="robots" content="noindex">' });
    assert.deepEqual(check('indexability/meta-in-body', page), { count: 1, samples: ['meta[name=robots]'], detail: '1 in the body' });
  });
  it('does not fire when every meta tag is in the head', () => {
    assert.equal(check('indexability/meta-in-body', compliantPage()), null);
  });
});
