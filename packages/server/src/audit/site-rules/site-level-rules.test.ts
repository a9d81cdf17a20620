import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HttpTwinCheck } from '../../crawl/http-twin-check.ts';
import type { SiteFacts } from '../../crawl/site-facts.ts';
import type { SitemapFile } from '../../crawl/sitemap-reader.ts';
import { type SiteLevelFinding, type SitemapCoverage, siteLevelFindings } from './site-level-rules.ts';
import { siteRuleDefinitions } from './site-rule-definitions.ts';

const SITE = 'https://example.com';
const ROBOTS = `${SITE}/robots.txt`;
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

function file(path: string, overrides: Partial<SitemapFile> = {}): SitemapFile {
  return { url: SITE + path, status: 200, kind: 'urlset', urlCount: 10, invalidLocs: 0, namespace: NAMESPACE, ...overrides };
}

/** A 404 or other failed read, as sitemap-reader records it. */
function unread(path: string, status: number): SitemapFile {
  return {
    url: SITE + path,
    status,
    kind: 'invalid',
    error: status === 0 ? 'No response.' : `HTTP ${status}.`,
    urlCount: 0,
    invalidLocs: 0,
  };
}

type Sitemaps = NonNullable<SiteFacts['sitemaps']>;

/** A healthy site: robots.txt answers 200 and names one valid sitemap of ten URLs. */
function facts(overrides: { robots?: Partial<SiteFacts['robots']>; sitemaps?: Partial<Sitemaps> | null } = {}): SiteFacts {
  const files = overrides.sitemaps?.files ?? [file('/sitemap.xml')];
  return {
    robots: { url: ROBOTS, status: 'ok', httpStatus: 200, blocksAll: false, ...overrides.robots },
    sitemaps:
      overrides.sitemaps === null
        ? null
        : {
            tried: [`${SITE}/sitemap.xml`],
            fromRobots: true,
            files,
            filesRead: files.length,
            listedUrls: 10,
            otherOriginUrls: 0,
            ...overrides.sitemaps,
          },
  };
}

/** Every listed URL fetched answered 200 and is indexable; every indexable page is listed. */
function coverage(overrides: Partial<SitemapCoverage> = {}): SitemapCoverage {
  return {
    listedFetched: 10,
    listedNot200: 0,
    listedNot200Samples: [],
    listedNonIndexable: 0,
    listedNonIndexableSamples: [],
    indexablePages: 10,
    indexableUnlisted: 0,
    indexableUnlistedSamples: [],
    ...overrides,
  };
}

function ids(findings: SiteLevelFinding[]): string[] {
  return findings.map((finding) => finding.ruleId).sort();
}

function only(findings: SiteLevelFinding[], ruleId: string): SiteLevelFinding {
  assert.deepEqual(ids(findings), [ruleId]);
  return findings[0]!;
}

const severityOf = (ruleId: string) => siteRuleDefinitions.find((rule) => rule.id === ruleId)?.severity;

