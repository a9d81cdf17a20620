import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conflictingCodesFinding, type HreflangReference } from './conflicting-codes.ts';

const SITE = 'https://example.com';
const self = (code: string): HreflangReference => ({ from: `${SITE}/page`, code, self: true });
const from = (path: string, code: string): HreflangReference => ({ from: SITE + path, code, self: false });

describe('hreflang/conflicting-codes', () => {
  it('fires on a URL the site calls two languages, itself first among the examples', () => {
    assert.deepEqual(conflictingCodesFinding('en', [from('/de', 'de'), self('en'), from('/fr', 'en')]), {
      ruleId: 'hreflang/conflicting-codes',
      count: 2,
      samples: ['hreflang="en" from itself', `hreflang="de" from ${SITE}/de`],
      detail: 'referenced as en and de',
    });
  });

  it("fires when the page's own code contradicts its <html lang>, for another language or another region", () => {
    const language = conflictingCodesFinding('de', [self('en'), from('/de', 'en')]);
    assert.deepEqual(
      [language?.samples, language?.detail],
      [['hreflang="en" on itself, <html lang="de">'], 'its own hreflang is en, its <html lang> de'],
    );
    assert.equal(conflictingCodesFinding('en-US', [self('en-gb')])?.detail, 'its own hreflang is en-gb, its <html lang> en-us');
  });

  it('reports both conflicts in one finding', () => {
    const finding = conflictingCodesFinding('fr', [self('en'), from('/de', 'de')]);
    assert.equal(finding?.count, 3);
    assert.equal(finding?.detail, 'referenced as en and de; its own hreflang is en, its <html lang> fr');
  });

  it('does not fire on one language in several regions, x-default beside a language, or a less specific <html lang>', () => {
    assert.equal(conflictingCodesFinding('en', [self('en-gb'), from('/au', 'en-au'), from('/x', 'x-default')]), null);
    assert.equal(conflictingCodesFinding('en_GB', [self('en-gb')]), null, 'an underscore is read as a hyphen');
    assert.equal(conflictingCodesFinding('zh-Hant-TW', [self('zh-hant')]), null);
  });

  it('does not fire without references, or on a page without <html lang> named one language', () => {
    assert.equal(conflictingCodesFinding('en', []), null);
    assert.equal(conflictingCodesFinding(null, [self('de'), from('/a', 'de-at')]), null);
  });
});
