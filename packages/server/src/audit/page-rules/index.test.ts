import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import axe from 'axe-core';
import type { LinkFact } from '../../page-facts/page-facts.ts';
import { severityWeights } from '../health-score.ts';
import { ruleCategories } from '../rule.ts';
import { pageRules, runPageRules } from './index.ts';
import { compliantPage, firing, responsePage } from './test-page.ts';

describe('the page rule list', () => {
  it("has the 69 page-scope checks of the catalog, 6 of a rendering crawl's lab reading and one per axe-core rule but the 5 the catalog makes, each id unique", () => {
    const ids = pageRules.map((rule) => rule.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(ids.length, 69 + 6 + (axe.getRules().length - 5));
  });

  it("names every rule category/name, with the category its own prefix and one of the catalog's", () => {
    for (const rule of pageRules) {
      assert.match(rule.id, /^[a-z-]+\/[a-z0-9-]+$/, rule.id);
      assert.equal(rule.id.split('/')[0], rule.category, rule.id);
      assert.ok((ruleCategories as readonly string[]).includes(rule.category), rule.id);
    }
  });

  it('gives every rule a valid severity, page scope and a weight within [0, 0.9]', () => {
    for (const rule of pageRules) {
      assert.ok(Object.hasOwn(severityWeights, rule.severity), rule.id);
      assert.equal(rule.scope, 'page', rule.id);
      if (rule.weight !== undefined) assert.ok(rule.weight >= 0 && rule.weight <= 0.9, rule.id);
    }
  });

  it("implements every page-scope check of the catalog at its severity, then the lab reading's (axe-rules.test.ts has axe's)", () => {
    const catalog: Record<string, string> = {
      'status/client-error': 'error',
      'status/server-error': 'error',
      'status/fetch-failed': 'error',
      'status/access-denied': 'notice',
      'status/soft-404': 'warning',
      'redirects/redirected-url': 'notice',
      'redirects/meta-refresh': 'warning',
      'indexability/noindex': 'warning',
      'indexability/nosnippet': 'notice',
      'indexability/meta-in-body': 'warning',
      'indexability/js-only-content': 'warning',
      'titles/missing': 'error',
      'titles/too-short': 'notice',
      'titles/too-long': 'warning',
      'titles/multiple': 'warning',
      'descriptions/missing': 'warning',
      'descriptions/too-short': 'notice',
      'descriptions/too-long': 'notice',
      'descriptions/multiple': 'warning',
      'headings/h1-missing': 'warning',
      'headings/h1-multiple': 'notice',
      'headings/skipped-level': 'notice',
      'content/thin': 'notice',
      'content/charset': 'notice',
      'canonical/missing': 'notice',
      'canonical/multiple': 'error',
      'canonical/invalid': 'warning',
      'canonical/header-mismatch': 'warning',
      'canonical/to-homepage': 'warning',
      'canonical/canonicalised': 'notice',
      'hreflang/invalid-code': 'error',
      'hreflang/relative-url': 'warning',
      'hreflang/missing-self': 'warning',
      'hreflang/missing-x-default': 'notice',
      'links/dead-end': 'notice',
      'links/too-many': 'notice',
      'links/internal-nofollow': 'warning',
      'links/insecure-internal': 'warning',
      'links/localhost': 'error',
      'links/non-descriptive-text': 'notice',
      'links/uncrawlable': 'warning',
      'images/alt-missing': 'warning',
      'images/dimensions-missing': 'notice',
      'performance/slow-ttfb': 'warning',
      'performance/large-html': 'warning',
      'performance/uncompressed': 'notice',
      'performance/dom-size': 'notice',
      'performance/render-failed': 'warning',
      'performance/slow-lcp': 'notice',
      'performance/layout-shift': 'notice',
      'performance/blocking-time': 'notice',
      'performance/render-blocking': 'notice',
      'performance/heavy-page': 'notice',
      'security/not-https': 'error',
      'security/mixed-content': 'warning',
      'security/hsts': 'notice',
      'security/insecure-form': 'error',
      'security/headers': 'notice',
      'social/og-missing': 'notice',
      'social/twitter-card-missing': 'notice',
      'structured-data/invalid-jsonld': 'error',
      'structured-data/missing-required': 'warning',
      'structured-data/missing-recommended': 'notice',
      'mobile/viewport-missing': 'warning',
      'mobile/zoom-disabled': 'warning',
      'accessibility-basic/html-lang-missing': 'warning',
      'accessibility-basic/html-lang-invalid': 'warning',
      'accessibility-basic/link-no-name': 'warning',
      'accessibility-basic/button-no-name': 'warning',
      'accessibility-basic/input-no-label': 'warning',
      'accessibility-basic/iframe-no-title': 'notice',
      'accessibility-basic/duplicate-id': 'notice',
      'url/underscore': 'notice',
      'url/unsafe-chars': 'warning',
      'url/too-long': 'notice',
    };
    const notAxe = pageRules.filter((rule) => rule.category !== 'accessibility');
    assert.deepEqual(Object.fromEntries(notAxe.map((rule) => [rule.id, rule.severity])), catalog);
  });

  it('scores only access-denied and canonicalised at zero, as the catalog says', () => {
    const zero = pageRules.filter((rule) => rule.weight !== undefined).map((rule) => [rule.id, rule.weight]);
    assert.deepEqual(zero, [
      ['status/access-denied', 0],
      ['canonical/canonicalised', 0],
    ]);
  });

  it('explains every rule to a site owner: a title, why it matters and what to do', () => {
    for (const rule of pageRules) {
      assert.ok(rule.title.trim().length > 0, rule.id);
      assert.ok(rule.explanation.trim().length > 40, rule.id);
      assert.ok(rule.fix.trim().length > 20, rule.id);
      assert.notEqual(rule.explanation, rule.fix, rule.id);
    }
  });
});

describe('runPageRules', () => {
  it('finds nothing on a well-made page', () => {
    assert.deepEqual(runPageRules(compliantPage()), []);
  });

  it('attaches the rule id to each finding', () => {
    const findings = runPageRules(compliantPage({ title: null }));
    assert.deepEqual(findings, [{ ruleId: 'titles/missing', count: 1, samples: ['no <title> in the head'] }]);
  });

  it('runs only the response checks on a URL without HTML facts', () => {
    assert.deepEqual(firing(responsePage({ status: 404 })), ['status/client-error']);
  });

  it('keeps every finding within three samples', () => {
    const page = compliantPage({ extraBody: '<img src="/a.png"><img src="/b.png"><img src="/c.png"><img src="/d.png"><img src="/e.png">' });
    for (const finding of runPageRules(page)) assert.ok(finding.samples.length <= 3, finding.ruleId);
    const images = runPageRules(page).find((finding) => finding.ruleId === 'images/alt-missing');
    assert.equal(images?.count, 5);
  });

  it('skips a rule that throws, and still reports the others', () => {
    const page = compliantPage({ title: null });
    const facts = page.facts;
    assert.ok(facts !== null);
    // Link facts that are not a list make every link rule throw.
    const broken = { ...page, facts: { ...facts, links: null as unknown as LinkFact[] } };
    assert.throws(() => pageRules.find((rule) => rule.id === 'links/dead-end')?.check(broken));
    assert.deepEqual(
      runPageRules(broken).map((finding) => finding.ruleId),
      ['titles/missing'],
    );
  });
});
