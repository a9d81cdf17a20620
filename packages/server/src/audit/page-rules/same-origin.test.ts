import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasOrigin } from './same-origin.ts';

describe('hasOrigin', () => {
  it('answers as comparing the parsed origins would', () => {
    const cases: [string, string, boolean][] = [
      ['https://example.com/a?b#c', 'https://example.com', true],
      ['https://example.com/', 'https://example.com', true],
      ['https://user:pass@example.com/a', 'https://example.com', true],
      ['https://example.com.evil.test/', 'https://example.com', false],
      ['https://example.com:8443/', 'https://example.com', false],
      ['http://example.com/', 'https://example.com', false],
      ['https://example.com:8443/x', 'https://example.com:8443', true],
      ['https://evil.test/?next=https://example.com/', 'https://example.com', false],
      ['https://evil.test/@example.com/', 'https://example.com', false],
    ];
    for (const [url, origin, expected] of cases) {
      assert.equal(new URL(url).origin === origin, expected, `${url} (the case itself)`);
      assert.equal(hasOrigin(url, origin), expected, url);
    }
  });
});
