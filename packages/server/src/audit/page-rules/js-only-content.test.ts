import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantHtml, compliantPage, GOOD_TITLE, goodLab, renderedPage, words } from './test-page.ts';

const RULE = 'indexability/js-only-content';
/** An app shell: what a client-rendered site sends before its scripts run. */
const SHELL = compliantHtml({ body: '<div id="app"></div><script src="/app.js"></script>' });
const links = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `<a href="/products/item-${from + i}">Item ${from + i}</a>`).join(' ');

describe('indexability/js-only-content', () => {
  it('does not fire when the rendered page is the raw HTML', () => {
    assert.equal(check(RULE, renderedPage(compliantHtml())), null);
  });

  it('does not apply outside a rendering crawl, or when rendering failed', () => {
    assert.equal(check(RULE, compliantPage()), null);
    const failed = renderedPage(SHELL, compliantHtml(), { rendered: false, lab: goodLab({ error: 'timeout', metrics: null }) });
    assert.equal(check(RULE, failed), null);
  });

  it('fires on an app shell whose words, heading and links all come from JavaScript', () => {
    const verdict = check(RULE, renderedPage(SHELL, compliantHtml()));
    assert.deepEqual(verdict, {
      count: 3,
      samples: [
        'words: 0 words in the raw HTML → 257 words rendered (100% only after JavaScript)',
        '2 internal links only after JavaScript, such as https://example.com/guides/',
        "h1: raw (none) → rendered 'Brewing green tea'",
      ],
      detail: 'changed by JavaScript: words, links, h1',
    });
  });

  it('fires on words only past 100 rendered words, more than three times the raw ones', () => {
    const page = (raw: number, rendered: number) =>
      renderedPage(
        compliantHtml({ body: `<h1>Tea</h1><p>${words(raw)}</p>` }),
        compliantHtml({ body: `<h1>Tea</h1><p>${words(rendered)}</p>` }),
      );
    // The h1 adds a word to each.
    assert.equal(check(RULE, page(32, 99))?.samples[0], 'words: 33 words in the raw HTML → 100 words rendered (67% only after JavaScript)');
    assert.equal(check(RULE, page(33, 99)), null, '34 × 3 ≥ 100');
    assert.equal(check(RULE, page(0, 98)), null, 'under 100 rendered words');
  });

  it('fires on ten internal links found only after rendering, or on any when the raw HTML has none', () => {
    const base = `<h1>Tea</h1><p>${words(250)}</p><a href="/about">About</a>`;
    const page = (added: number) => renderedPage(compliantHtml({ body: base }), compliantHtml({ body: base + links(added) }));
    assert.equal(check(RULE, page(10))?.samples[0], '10 internal links only after JavaScript, such as https://example.com/products/item-0');
    assert.equal(check(RULE, page(9)), null, 'a few links added by a script are usual');
    const noneRaw = renderedPage(compliantHtml({ body: `<h1>Tea</h1><p>${words(250)}</p>` }), compliantHtml({ body: base }));
    assert.equal(check(RULE, noneRaw)?.samples[0], '1 internal link only after JavaScript, such as https://example.com/about');
  });

  it('names a title and description that JavaScript set or changed, raw and rendered', () => {
    const verdict = check(
      RULE,
      renderedPage(compliantHtml({ title: 'Loading…', description: null }), compliantHtml({ description: 'Steeping times, explained.' })),
    );
    assert.deepEqual(verdict?.samples, [
      `title: raw 'Loading…' → rendered '${GOOD_TITLE}'`,
      "description: raw (none) → rendered 'Steeping times, explained.'",
    ]);
    assert.equal(verdict?.severity, undefined, 'a warning, the default');
  });

  it('is an error when a script changes noindex, either way', () => {
    const noindex = '<meta name="robots" content="noindex">';
    const lifted = check(RULE, renderedPage(compliantHtml({ head: noindex }), compliantHtml()));
    assert.deepEqual([lifted?.samples, lifted?.severity], [["robots: raw 'noindex, follow' → rendered 'index, follow'"], 'error']);
    const added = check(RULE, renderedPage(compliantHtml(), compliantHtml({ head: noindex })));
    assert.equal(added?.severity, 'error');
  });

  it('is a warning when a script changes only nofollow', () => {
    const verdict = check(RULE, renderedPage(compliantHtml(), compliantHtml({ head: '<meta name="robots" content="nofollow">' })));
    assert.deepEqual([verdict?.samples, verdict?.severity], [["robots: raw 'index, follow' → rendered 'index, nofollow'"], undefined]);
  });

  it('is an error when a script replaces the canonical, a warning when it only adds one', () => {
    const replaced = check(RULE, renderedPage(compliantHtml(), compliantHtml({ canonical: 'https://example.com/tea' })));
    assert.deepEqual(
      [replaced?.samples, replaced?.severity],
      [["canonical: raw 'https://example.com/guides/brewing-tea' → rendered 'https://example.com/tea'"], 'error'],
    );
    const added = check(RULE, renderedPage(compliantHtml({ canonical: null }), compliantHtml()));
    assert.deepEqual(
      [added?.samples, added?.severity],
      [["canonical: raw (none) → rendered 'https://example.com/guides/brewing-tea'"], undefined],
    );
  });

  it('lists the most serious difference first and quotes long values cut short', () => {
    const long = `${'Green tea '.repeat(10).trim()}`;
    const verdict = check(
      RULE,
      renderedPage(compliantHtml({ title: long }), compliantHtml({ head: '<meta name="robots" content="noindex">' })),
    );
    assert.deepEqual(verdict?.samples, [
      "robots: raw 'index, follow' → rendered 'noindex, follow'",
      `title: raw '${long.slice(0, 59)}…' → rendered '${GOOD_TITLE}'`,
    ]);
  });
});
