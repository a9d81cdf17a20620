import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantHtml, GOOD_HEADERS, goodLab, renderedPage } from './test-page.ts';

const UNCOMPRESSED = Object.fromEntries(Object.entries(GOOD_HEADERS).filter(([name]) => name !== 'content-encoding'));
const padded = (bytes: number) => compliantHtml({ extraBody: `<!--${'x'.repeat(bytes)}-->` });

describe('checks of the HTML as sent, in a rendering crawl', () => {
  it('find a meta tag in the body of the raw HTML, even when a script moved it to the head', () => {
    const raw = compliantHtml({ extraBody: '<meta name="robots" content="noindex">' });
    assert.equal(check('indexability/meta-in-body', renderedPage(raw, compliantHtml()))?.count, 1);
    assert.equal(check('indexability/meta-in-body', renderedPage(compliantHtml(), raw)), null);
  });

  it('measure the size of the HTML sent, not of the rendered DOM', () => {
    const big = padded(1_100_000);
    assert.equal(check('performance/large-html', renderedPage(big, compliantHtml()))?.detail, '1.1 MiB');
    assert.equal(check('performance/large-html', renderedPage(compliantHtml(), big)), null);
    const failed = { rendered: false, lab: goodLab({ error: 'crashed', metrics: null }) };
    assert.equal(check('performance/large-html', renderedPage(big, big, failed))?.detail, '1.1 MiB');
  });

  it('judge compression on the bytes sent', () => {
    const small = compliantHtml();
    const page = (raw: string, rendered: string) => renderedPage(raw, rendered, {}, { headers: UNCOMPRESSED, bytes: 1_000 });
    assert.equal(check('performance/uncompressed', page(padded(10_000), small))?.detail, '12.4 KiB sent uncompressed');
    assert.equal(check('performance/uncompressed', page(small, padded(10_000))), null);
  });

  it('look for the charset in the first 1,024 bytes sent', () => {
    const late = compliantHtml().replace('<meta charset="utf-8">', `<!--${'x'.repeat(1_100)}--><meta charset="utf-8">`);
    const headers = { ...GOOD_HEADERS, 'content-type': 'text/html' };
    assert.equal(check('content/charset', renderedPage(late, compliantHtml(), {}, { headers }))?.count, 1);
    assert.equal(check('content/charset', renderedPage(compliantHtml(), late, {}, { headers })), null);
  });
});
