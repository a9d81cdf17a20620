import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantHtml, compliantPage, GOOD_HEADERS, htmlPage, words } from './test-page.ts';

/** A body of exactly `count` visible words (the h1 and link texts count too). */
function bodyOfWords(count: number): string {
  return `<h1>Tea</h1><p>${words(count - 3)}</p><a href="/about">About us</a>`;
}

describe('content/thin', () => {
  it('fires on an indexable page of 199 words, with the count', () => {
    const page = compliantPage({ body: bodyOfWords(199) });
    assert.equal(page.facts?.text.wordCount, 199);
    assert.equal(check('content/thin', page)?.detail, '199 words');
  });
  it('does not fire at 200 words', () => {
    assert.equal(check('content/thin', compliantPage({ body: bodyOfWords(200) })), null);
  });
  it('counts the main content only: 20 words under a 500-word footer and menu are thin', () => {
    const chrome = `<nav><a href="/">Home</a> ${words(40)}</nav>`;
    const page = compliantPage({ body: `${chrome}<main><h1>Tea</h1><p>${words(19)}</p></main><footer>${words(500)}</footer>` });
    assert.equal(page.facts?.text.wordCount, 20 + 41 + 500);
    assert.equal(check('content/thin', page)?.detail, '20 words');
    const docbook = compliantPage({
      body: `<div class="navheader">${words(300)}</div><h1>Tea</h1><p>${words(19)}</p><div class="navfooter">${words(300)}</div>`,
    });
    assert.equal(check('content/thin', docbook)?.detail, '20 words');
  });
  it('does not fire on 200 words of main content beside little else', () => {
    assert.equal(check('content/thin', compliantPage({ body: `<nav>Home</nav><article>${bodyOfWords(200)}</article>` })), null);
  });
  it('does not fire on a page that is not indexable', () => {
    assert.equal(check('content/thin', compliantPage({ body: bodyOfWords(10), head: '<meta name="robots" content="noindex">' })), null);
    assert.equal(check('content/thin', compliantPage({ body: bodyOfWords(10), canonical: 'https://example.com/guides/' })), null);
  });
});

describe('content/charset', () => {
  const withoutHeaderCharset = { ...GOOD_HEADERS, 'content-type': 'text/html' };

  it('fires when neither the header nor a meta tag declares a charset', () => {
    const html = compliantHtml().replace('<meta charset="utf-8">', '');
    assert.deepEqual(check('content/charset', htmlPage(html, { headers: withoutHeaderCharset })), {
      count: 1,
      samples: ['no charset'],
      detail: 'no charset in the Content-Type header or a <meta> tag',
    });
  });
  it('fires on a charset other than UTF-8', () => {
    const page = compliantPage({}, { headers: { ...GOOD_HEADERS, 'content-type': 'text/html; charset=windows-1252' } });
    assert.equal(check('content/charset', page)?.detail, 'declared as windows-1252');
  });
  it('fires when the only declaration is a meta tag after the first 1,024 bytes', () => {
    const html = `<!doctype html><html lang="en"><head><!-- ${'x'.repeat(1100)} --><meta charset="utf-8"></head><body></body></html>`;
    assert.equal(
      check('content/charset', htmlPage(html, { headers: withoutHeaderCharset }))?.detail,
      'the <meta> charset comes after the first 1,024 bytes',
    );
  });
  it('does not fire on UTF-8 declared in the header, or early in a meta tag, under any of its labels', () => {
    assert.equal(check('content/charset', compliantPage()), null);
    assert.equal(check('content/charset', compliantPage({}, { headers: withoutHeaderCharset })), null);
    assert.equal(
      check('content/charset', compliantPage({}, { headers: { ...GOOD_HEADERS, 'content-type': 'text/html; charset=UTF8' } })),
      null,
    );
  });
});
