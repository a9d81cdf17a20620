import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageRules } from './page-rules/index.ts';
import { ruleCatalog } from './rule-catalog.ts';
import { siteRuleDefinitions } from './site-rules/site-rule-definitions.ts';

/**
 * audit-checks.md §1, row by row: id → [default severity, scope]. Kept here, not read from
 * the shared document, so the test runs on a checkout alone.
 */
const CATALOG: Record<string, [string, string]> = {
  'status/client-error': ['error', 'page'],
  'status/server-error': ['error', 'page'],
  'status/fetch-failed': ['error', 'page'],
  'status/access-denied': ['notice', 'page'],
  'status/soft-404': ['warning', 'page'],
  'redirects/redirected-url': ['notice', 'page'],
  'redirects/linked-redirect': ['warning', 'site'],
  'redirects/chain': ['warning', 'site'],
  'redirects/loop': ['error', 'site'],
  'redirects/http-not-redirected': ['warning', 'site'],
  'redirects/meta-refresh': ['warning', 'page'],
  'indexability/noindex': ['warning', 'page'],
  'indexability/blocked-by-robots': ['warning', 'site'],
  'indexability/noindex-unseen': ['notice', 'site'],
  'indexability/nosnippet': ['notice', 'page'],
  'indexability/meta-in-body': ['warning', 'page'],
  'indexability/js-only-content': ['warning', 'page'],
  'titles/missing': ['error', 'page'],
  'titles/too-short': ['notice', 'page'],
  'titles/too-long': ['warning', 'page'],
  'titles/multiple': ['warning', 'page'],
  'titles/duplicate': ['warning', 'site'],
  'descriptions/missing': ['warning', 'page'],
  'descriptions/too-short': ['notice', 'page'],
  'descriptions/too-long': ['notice', 'page'],
  'descriptions/multiple': ['warning', 'page'],
  'descriptions/duplicate': ['warning', 'site'],
  'headings/h1-missing': ['warning', 'page'],
  'headings/h1-multiple': ['notice', 'page'],
  'headings/skipped-level': ['notice', 'page'],
  'content/thin': ['notice', 'page'],
  'content/duplicate': ['warning', 'site'],
  'content/near-duplicate': ['notice', 'site'],
  'content/charset': ['notice', 'page'],
  'canonical/missing': ['notice', 'page'],
  'canonical/multiple': ['error', 'page'],
  'canonical/invalid': ['warning', 'page'],
  'canonical/header-mismatch': ['warning', 'page'],
  'canonical/target-not-200': ['error', 'site'],
  'canonical/target-not-indexable': ['error', 'site'],
  'canonical/to-homepage': ['warning', 'page'],
  'canonical/canonicalised': ['notice', 'page'],
  'hreflang/invalid-code': ['error', 'page'],
  'hreflang/relative-url': ['warning', 'page'],
  'hreflang/missing-self': ['warning', 'page'],
  'hreflang/missing-x-default': ['notice', 'page'],
  'hreflang/missing-return': ['warning', 'site'],
  'hreflang/bad-target': ['warning', 'site'],
  'hreflang/conflicting-codes': ['warning', 'site'],
  'links/broken-internal': ['error', 'site'],
  'links/broken-external': ['warning', 'site'],
  'links/orphan': ['warning', 'site'],
  'links/dead-end': ['notice', 'page'],
  'links/too-many': ['notice', 'page'],
  'links/internal-nofollow': ['warning', 'page'],
  'links/insecure-internal': ['warning', 'page'],
  'links/localhost': ['error', 'page'],
  'links/non-descriptive-text': ['notice', 'page'],
  'links/uncrawlable': ['warning', 'page'],
  'links/deep': ['notice', 'site'],
  'images/alt-missing': ['warning', 'page'],
  'images/dimensions-missing': ['notice', 'page'],
  'images/oversized-file': ['warning', 'site'],
  'images/broken': ['error', 'site'],
  'performance/slow-ttfb': ['warning', 'page'],
  'performance/large-html': ['warning', 'page'],
  'performance/uncompressed': ['notice', 'page'],
  'performance/dom-size': ['notice', 'page'],
  'security/not-https': ['error', 'page'],
  'security/mixed-content': ['warning', 'page'],
  'security/hsts': ['notice', 'page'],
  'security/insecure-form': ['error', 'page'],
  'security/headers': ['notice', 'page'],
  'social/og-missing': ['notice', 'page'],
  'social/twitter-card-missing': ['notice', 'page'],
  'structured-data/invalid-jsonld': ['error', 'page'],
  'structured-data/missing-required': ['warning', 'page'],
  'structured-data/missing-recommended': ['notice', 'page'],
  'mobile/viewport-missing': ['warning', 'page'],
  'mobile/zoom-disabled': ['warning', 'page'],
  'accessibility-basic/html-lang-missing': ['warning', 'page'],
  'accessibility-basic/html-lang-invalid': ['warning', 'page'],
  'accessibility-basic/link-no-name': ['warning', 'page'],
  'accessibility-basic/button-no-name': ['warning', 'page'],
  'accessibility-basic/input-no-label': ['warning', 'page'],
  'accessibility-basic/iframe-no-title': ['notice', 'page'],
  'accessibility-basic/duplicate-id': ['notice', 'page'],
  'sitemaps/missing': ['warning', 'site'],
  'sitemaps/invalid': ['error', 'site'],
  'sitemaps/non-200-url': ['warning', 'site'],
  'sitemaps/non-indexable-url': ['warning', 'site'],
  'sitemaps/coverage-gap': ['notice', 'site'],
  'robots/missing': ['notice', 'site'],
  'robots/unreachable': ['error', 'site'],
  'robots/invalid': ['warning', 'site'],
  'robots/blocks-all': ['error', 'site'],
  'url/underscore': ['notice', 'page'],
  'url/unsafe-chars': ['warning', 'page'],
  'url/too-long': ['notice', 'page'],
};

