import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compliantPage, GOOD_HEADERS, responsePage } from '../page-rules/test-page.ts';
import { noindexUnseenFinding } from './noindex-unseen.ts';

const blockedForAll = { notFoundProbe: null, robotsDisallowedFor: ['*', 'Googlebot'] };
const allowed = { notFoundProbe: null, robotsDisallowedFor: [] };

describe('indexability/noindex-unseen', () => {
  it('fires on a page robots.txt disallows that says noindex in a meta tag, naming where', () => {
    const page = compliantPage({ head: '<meta name="robots" content="noindex, follow">' }, { context: blockedForAll });
    assert.deepEqual(noindexUnseenFinding(page), {
      ruleId: 'indexability/noindex-unseen',
      count: 1,
      samples: ['meta robots: noindex'],
      detail: 'robots.txt disallows it for all crawlers (*) and Googlebot',
    });
  });

  it('fires on X-Robots-Tag, on an HTML page and on a PDF alike', () => {
    const headers = { ...GOOD_HEADERS, 'x-robots-tag': 'none' };
    const html = compliantPage({}, { headers, context: { notFoundProbe: null, robotsDisallowedFor: ['Googlebot'] } });
    assert.deepEqual(
      [noindexUnseenFinding(html)?.samples, noindexUnseenFinding(html)?.detail],
      [['X-Robots-Tag: none'], 'robots.txt disallows it for Googlebot'],
    );
    const pdf = responsePage({
      contentType: 'application/pdf',
      headers: { 'content-type': 'application/pdf', 'x-robots-tag': 'noindex' },
      context: blockedForAll,
    });
    assert.deepEqual(noindexUnseenFinding(pdf)?.samples, ['X-Robots-Tag: noindex']);
  });

  it('does not fire on a noindex page robots.txt allows, nor on a disallowed page that may be indexed', () => {
    assert.equal(noindexUnseenFinding(compliantPage({ head: '<meta name="robots" content="noindex">' }, { context: allowed })), null);
    assert.equal(noindexUnseenFinding(compliantPage({}, { context: blockedForAll })), null);
    const otherBot = compliantPage({}, { headers: { ...GOOD_HEADERS, 'x-robots-tag': 'otherbot: noindex' }, context: blockedForAll });
    assert.equal(noindexUnseenFinding(otherBot), null, 'a directive for another crawler');
  });

  it("does not fire without the crawl's robots.txt, or on an answer that is not 2xx", () => {
    assert.equal(noindexUnseenFinding(compliantPage({ head: '<meta name="robots" content="noindex">' })), null);
    const gone = responsePage({ status: 410, headers: { 'x-robots-tag': 'noindex' }, context: blockedForAll });
    assert.equal(noindexUnseenFinding(gone), null);
  });
});