describe('siteLevelFindings', () => {
  it('finds nothing on a healthy site', () => {
    assert.deepEqual(siteLevelFindings(facts(), coverage()), []);
  });

  it("leaves findings at their rule's default severity, with samples of at most three and the rest kept", () => {
    const findings = siteLevelFindings(
      facts({
        robots: { status: 'error', httpStatus: 500, blocksAll: true },
        sitemaps: { files: [1, 2, 3, 4].map((n) => unread(`/s${n}.xml`, 404)) },
      }),
      coverage({
        listedNot200: 5,
        listedNot200Samples: ['a', 'b', 'c', 'g', 'h'],
        listedNonIndexable: 4,
        listedNonIndexableSamples: ['d', 'e', 'f'],
      }),
    );
    assert.deepEqual(ids(findings), ['robots/unreachable', 'sitemaps/invalid', 'sitemaps/non-200-url', 'sitemaps/non-indexable-url']);
    for (const finding of findings) {
      assert.equal(finding.severity, undefined, finding.ruleId);
      assert.ok(finding.samples.length <= 3, finding.ruleId);
    }
    const of = (ruleId: string) => findings.find((finding) => finding.ruleId === ruleId);
    assert.deepEqual(of('sitemaps/non-200-url')?.more, ['g', 'h']);
    assert.equal(of('sitemaps/invalid')?.more?.length, 1);
    assert.deepEqual(['robots/unreachable', 'sitemaps/invalid', 'sitemaps/non-200-url'].map(severityOf), ['error', 'error', 'warning']);
  });

  describe('robots/missing, robots/unreachable and robots/blocks-all', () => {
    it('missing: robots.txt answers 404 (or 410)', () => {
      const finding = only(siteLevelFindings(facts({ robots: { status: 'missing', httpStatus: 404 } }), coverage()), 'robots/missing');
      assert.deepEqual(finding, { ruleId: 'robots/missing', url: ROBOTS, share: 1, count: 1, samples: [ROBOTS], detail: 'answered 404' });
      assert.equal(
        only(siteLevelFindings(facts({ robots: { status: 'missing', httpStatus: 410 } }), coverage()), 'robots/missing').detail,
        'answered 410',
      );
      assert.equal(severityOf('robots/missing'), 'notice');
    });

    it('unreachable: a 5xx or 429 answer, or none at all; not also blocks-all though nothing may then be crawled', () => {
      const error500 = only(
        siteLevelFindings(facts({ robots: { status: 'error', httpStatus: 500, blocksAll: true } }), coverage()),
        'robots/unreachable',
      );
      assert.deepEqual(error500, {
        ruleId: 'robots/unreachable',
        url: ROBOTS,
        share: 1,
        count: 1,
        samples: [ROBOTS],
        detail: 'answered 500',
      });
      const tooMany = only(
        siteLevelFindings(facts({ robots: { status: 'error', httpStatus: 429, blocksAll: true } }), coverage()),
        'robots/unreachable',
      );
      assert.equal(tooMany.detail, 'answered 429');
      const silent = only(
        siteLevelFindings(facts({ robots: { status: 'unreachable', httpStatus: null, blocksAll: true } }), coverage()),
        'robots/unreachable',
      );
      assert.equal(silent.detail, 'no answer');
    });

    it('blocks-all: a readable robots.txt that disallows everything', () => {
      const finding = only(siteLevelFindings(facts({ robots: { blocksAll: true } }), coverage()), 'robots/blocks-all');
      assert.deepEqual(finding, {
        ruleId: 'robots/blocks-all',
        url: ROBOTS,
        share: 1,
        count: 1,
        samples: [ROBOTS],
        detail: 'Disallow: / applies to all crawlers',
      });
      assert.equal(siteRuleDefinitions.find((rule) => rule.id === 'robots/blocks-all')?.weight, 0.9);
    });

    it('invalid: the lines of a robots.txt that was read which crawlers cannot use, as a site finding', () => {
      const problems = {
        count: 4,
        samples: ['line 2: unknown directive "Dissallow"', 'line 5: no colon in "Noindex /x"', 'line 7: empty user-agent'],
      };
      const finding = only(siteLevelFindings(facts({ robots: { problems } }), coverage()), 'robots/invalid');
      assert.deepEqual(finding, {
        ruleId: 'robots/invalid',
        url: ROBOTS,
        share: 1,
        count: 4,
        samples: problems.samples,
        detail: '4 lines that crawlers cannot use',
      });
      assert.equal(severityOf('robots/invalid'), 'warning');
      const withBlock = siteLevelFindings(facts({ robots: { blocksAll: true, problems } }), coverage());
      assert.deepEqual(ids(withBlock), ['robots/blocks-all', 'robots/invalid'], 'a file can block everything and have bad lines');
      assert.deepEqual(
        siteLevelFindings(facts({ robots: { status: 'missing', httpStatus: 404, problems } }), coverage()).map((f) => f.ruleId),
        ['robots/missing'],
        'a file not read has no lines',
      );
      assert.deepEqual(siteLevelFindings(facts({ robots: { problems: { count: 0, samples: [] } } }), coverage()), []);
    });

    it('none of them on a robots.txt that answers 200 and leaves the site open', () => {
      assert.deepEqual(siteLevelFindings(facts({ robots: { status: 'ok', httpStatus: 200, blocksAll: false } }), coverage()), []);
    });
  });

  describe('sitemaps/missing', () => {
    it('fires when /sitemap.xml does not answer and robots.txt names no sitemap', () => {
      const tried = [`${SITE}/sitemap.xml`];
      for (const status of [404, 0, 500]) {
        const finding = only(
          siteLevelFindings(
            facts({ sitemaps: { fromRobots: false, tried, files: [unread('/sitemap.xml', status)], listedUrls: 0 } }),
            coverage({ listedFetched: 0 }),
          ),
          'sitemaps/missing',
        );
        assert.deepEqual(finding, {
          ruleId: 'sitemaps/missing',
          url: tried[0],
          share: 1,
          count: 1,
          samples: tried,
          detail: 'no sitemap at /sitemap.xml or in robots.txt',
        });
      }
    });

    it('does not fire (invalid fires instead) when robots.txt names a sitemap that answers 404', () => {
      const findings = siteLevelFindings(
        facts({ sitemaps: { fromRobots: true, files: [unread('/sitemap.xml', 404)], listedUrls: 0 } }),
        coverage({ listedFetched: 0 }),
      );
      assert.deepEqual(ids(findings), ['sitemaps/invalid']);
    });

    it('does not fire when /sitemap.xml answers 200 without robots.txt naming it, nor when sitemaps were not read', () => {
      assert.deepEqual(siteLevelFindings(facts({ sitemaps: { fromRobots: false } }), coverage()), []);
      assert.deepEqual(siteLevelFindings(facts({ sitemaps: null }), coverage({ listedNot200: 3, indexableUnlisted: 9 })), []);
    });
  });

  describe('sitemaps/invalid', () => {
    it('a named sitemap that answers 404', () => {
      const finding = only(
        siteLevelFindings(facts({ sitemaps: { files: [unread('/sitemap.xml', 404)], listedUrls: 0 } }), coverage()),
        'sitemaps/invalid',
      );
      assert.deepEqual(finding, {
        ruleId: 'sitemaps/invalid',
        url: `${SITE}/sitemap.xml`,
        share: 1,
        count: 1,
        samples: [`${SITE}/sitemap.xml: answered 404`],
        detail: `${SITE}/sitemap.xml: answered 404`,
      });
    });

    it('XML that does not parse, or a file that is not a sitemap', () => {
      const broken = file('/sitemap.xml', { kind: 'invalid', error: 'XML does not parse: unclosed tag', urlCount: 0 });
      assert.equal(
        only(siteLevelFindings(facts({ sitemaps: { files: [broken] } }), coverage()), 'sitemaps/invalid').detail,
        `${SITE}/sitemap.xml: XML does not parse: unclosed tag`,
      );
      const html = { ...unread('/sitemap.xml', 200), error: undefined };
      assert.equal(
        only(siteLevelFindings(facts({ sitemaps: { files: [html] } }), coverage()), 'sitemaps/invalid').detail,
        `${SITE}/sitemap.xml: not a sitemap`,
      );
    });

    it('the wrong namespace, but not a text sitemap (which has none)', () => {
      const old = file('/sitemap.xml', { namespace: 'http://www.google.com/schemas/sitemap/0.84' });
      assert.equal(
        only(siteLevelFindings(facts({ sitemaps: { files: [old] } }), coverage()), 'sitemaps/invalid').detail,
        `${SITE}/sitemap.xml: wrong namespace http://www.google.com/schemas/sitemap/0.84`,
      );
      const text = file('/sitemap.txt', { kind: 'text', namespace: undefined });
      assert.deepEqual(siteLevelFindings(facts({ sitemaps: { files: [text] } }), coverage()), []);
    });

    it('more than 50,000 URLs in one file, not exactly 50,000', () => {
      assert.equal(
        only(
          siteLevelFindings(facts({ sitemaps: { files: [file('/sitemap.xml', { urlCount: 50_001 })] } }), coverage()),
          'sitemaps/invalid',
        ).detail,
        `${SITE}/sitemap.xml: 50001 URLs (limit 50000)`,
      );
      assert.deepEqual(siteLevelFindings(facts({ sitemaps: { files: [file('/sitemap.xml', { urlCount: 50_000 })] } }), coverage()), []);
    });

    it('URLs of another origin, with the share of listed URLs they are', () => {
      const finding = only(siteLevelFindings(facts({ sitemaps: { otherOriginUrls: 3, listedUrls: 10 } }), coverage()), 'sitemaps/invalid');
      assert.deepEqual(finding, {
        ruleId: 'sitemaps/invalid',
        url: `${SITE}/sitemap.xml`,
        share: 0.3,
        count: 1,
        samples: ['3 URLs on another host'],
        detail: '3 URLs on another host',
      });
    });

    it('counts every bad file, samples three, and shares by files read', () => {
      const files = [file('/sitemap_index.xml', { kind: 'index' }), ...[1, 2, 3, 4].map((n) => unread(`/s${n}.xml`, 404)), file('/ok.xml')];
      const finding = only(siteLevelFindings(facts({ sitemaps: { files, filesRead: 8 } }), coverage()), 'sitemaps/invalid');
      assert.deepEqual([finding.count, finding.share, finding.samples], [4, 0.5, [1, 2, 3].map((n) => `${SITE}/s${n}.xml: answered 404`)]);
      assert.equal(severityOf('sitemaps/invalid'), 'error');
    });

    it('does not fire on valid urlset, index and text files', () => {
      const files = [
        file('/sitemap_index.xml', { kind: 'index' }),
        file('/pages.xml'),
        file('/more.txt', { kind: 'text', namespace: undefined }),
      ];
      assert.deepEqual(siteLevelFindings(facts({ sitemaps: { files } }), coverage()), []);
    });
  });

  describe('sitemaps/non-200-url and sitemaps/non-indexable-url', () => {
    it('non-200-url: the share of listed URLs that redirect or fail', () => {
      const samples = [`${SITE}/moved`, `${SITE}/gone`, `${SITE}/error`];
      const finding = only(
        siteLevelFindings(facts(), coverage({ listedFetched: 8, listedNot200: 4, listedNot200Samples: samples })),
        'sitemaps/non-200-url',
      );
      assert.deepEqual(finding, {
        ruleId: 'sitemaps/non-200-url',
        url: `${SITE}/sitemap.xml`,
        share: 0.5,
        count: 4,
        samples,
        detail: '4 of 8 listed URLs',
      });
    });

    it('non-indexable-url: the share of listed pages that are noindex or canonicalized', () => {
      const samples = [`${SITE}/noindex`];
      const finding = only(
        siteLevelFindings(facts(), coverage({ listedFetched: 4, listedNonIndexable: 1, listedNonIndexableSamples: samples })),
        'sitemaps/non-indexable-url',
      );
      assert.deepEqual(finding, {
        ruleId: 'sitemaps/non-indexable-url',
        url: `${SITE}/sitemap.xml`,
        share: 0.25,
        count: 1,
        samples,
        detail: '1 of 4 listed URLs',
      });
    });

    it('neither fires when every listed URL answers 200 and is indexable', () => {
      assert.deepEqual(siteLevelFindings(facts(), coverage({ listedFetched: 50 })), []);
    });
  });

  describe('sitemaps/coverage-gap', () => {
    const gap = (unlisted: number, indexable: number) =>
      siteLevelFindings(
        facts(),
        coverage({ indexablePages: indexable, indexableUnlisted: unlisted, indexableUnlistedSamples: [`${SITE}/u1`] }),
      );

    it('does not fire at exactly 5 of 100 (5 %), and fires at 6 of 100 (more than five pages)', () => {
      assert.deepEqual(gap(5, 100), []);
      const finding = only(gap(6, 100), 'sitemaps/coverage-gap');
      assert.deepEqual(finding, {
        ruleId: 'sitemaps/coverage-gap',
        url: `${SITE}/sitemap.xml`,
        share: 0.06,
        count: 6,
        samples: [`${SITE}/u1`],
        detail: '6 of 100 indexable pages are not listed',
      });
      assert.equal(severityOf('sitemaps/coverage-gap'), 'notice');
    });

    it('fires at 1 of 9 (11 %), not at 1 of 10 (exactly 10 %)', () => {
      assert.equal(only(gap(1, 9), 'sitemaps/coverage-gap').detail, '1 of 9 indexable pages are not listed');
      assert.deepEqual(gap(1, 10), []);
    });

    it('fires on six of 1,000 (the page count rule alone) and not on none', () => {
      only(gap(6, 1000), 'sitemaps/coverage-gap');
      assert.deepEqual(gap(0, 1000), []);
    });

    it('does not fire when there is no usable sitemap (that is sitemaps/missing or invalid), nor without indexable pages', () => {
      const noSitemap = facts({ sitemaps: { fromRobots: false, files: [unread('/sitemap.xml', 404)], listedUrls: 0 } });
      assert.deepEqual(ids(siteLevelFindings(noSitemap, coverage({ indexableUnlisted: 10 }))), ['sitemaps/missing']);
      const broken = facts({
        sitemaps: { files: [file('/sitemap.xml', { kind: 'invalid', error: 'XML does not parse: x', urlCount: 0 })] },
      });
      assert.deepEqual(ids(siteLevelFindings(broken, coverage({ indexableUnlisted: 10 }))), ['sitemaps/invalid']);
      assert.deepEqual(siteLevelFindings(facts(), coverage({ indexablePages: 0, indexableUnlisted: 0 })), []);
    });
  });

  describe('redirects/http-not-redirected', () => {
    const twins = (overrides: Partial<HttpTwinCheck> = {}): HttpTwinCheck => ({
      url: 'http://example.com/',
      checked: 20,
      notRedirected: 0,
      samples: [],
      unanswered: 0,
      skipped: 0,
      ...overrides,
    });

    it('fires with the share of the http:// URLs asked that do not redirect permanently to their https twin', () => {
      const samples = ['http://example.com/ → 302 https://example.com/', 'http://example.com/a → 200'];
      const finding = only(
        siteLevelFindings({ ...facts(), httpTwins: twins({ checked: 8, notRedirected: 2, samples, unanswered: 1 }) }, coverage()),
        'redirects/http-not-redirected',
      );
      assert.deepEqual(finding, {
        ruleId: 'redirects/http-not-redirected',
        url: 'http://example.com/',
        share: 0.25,
        count: 2,
        samples,
        detail: '2 of 8 http:// URLs asked',
      });
      assert.equal(severityOf('redirects/http-not-redirected'), 'warning');
    });

    it('does not fire when every twin that answered redirects, when none answered, or on an http site (none asked)', () => {
      assert.deepEqual(siteLevelFindings({ ...facts(), httpTwins: twins() }, coverage()), []);
      assert.deepEqual(siteLevelFindings({ ...facts(), httpTwins: twins({ checked: 0, unanswered: 20 }) }, coverage()), []);
      assert.deepEqual(siteLevelFindings(facts(), coverage()), []);
    });
  });

  it('decides every robots, sitemaps and http→https rule of the catalog', () => {
    const decided = new Set<string>();
    const cases: [SiteFacts, SitemapCoverage][] = [
      [
        facts({ robots: { status: 'missing', httpStatus: 404 }, sitemaps: { fromRobots: false, files: [unread('/sitemap.xml', 404)] } }),
        coverage(),
      ],
      [
        facts({ robots: { status: 'error', httpStatus: 503, blocksAll: true }, sitemaps: { files: [unread('/sitemap.xml', 404)] } }),
        coverage(),
      ],
      [
        facts({ robots: { blocksAll: true, problems: { count: 1, samples: [] } } }),
        coverage({ listedNot200: 1, listedNonIndexable: 1, indexableUnlisted: 6 }),
      ],
      [
        { ...facts(), httpTwins: { url: 'http://example.com/', checked: 1, notRedirected: 1, samples: [], unanswered: 0, skipped: 0 } },
        coverage(),
      ],
    ];
    for (const [siteFacts, siteCoverage] of cases)
      for (const finding of siteLevelFindings(siteFacts, siteCoverage)) decided.add(finding.ruleId);
    const expected = siteRuleDefinitions
      .map((rule) => rule.id as string)
      .filter((id) => /^(sitemaps|robots)\/|^redirects\/http-not-redirected$/.test(id));
    assert.deepEqual([...decided].sort(), expected.sort());
  });
});
