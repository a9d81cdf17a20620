import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantPage, words } from './test-page.ts';

/** The compliant page with `links` as its only links. */
function withLinks(links: string, head = '') {
  return compliantPage({ head, body: `<h1>Tea</h1><p>${words(250)}</p>${links}` });
}

function internalLinks(count: number): string {
  return Array.from({ length: count }, (_, i) => `<a href="/guides/tea-${i}">Tea guide ${i}</a>`).join(' ');
}

describe('links/dead-end', () => {
  it('fires when the only links leave the site or stay on the page', () => {
    const page = withLinks('<a href="https://tea.example.org/">Tea society</a> <a href="#steeping">Steeping</a>');
    assert.equal(check('links/dead-end', page)?.detail, '0 internal links');
  });
  it('does not fire with one internal link', () => {
    assert.equal(check('links/dead-end', withLinks(internalLinks(1))), null);
  });
});

describe('links/too-many', () => {
  it('does not fire at 100 internal links', () => {
    assert.equal(check('links/too-many', withLinks(internalLinks(100))), null);
  });
  it('fires at 101', () => {
    assert.deepEqual(check('links/too-many', withLinks(internalLinks(101))), { count: 101, samples: [], detail: '101 internal links' });
  });
});

describe('links/internal-nofollow', () => {
  it('fires on an internal link with rel=nofollow', () => {
    const page = withLinks('<a href="/about" rel="nofollow">About us</a> <a href="/guides/">Guides</a>');
    assert.deepEqual(check('links/internal-nofollow', page), {
      count: 1,
      samples: ['/about'],
      detail: '1 internal link with rel=nofollow',
    });
  });
  it('fires on a nofollow page that has internal links', () => {
    const page = withLinks(internalLinks(2), '<meta name="robots" content="nofollow">');
    assert.equal(check('links/internal-nofollow', page)?.detail, 'the page is nofollow: 2 internal links not followed');
  });
  it('does not fire on nofollow external links, or on a nofollow page without internal links', () => {
    assert.equal(
      check(
        'links/internal-nofollow',
        withLinks('<a href="/about">About</a> <a href="https://ads.example.net/" rel="nofollow sponsored">Ad</a>'),
      ),
      null,
    );
    assert.equal(
      check(
        'links/internal-nofollow',
        withLinks('<a href="https://tea.example.org/">Tea society</a>', '<meta name="robots" content="nofollow">'),
      ),
      null,
    );
  });
});

describe('links/insecure-internal', () => {
  it('fires on an https page linking to http:// on its own host', () => {
    assert.deepEqual(check('links/insecure-internal', withLinks('<a href="http://example.com/about">About</a>')), {
      count: 1,
      samples: ['http://example.com/about'],
    });
  });
  it('does not fire on https links, on http links to other sites, or on an http page', () => {
    assert.equal(check('links/insecure-internal', withLinks('<a href="https://example.com/about">About</a>')), null);
    assert.equal(check('links/insecure-internal', withLinks('<a href="http://tea.example.org/">Tea society</a>')), null);
    const httpPage = compliantPage(
      { extraBody: '<a href="http://example.com/about">About</a>' },
      { url: 'http://example.com/guides/brewing-tea' },
    );
    assert.equal(check('links/insecure-internal', httpPage), null);
  });
});

describe('links/localhost', () => {
  it('fires on links to localhost, 127.0.0.0/8, ::1 and 0.0.0.0', () => {
    const page = withLinks(
      '<a href="http://localhost:3000/a">a</a><a href="http://127.1.2.3/b">b</a><a href="http://[::1]/c">c</a><a href="http://0.0.0.0/d">d</a><a href="http://shop.localhost/e">e</a>',
    );
    const verdict = check('links/localhost', page);
    assert.equal(verdict?.count, 5);
    assert.deepEqual(verdict?.samples, ['http://localhost:3000/a', 'http://127.1.2.3/b', 'http://[::1]/c']);
  });
  it('does not fire on hosts that merely contain the word, or when the crawl itself is of a local server', () => {
    assert.equal(check('links/localhost', withLinks('<a href="https://localhost.example.com/">Demo</a> <a href="/about">About</a>')), null);
    const local = compliantPage({ extraBody: '<a href="http://localhost:3000/about">About</a>' }, { origin: 'http://localhost:3000' });
    assert.equal(check('links/localhost', local), null);
  });
});

describe('links/non-descriptive-text', () => {
  it('fires on generic link text, even with punctuation around it, and on a bare URL', () => {
    const page = withLinks(
      '<a href="/a">Click here</a> <a href="/b">Read more »</a> <a href="/c">https://example.com/c</a> <a href="/d">more...</a>',
    );
    const verdict = check('links/non-descriptive-text', page);
    assert.equal(verdict?.count, 4);
    assert.deepEqual(verdict?.samples, ['"Click here" → /a', '"Read more »" → /b', '"https://example.com/c" → /c']);
  });
  it('does not fire on descriptive text, nofollow links, mailto links or links to the same page', () => {
    const page = withLinks(
      '<a href="/pricing">Read the pricing guide</a> <a href="/x" rel="nofollow">here</a> <a href="mailto:hi@example.com">here</a> <a href="#top">more</a>',
    );
    assert.equal(check('links/non-descriptive-text', page), null);
  });
});

describe('links/uncrawlable', () => {
  it('fires on empty, javascript:void(0), file: and unparsable hrefs', () => {
    const page = withLinks(
      '<a href="">Menu</a> <a href="javascript:void(0)">Open</a> <a href="file:///C:/tea.html">Tea</a> <a href="http://[bad">Bad</a> <a href="/about">About</a>',
    );
    const verdict = check('links/uncrawlable', page);
    assert.equal(verdict?.count, 4);
    assert.equal(verdict?.detail, 'empty href, javascript:void(0), file: URL, unparsable href');
  });
  it('does not fire on links with a role, mailto links, fragment links or real URLs', () => {
    const page = withLinks(
      '<a href="javascript:void(0)" role="button">Menu</a> <a href="mailto:hi@example.com">Mail</a> <a href="#top">Top</a> <a href="/about">About</a>',
    );
    assert.equal(check('links/uncrawlable', page), null);
  });
  it('reads the href past any whitespace, as written: a no-break space before file: still makes it one', () => {
    const page = withLinks(
      '<a href="&nbsp;file:///tea.html">Tea</a> <a href=" &#9;MAILTO:hi@example.com">Mail</a> <a href=" java&#10;script:void(0)">Open</a>',
    );
    const verdict = check('links/uncrawlable', page);
    assert.equal(verdict?.count, 2);
    assert.equal(verdict?.detail, 'file: URL, javascript:void(0)');
  });
});
