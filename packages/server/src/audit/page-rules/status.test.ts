import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantPage, ORIGIN, responsePage, words } from './test-page.ts';

describe('status/client-error', () => {
  it('fires on 400, 404 and 499, with the status in the detail', () => {
    for (const status of [400, 404, 499]) {
      assert.deepEqual(check('status/client-error', responsePage({ status })), {
        count: 1,
        samples: ['https://example.com/guides/brewing-tea'],
        detail: `HTTP ${status}`,
      });
    }
  });
  it('leaves 401, 403 and 429 to access-denied, and ignores 2xx and 5xx', () => {
    for (const status of [401, 403, 429, 200, 500]) assert.equal(check('status/client-error', responsePage({ status })), null);
  });
});

describe('status/server-error', () => {
  it('fires on 500 and 599', () => {
    assert.equal(check('status/server-error', responsePage({ status: 500 }))?.detail, 'HTTP 500');
    assert.notEqual(check('status/server-error', responsePage({ status: 599 })), null);
  });
  it('does not fire on 499 or 200', () => {
    assert.equal(check('status/server-error', responsePage({ status: 499 })), null);
    assert.equal(check('status/server-error', responsePage({ status: 200 })), null);
  });
});

describe('status/fetch-failed', () => {
  it('fires when no response arrived, saying why', () => {
    assert.equal(check('status/fetch-failed', responsePage({ status: null, fetchError: 'timeout' }))?.detail, 'timeout');
  });
  it('does not fire when robots.txt kept the crawler away, or a response arrived', () => {
    assert.equal(check('status/fetch-failed', responsePage({ status: null, fetchError: 'blocked-by-robots' })), null);
    assert.equal(check('status/fetch-failed', responsePage({ status: 200 })), null);
  });
});

describe('status/access-denied', () => {
  it('fires on 401, 403, 429 and 999', () => {
    for (const status of [401, 403, 429, 999])
      assert.equal(check('status/access-denied', responsePage({ status }))?.detail, `HTTP ${status}`);
  });
  it('does not fire on other errors', () => {
    for (const status of [404, 500, 200]) assert.equal(check('status/access-denied', responsePage({ status })), null);
  });
});

describe('status/soft-404', () => {
  it('fires on a 200 page whose title says it was not found', () => {
    const verdict = check('status/soft-404', compliantPage({ title: 'Page Not Found | Example Teas' }));
    assert.deepEqual(verdict, { count: 1, samples: ['Page Not Found | Example Teas'], detail: 'the title reads as "not found"' });
  });
  it('fires on a first h1 saying the page is gone', () => {
    const page = compliantPage({ body: '<h1>This tea is no longer available</h1><p>Try our other teas.</p>' });
    assert.equal(check('status/soft-404', page)?.detail, 'the first h1 reads as "not found"');
    assert.notEqual(check('status/soft-404', compliantPage({ title: 'Error 404' })), null);
  });
  it('does not fire on ordinary pages, or on 404 inside a longer number', () => {
    assert.equal(check('status/soft-404', compliantPage()), null);
    assert.equal(check('status/soft-404', compliantPage({ title: 'Flight 4040 to Lisbon: times and gates' })), null);
  });
});

describe('status/soft-404 against the probe of a path that cannot exist', () => {
  const PROBE_URL = `${ORIGIN}/loupe-not-found-Zm9vYmFy`;
  const errorBody = `<h1>Oops</h1><p>We looked everywhere. ${words(30)}</p>`;
  /** The probe's answer, as the crawl keeps it: its text hash. */
  const probe = { url: PROBE_URL, textHash: compliantPage({ body: errorBody }).facts!.mainText.textHash };
  const context = { notFoundProbe: probe, robotsDisallowedFor: [] };

  it('fires on a 200 page whose visible text is the answer to the probe, naming the probe', () => {
    const page = compliantPage({ title: 'Green tea from Uji', body: errorBody }, { context });
    assert.deepEqual(check('status/soft-404', page), {
      count: 1,
      samples: [PROBE_URL],
      detail: 'same text as the answer to an address that does not exist',
    });
  });

  it('does not fire on a page with other text, without a probe, or at the site root the site also answers for unknown paths', () => {
    assert.equal(check('status/soft-404', compliantPage({}, { context })), null);
    assert.equal(check('status/soft-404', compliantPage({ body: errorBody })), null);
    const root = compliantPage({ body: errorBody, canonical: `${ORIGIN}/` }, { url: `${ORIGIN}/`, context });
    assert.equal(check('status/soft-404', root), null);
    const rootWithQuery = compliantPage({ body: errorBody }, { url: `${ORIGIN}/?page=2`, context });
    assert.notEqual(check('status/soft-404', rootWithQuery), null, 'only the bare root is exempt');
  });

  it("reads only 2xx answers: a 404 with the same text is client-error's", () => {
    assert.equal(check('status/soft-404', compliantPage({ body: errorBody }, { status: 404, context })), null);
  });
});
