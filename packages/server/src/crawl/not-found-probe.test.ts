import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GuardedFetcher } from '../outbound/guarded-fetch.ts';
import { extractPageFacts } from '../page-facts/page-facts.ts';
import { htmlPage } from '../testing/html-page.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { DEFAULT_USER_AGENT } from './crawl-options.ts';
import { comparableProbe, notFoundProbeUrl, probeNotFound } from './not-found-probe.ts';

const limits = { timeoutMs: 5_000, maxBodyBytes: 1024 * 1024, maxRedirects: 5, userAgent: DEFAULT_USER_AGENT, headers: {} };
const ERROR_PAGE = htmlPage({ title: 'The Tea Room', h1: 'Oops', canonical: null, body: '<p>Nothing here, try the menu.</p>' });

describe('the probe of a path that cannot exist', () => {
  const fetcher = new GuardedFetcher({ allowPrivate: true });
  let soft: TestSite;
  let strict: TestSite;
  let redirecting: TestSite;
  let empty: TestSite;
  before(async () => {
    soft = await startTestSite({ pages: {}, fallback: () => ERROR_PAGE });
    strict = await startTestSite({ pages: {} });
    redirecting = await startTestSite({ pages: {}, fallback: () => ({ redirect: '/', status: 302 }) });
    empty = await startTestSite({
      pages: {},
      fallback: () =>
        '<!doctype html><html><head><title>App</title></head><body><div id="app"></div><script>start()</script></body></html>',
    });
  });
  after(async () => {
    await Promise.all([soft, strict, redirecting, empty].map((site) => site.close()));
    await fetcher.close();
  });

  it('asks a new random path of the site each time', () => {
    const first = notFoundProbeUrl('https://example.com');
    assert.match(first, /^https:\/\/example\.com\/loupe-not-found-[A-Za-z0-9_-]{12}$/);
    assert.notEqual(first, notFoundProbeUrl('https://example.com'));
  });

  it('keeps the text hash of a 200 HTML answer, the same as a page with that HTML has', async () => {
    const probe = await probeNotFound(fetcher, notFoundProbeUrl(soft.origin), limits);
    const page = extractPageFacts(ERROR_PAGE, soft.url('/anything'), {});
    assert.deepEqual(
      [probe.status, probe.error, probe.textHash, probe.wordCount],
      [200, null, page.mainText.textHash, page.mainText.wordCount],
    );
    assert.deepEqual(comparableProbe(probe), { url: probe.url, textHash: page.mainText.textHash });
    assert.equal(soft.requests.total, 1);
  });

  it('keeps no hash to compare for a 404, a redirect (not followed) or an answer without words', async () => {
    const notFound = await probeNotFound(fetcher, notFoundProbeUrl(strict.origin), limits);
    assert.deepEqual([notFound.status, notFound.textHash, comparableProbe(notFound)], [404, null, null]);
    const moved = await probeNotFound(fetcher, notFoundProbeUrl(redirecting.origin), limits);
    assert.deepEqual([moved.status, moved.textHash, comparableProbe(moved)], [302, null, null]);
    assert.equal(redirecting.requests.count('/'), 0, 'the redirect was not followed');
    const shell = await probeNotFound(fetcher, notFoundProbeUrl(empty.origin), limits);
    assert.deepEqual([shell.status, shell.wordCount, comparableProbe(shell)], [200, 0, null]);
    assert.equal(comparableProbe(undefined), null, 'a crawl made before the probe existed');
  });

  it('goes through the address guard', async () => {
    const guarded = new GuardedFetcher({ allowPrivate: false });
    const probe = await probeNotFound(guarded, notFoundProbeUrl(soft.origin), limits);
    await guarded.close();
    assert.deepEqual([probe.status, probe.error, comparableProbe(probe)], [null, 'blocked-address', null]);
  });
});
