import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantHtml, GOOD_HEADERS, htmlPage, responsePage } from './test-page.ts';

const MIB = 1024 * 1024;
const UNCOMPRESSED = Object.fromEntries(Object.entries(GOOD_HEADERS).filter(([name]) => name !== 'content-encoding'));

/** A valid page of exactly `bytes` bytes of HTML, padded with a comment. */
function htmlOfBytes(bytes: number): string {
  const page = compliantHtml();
  return page.replace('</body>', `<!--${'x'.repeat(bytes - Buffer.byteLength(page) - 7)}--></body>`);
}

/** `<html><head></head><body>` and `elements − 3` more, in divs of up to 50 so no element has too many children. */
function htmlOfElements(elements: number): string {
  let body = '';
  for (let remaining = elements - 3; remaining > 0; ) {
    const children = Math.min(50, remaining - 1);
    body += `<div>${'<i></i>'.repeat(children)}</div>`;
    remaining -= children + 1;
  }
  return `<html><head></head><body>${body}</body></html>`;
}

function htmlOfDepth(depth: number): string {
  return `<html><head></head><body>${'<div>'.repeat(depth - 2)}${'</div>'.repeat(depth - 2)}</body></html>`;
}

function htmlWithChildren(children: number): string {
  return `<html><head></head><body>${'<p></p>'.repeat(children)}</body></html>`;
}

describe('performance/slow-ttfb', () => {
  it('does not fire at 800 ms', () => {
    assert.equal(check('performance/slow-ttfb', responsePage({ ttfbMs: 800 })), null);
  });
  it('fires at 801 ms, with the time', () => {
    assert.equal(check('performance/slow-ttfb', responsePage({ ttfbMs: 801 }))?.detail, '801 ms to first byte');
  });
  it('does not fire when no response arrived', () => {
    assert.equal(check('performance/slow-ttfb', responsePage({ status: null, fetchError: 'timeout', ttfbMs: 30_000 })), null);
  });
});

describe('performance/large-html', () => {
  it('does not fire at exactly 1 MiB', () => {
    const page = htmlPage(htmlOfBytes(MIB));
    assert.equal(page.facts?.htmlBytes, MIB);
    assert.equal(check('performance/large-html', page), null);
  });
  it('fires as a warning one byte over 1 MiB, and still at 2 MiB', () => {
    assert.deepEqual(check('performance/large-html', htmlPage(htmlOfBytes(MIB + 1))), {
      count: 1,
      samples: ['https://example.com/guides/brewing-tea'],
      detail: '1.0 MiB',
    });
    assert.equal(check('performance/large-html', htmlPage(htmlOfBytes(2 * MIB)))?.severity, undefined);
  });
  it('escalates to an error past 2 MiB', () => {
    const verdict = check('performance/large-html', htmlPage(htmlOfBytes(2 * MIB + 1)));
    assert.equal(verdict?.severity, 'error');
    assert.equal(verdict?.detail, '2.0 MiB');
  });
});

describe('performance/uncompressed', () => {
  it('does not fire on 4 KiB sent uncompressed', () => {
    assert.equal(check('performance/uncompressed', responsePage({ bytes: 4096 })), null);
  });
  it('fires one byte over 4 KiB', () => {
    assert.equal(check('performance/uncompressed', responsePage({ bytes: 4097 }))?.detail, '4.0 KiB sent uncompressed');
  });
  it('measures the decoded HTML when it is larger than what was transferred', () => {
    const page = htmlPage(htmlOfBytes(5000), { headers: UNCOMPRESSED, bytes: 1000 });
    assert.equal(check('performance/uncompressed', page)?.detail, '4.9 KiB sent uncompressed');
  });
  it('fires on JSON, CSS and SVG too, but not on images or compressed responses', () => {
    for (const contentType of ['application/json', 'text/css', 'image/svg+xml', 'application/javascript']) {
      assert.notEqual(check('performance/uncompressed', responsePage({ bytes: 10_000, contentType })), null, contentType);
    }
    assert.equal(check('performance/uncompressed', responsePage({ bytes: 10_000, contentType: 'image/png' })), null);
    for (const encoding of ['gzip', 'br', 'zstd', 'deflate']) {
      assert.equal(
        check('performance/uncompressed', responsePage({ bytes: 10_000, headers: { 'content-encoding': encoding } })),
        null,
        encoding,
      );
    }
  });
});

describe('performance/dom-size', () => {
  it('does not fire at 1,500 elements', () => {
    const page = htmlPage(htmlOfElements(1500));
    assert.equal(page.facts?.dom.elementCount, 1500);
    assert.equal(check('performance/dom-size', page), null);
  });
  it('fires as a notice at 1,501 and at 3,000 elements', () => {
    assert.deepEqual(check('performance/dom-size', htmlPage(htmlOfElements(1501))), {
      count: 1,
      samples: ['1,501 elements'],
      detail: '1,501 elements',
    });
    assert.equal(check('performance/dom-size', htmlPage(htmlOfElements(3000)))?.severity, undefined);
  });
  it('escalates to a warning past 3,000 elements', () => {
    assert.equal(check('performance/dom-size', htmlPage(htmlOfElements(3001)))?.severity, 'warning');
  });
  it('fires on nesting deeper than 32, not at 32', () => {
    const page = htmlPage(htmlOfDepth(32));
    assert.equal(page.facts?.dom.maxDepth, 32);
    assert.equal(check('performance/dom-size', page), null);
    assert.equal(check('performance/dom-size', htmlPage(htmlOfDepth(33)))?.detail, 'nested 33 deep');
  });
  it('fires on an element with more than 60 children, not with 60', () => {
    assert.equal(check('performance/dom-size', htmlPage(htmlWithChildren(60))), null);
    assert.equal(check('performance/dom-size', htmlPage(htmlWithChildren(61)))?.detail, 'an element with 61 children');
  });
});
