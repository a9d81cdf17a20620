import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hreflangCodeListSizes, isHreflangCode } from './hreflang-code.ts';
import { check, compliantPage, PAGE_URL } from './test-page.ts';

function alternates(...links: [string, string][]): string {
  return links.map(([lang, href]) => `<link rel="alternate" hreflang="${lang}" href="${href}">`).join('');
}

const SELF = ['en', PAGE_URL] as [string, string];
const GERMAN = ['de', 'https://example.com/de/tee-kochen'] as [string, string];
const DEFAULT = ['x-default', 'https://example.com/'] as [string, string];

describe('hreflang codes', () => {
  it('knows all 183 ISO 639-1 languages and 249 ISO 3166-1 regions', () => {
    assert.deepEqual(hreflangCodeListSizes, { languages: 183, regions: 249 });
  });
  it('accepts a language, with a script and a region, in any case, and x-default', () => {
    for (const code of ['en', 'en-GB', 'pt-br', 'zh-Hant-TW', 'sr-Latn', 'X-Default']) assert.ok(isHreflangCode(code), code);
  });
  it('rejects a wrong region, a three-letter language, underscores and regions alone', () => {
    for (const code of ['en-UK', 'eng', 'en_US', 'GB', 'en-GB-x', 'xx']) assert.ok(!isHreflangCode(code), code);
  });
});

describe('hreflang/invalid-code', () => {
  it('fires on en-UK and eng, listing the codes', () => {
    const page = compliantPage({
      head: alternates(SELF, ['en-UK', 'https://example.com/uk/'], ['eng', 'https://example.com/en/'], DEFAULT),
    });
    assert.deepEqual(check('hreflang/invalid-code', page), {
      count: 2,
      samples: ['en-UK → https://example.com/uk/', 'eng → https://example.com/en/'],
      detail: 'en-UK, eng',
    });
  });
  it('does not fire on valid codes', () => {
    assert.equal(
      check('hreflang/invalid-code', compliantPage({ head: alternates(SELF, GERMAN, ['en-GB', 'https://example.com/uk/'], DEFAULT) })),
      null,
    );
  });
});

describe('hreflang/relative-url', () => {
  it('fires on a relative href', () => {
    const page = compliantPage({ head: alternates(SELF, ['de', '/de/tee-kochen'], DEFAULT) });
    assert.deepEqual(check('hreflang/relative-url', page), { count: 1, samples: ['de → /de/tee-kochen'] });
  });
  it('does not fire on absolute URLs', () => {
    assert.equal(check('hreflang/relative-url', compliantPage({ head: alternates(SELF, GERMAN, DEFAULT) })), null);
  });
});

describe('hreflang/missing-self', () => {
  it('fires when no alternate points to the page', () => {
    const page = compliantPage({ head: alternates(GERMAN, DEFAULT) });
    assert.equal(check('hreflang/missing-self', page)?.detail, 'none of 2 alternates points to this page');
  });
  it('does not fire with a self-reference, or without any hreflang', () => {
    assert.equal(check('hreflang/missing-self', compliantPage({ head: alternates(SELF, GERMAN, DEFAULT) })), null);
    assert.equal(check('hreflang/missing-self', compliantPage()), null);
  });
});

describe('hreflang/missing-x-default', () => {
  it('fires on a set without x-default', () => {
    assert.notEqual(check('hreflang/missing-x-default', compliantPage({ head: alternates(SELF, GERMAN) })), null);
  });
  it('does not fire with x-default, or without any hreflang', () => {
    assert.equal(check('hreflang/missing-x-default', compliantPage({ head: alternates(SELF, GERMAN, DEFAULT) })), null);
    assert.equal(check('hreflang/missing-x-default', compliantPage()), null);
  });
});
