import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answered, causeOf, missingPage } from './page-outcome.ts';

describe('what a diff says of a page that is not there', () => {
  it('words every fetch error the crawl stores, and keeps an unknown one readable', () => {
    const words = {
      'blocked-by-robots': 'blocked by robots.txt',
      dns: 'no such host',
      refused: 'connection refused',
      timeout: 'timed out',
      tls: 'TLS error',
      reset: 'connection reset',
      loop: 'redirect loop',
      'too-many-redirects': 'too many redirects',
      'network: other side closed': 'network error: other side closed',
      'body: aborted': 'failed while reading: aborted',
      'not-checked: over the cap': 'not checked: over the cap',
      'something new': 'something new',
    };
    for (const [code, text] of Object.entries(words)) assert.equal(causeOf(code), text, code);
    assert.equal(causeOf(null), null);
  });

  it('counts 2xx and 3xx as there unless a redirect failed; a body cut short is still a page', () => {
    assert.ok(answered(200, null));
    assert.ok(answered(301, null));
    assert.ok(answered(200, 'truncated'));
    for (const [status, error] of [
      [404, null],
      [500, null],
      [199, null],
      [null, 'dns'],
      [null, 'blocked-by-robots'],
      [301, 'loop'],
    ] as const) {
      assert.ok(!answered(status, error), `${status} ${error}`);
    }
  });

  it('gives each way of being gone its kind and cause', () => {
    const url = 'https://example.com/a';
    const cases: [string | null, number | null, string | null, string, string][] = [
      [null, null, null, 'not-linked', 'not found by the crawl: no longer linked, or out of its scope'],
      ['queued', null, null, 'not-reached', 'not reached: the crawl stopped before fetching it'],
      ['done', null, 'blocked-by-robots', 'blocked-by-robots', 'blocked by robots.txt'],
      ['done', 301, 'too-many-redirects', 'redirect-error', 'too many redirects'],
      ['done', 404, null, 'not-found', 'answers 404'],
      ['done', 410, null, 'not-found', 'answers 410'],
      ['done', 403, null, 'client-error', 'answers 403'],
      ['done', 503, null, 'server-error', 'answers 503'],
      ['done', null, 'dns', 'no-answer', 'no such host'],
      ['done', null, 'timeout', 'no-answer', 'timed out'],
      ['done', null, 'tls', 'no-answer', 'TLS error'],
      ['done', null, null, 'no-answer', 'no answer'],
    ];
    for (const [state, status, error, kind, cause] of cases) {
      assert.deepEqual(missingPage(url, state, status, error), { url, status, kind, cause }, `${state} ${status} ${error}`);
    }
  });
});
