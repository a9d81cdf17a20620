import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantPage, GOOD_HEADERS, ORIGIN, PAGE_URL } from './test-page.ts';

function withLinkHeader(value: string) {
  return { headers: { ...GOOD_HEADERS, link: value } };
}

describe('canonical/missing', () => {
  it('fires on an indexable page without a canonical', () => {
    assert.deepEqual(check('canonical/missing', compliantPage({ canonical: null })), { count: 1, samples: [PAGE_URL] });
  });
  it('fires when the only canonical is in the body, where it is ignored', () => {
    const page = compliantPage({ canonical: null, extraBody: `<link rel="canonical" href="${PAGE_URL}">` });
    assert.notEqual(check('canonical/missing', page), null);
  });
  it('does not fire with a canonical in the head or the Link header, or on a noindex page', () => {
    assert.equal(check('canonical/missing', compliantPage()), null);
    assert.equal(check('canonical/missing', compliantPage({ canonical: null }, withLinkHeader(`<${PAGE_URL}>; rel="canonical"`))), null);
    assert.equal(check('canonical/missing', compliantPage({ canonical: null, head: '<meta name="robots" content="noindex">' })), null);
  });
});

describe('canonical/multiple', () => {
  it('fires on two different canonical URLs in the head', () => {
    const page = compliantPage({ head: '<link rel="canonical" href="https://example.com/guides/">' });
    assert.deepEqual(check('canonical/multiple', page), {
      count: 2,
      samples: [PAGE_URL, 'https://example.com/guides/'],
      detail: '2 different canonical URLs',
    });
  });
  it('fires when the Link header and the head disagree', () => {
    assert.notEqual(check('canonical/multiple', compliantPage({}, withLinkHeader('<https://example.com/other>; rel=canonical'))), null);
  });
  it('does not fire when every declaration names the same URL', () => {
    assert.equal(check('canonical/multiple', compliantPage({ head: `<link rel="canonical" href="${PAGE_URL}">` })), null);
    assert.equal(check('canonical/multiple', compliantPage({}, withLinkHeader(`<${PAGE_URL}>; rel=canonical`))), null);
  });
});

describe('canonical/invalid', () => {
  it('fires on a relative canonical', () => {
    assert.deepEqual(check('canonical/invalid', compliantPage({ canonical: '/guides/brewing-tea' })), {
      count: 1,
      samples: ['/guides/brewing-tea'],
      detail: 'relative',
    });
  });
  it('fires on an empty one, a non-http one, and http:// from an https page', () => {
    assert.equal(check('canonical/invalid', compliantPage({ canonical: '' }))?.detail, 'empty');
    assert.equal(check('canonical/invalid', compliantPage({ canonical: 'ftp://example.com/x' }))?.detail, 'not an http(s) URL');
    assert.equal(
      check('canonical/invalid', compliantPage({ canonical: 'http://example.com/guides/brewing-tea' }))?.detail,
      'http:// on an https page',
    );
  });
  it('does not fire on an absolute https canonical', () => {
    assert.equal(check('canonical/invalid', compliantPage()), null);
  });
});

describe('canonical/header-mismatch', () => {
  it('fires when the Link header names another URL than the HTML', () => {
    const page = compliantPage({}, withLinkHeader('<https://example.com/other>; rel="canonical"'));
    assert.deepEqual(check('canonical/header-mismatch', page), {
      count: 1,
      samples: ['header: https://example.com/other', `html: ${PAGE_URL}`],
    });
  });
  it('does not fire when they agree after resolution, or when only one is given', () => {
    assert.equal(check('canonical/header-mismatch', compliantPage({}, withLinkHeader('</guides/brewing-tea>; rel="canonical"'))), null);
    assert.equal(check('canonical/header-mismatch', compliantPage()), null);
  });
});

describe('canonical/to-homepage', () => {
  it('fires when an inner page names the site root', () => {
    assert.deepEqual(check('canonical/to-homepage', compliantPage({ canonical: `${ORIGIN}/` })), { count: 1, samples: [`${ORIGIN}/`] });
  });
  it("does not fire on the root itself, on another site's root, or on a self canonical", () => {
    const root = compliantPage({ canonical: `${ORIGIN}/` }, { url: `${ORIGIN}/` });
    assert.equal(check('canonical/to-homepage', root), null);
    assert.equal(check('canonical/to-homepage', compliantPage({ canonical: 'https://tea.example.org/' })), null);
    assert.equal(check('canonical/to-homepage', compliantPage()), null);
  });
});

describe('canonical/canonicalised', () => {
  it('fires when the canonical is another URL', () => {
    assert.deepEqual(check('canonical/canonicalised', compliantPage({ canonical: 'https://example.com/guides/green-tea' })), {
      count: 1,
      samples: ['https://example.com/guides/green-tea'],
      detail: 'canonical: https://example.com/guides/green-tea',
    });
  });
  it('does not fire on a self canonical, even written with a tracking parameter, or without a canonical', () => {
    assert.equal(check('canonical/canonicalised', compliantPage({ canonical: `${PAGE_URL}?utm_source=news` })), null);
    assert.equal(check('canonical/canonicalised', compliantPage({ canonical: null })), null);
  });
});
