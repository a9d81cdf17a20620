import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantPage, responsePage } from './test-page.ts';

describe('redirects/redirected-url', () => {
  it('fires on a 301 and a 308, naming the target', () => {
    const page = responsePage({ status: 301, finalUrl: 'https://example.com/guides/green-tea' });
    assert.deepEqual(check('redirects/redirected-url', page), {
      count: 1,
      samples: ['https://example.com/guides/green-tea'],
      detail: 'HTTP 301 to https://example.com/guides/green-tea',
    });
    assert.notEqual(check('redirects/redirected-url', responsePage({ status: 308 })), null);
  });
  it('does not fire on a 200 or a 404', () => {
    assert.equal(check('redirects/redirected-url', responsePage({ status: 200 })), null);
    assert.equal(check('redirects/redirected-url', responsePage({ status: 404 })), null);
  });
});

describe('redirects/meta-refresh', () => {
  it('fires on a meta refresh, with its delay and target', () => {
    const page = compliantPage({ head: '<meta http-equiv="refresh" content="0; url=/guides/green-tea">' });
    assert.deepEqual(check('redirects/meta-refresh', page), {
      count: 1,
      samples: ['0; url=/guides/green-tea'],
      detail: 'refreshes after 0 s to https://example.com/guides/green-tea',
    });
  });
  it('does not fire without one', () => {
    assert.equal(check('redirects/meta-refresh', compliantPage()), null);
  });
});