/**
 * Checks Loupe adds to the catalog's for a rendering crawl (issue #28): the browser's lab
 * reading, and one rule per axe-core rule (`accessibility/axe-<rule>`, axe-rules.test.ts).
 */
const RENDERING: Record<string, [string, string]> = {
  'performance/render-failed': ['warning', 'page'],
  'performance/slow-lcp': ['notice', 'page'],
  'performance/layout-shift': ['notice', 'page'],
  'performance/blocking-time': ['notice', 'page'],
  'performance/render-blocking': ['notice', 'page'],
  'performance/heavy-page': ['notice', 'page'],
};

describe('the audit catalog', () => {
  it('has the 99 checks of audit-checks.md §1, 69 page-scope and 30 site-scope', () => {
    const scopes = Object.values(CATALOG).map(([, scope]) => scope);
    assert.deepEqual([scopes.length, scopes.filter((s) => s === 'page').length, scopes.filter((s) => s === 'site').length], [99, 69, 30]);
  });

  it("builds every check at its catalog severity and scope, then a rendering crawl's lab checks and axe-core's rules", () => {
    const built = Object.fromEntries(
      ruleCatalog.filter((rule) => rule.category !== 'accessibility').map((rule) => [rule.id, [rule.severity, rule.scope]]),
    );
    assert.deepEqual(built, { ...CATALOG, ...RENDERING });
    const axeIds = ruleCatalog.filter((rule) => rule.category === 'accessibility').map((rule) => rule.id);
    assert.ok(axeIds.length > 90, `${axeIds.length} axe rules`);
    assert.ok(
      axeIds.every((id) => id.startsWith('accessibility/axe-')),
      'axe-rules.test.ts checks them one by one',
    );
    assert.equal(ruleCatalog.length, 99 + 6 + axeIds.length);
  });

  it('lists each built check once: the page rules, then the site rules', () => {
    const ids = ruleCatalog.map((rule) => rule.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(ids, [...pageRules.map((rule) => rule.id), ...siteRuleDefinitions.map((rule) => rule.id)]);
  });
});
