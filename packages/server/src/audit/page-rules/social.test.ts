import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantHtml, htmlPage } from './test-page.ts';

function without(tag: string, extraHead = '') {
  const html = compliantHtml({ head: extraHead });
  const start = html.indexOf(tag);
  return htmlPage(html.slice(0, start) + html.slice(html.indexOf('>', start) + 1));
}

describe('social/og-missing', () => {
  it('fires on an indexable page without og:image, saying which tag is missing', () => {
    assert.deepEqual(check('social/og-missing', without('<meta property="og:image"')), {
      count: 1,
      samples: ['og:image'],
      detail: 'missing: og:image',
    });
  });
  it('does not fire on a noindex page, or with all three tags', () => {
    assert.equal(check('social/og-missing', without('<meta property="og:image"', '<meta name="robots" content="noindex">')), null);
    assert.equal(check('social/og-missing', htmlPage(compliantHtml())), null);
  });
});

describe('social/twitter-card-missing', () => {
  it('fires without twitter:card', () => {
    assert.deepEqual(check('social/twitter-card-missing', without('<meta name="twitter:card"')), {
      count: 1,
      samples: ['no twitter:card'],
    });
  });
  it('does not fire with one', () => {
    assert.equal(check('social/twitter-card-missing', htmlPage(compliantHtml())), null);
  });
});
