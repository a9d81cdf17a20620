import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantPage, ORIGIN, responsePage } from './test-page.ts';

function pageAt(url: string) {
  return compliantPage({ canonical: url }, { url });
}

/** An absolute URL of exactly `length` characters. */
function urlOfLength(length: number): string {
  return `${ORIGIN}/${'a'.repeat(length - ORIGIN.length - 1)}`;
}

describe('url/underscore', () => {
  it('fires on an underscore in the path', () => {
    assert.deepEqual(check('url/underscore', pageAt('https://example.com/green_tea')), {
      count: 1,
      samples: ['https://example.com/green_tea'],
    });
  });
  it('does not fire on hyphens, on an underscore in the query, or on a non-HTML answer', () => {
    assert.equal(check('url/underscore', pageAt('https://example.com/green-tea')), null);
    assert.equal(check('url/underscore', pageAt('https://example.com/green-tea?sort_by=name')), null);
    assert.equal(check('url/underscore', responsePage({ url: 'https://example.com/old_page', status: 301 })), null);
  });
});

describe('url/unsafe-chars', () => {
  it('fires on an encoded space and on a double slash in the path', () => {
    assert.equal(check('url/unsafe-chars', pageAt('https://example.com/green%20tea'))?.detail, 'space or control character');
    assert.equal(check('url/unsafe-chars', pageAt('https://example.com/guides//green-tea'))?.detail, '// in the path');
  });
  it('does not fire on a clean URL, or on // inside the query', () => {
    assert.equal(check('url/unsafe-chars', pageAt('https://example.com/green-tea')), null);
    assert.equal(check('url/unsafe-chars', pageAt('https://example.com/go?to=https://example.org/')), null);
  });
});

describe('url/too-long', () => {
  it('does not fire at 100 characters', () => {
    assert.equal(check('url/too-long', pageAt(urlOfLength(100))), null);
  });
  it('fires at 101', () => {
    assert.equal(check('url/too-long', pageAt(urlOfLength(101)))?.detail, '101 characters');
  });
});
