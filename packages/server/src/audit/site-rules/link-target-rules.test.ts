import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Finding } from '../rule.ts';
import { type ChainEnd, type LinkTarget, linkTargetFindings } from './link-target-rules.ts';
import { siteRuleDefinitions } from './site-rule-definitions.ts';

const SITE = 'https://example.com';
const KB = 1024;
const MB = 1024 * 1024;

/** A target that is fine: an internal, indexable page answering 200. */
function target(kind: LinkTarget['kind'], path: string, overrides: Partial<LinkTarget> = {}): LinkTarget {
  return {
    kind,
    url: path.startsWith('http') ? path : SITE + path,
    targetKind: 'page',
    internal: true,
    status: 200,
    fetchError: null,
    bytes: null,
    indexable: true,
    redirect: null,
    linksBack: kind === 'hreflang' ? true : null,
    ...overrides,
  };
}

const link = (path: string, overrides: Partial<LinkTarget> = {}) => target('link', path, overrides);
const external = (url: string, overrides: Partial<LinkTarget> = {}) =>
  target('link', url, { targetKind: 'external', internal: false, indexable: null, ...overrides });
const image = (path: string, overrides: Partial<LinkTarget> = {}) =>
  target('image', path, { targetKind: 'asset', indexable: null, ...overrides });
const canonical = (path: string, overrides: Partial<LinkTarget> = {}) => target('canonical', path, overrides);
const hreflang = (path: string, overrides: Partial<LinkTarget> = {}) => target('hreflang', path, overrides);

/** A redirecting internal URL (`status` 301) whose chain of `hops` ends at `end` (a 200 page by default). */
function redirecting(hops: number, end: Partial<ChainEnd> | null = {}): Partial<LinkTarget> {
  return {
    status: 301,
    indexable: null,
    redirect: {
      hops,
      loop: false,
      end: end === null ? null : { url: `${SITE}/end`, status: 200, fetchError: null, indexable: true, ...end },
    },
  };
}
const looping: Partial<LinkTarget> = { status: 301, indexable: null, redirect: { hops: 2, loop: true, end: null } };

function findingsById(targets: LinkTarget[]): Map<string, Finding> {
  const findings = linkTargetFindings(targets);
  const byId = new Map(findings.map((finding) => [finding.ruleId, finding]));
  assert.equal(byId.size, findings.length, 'one finding per rule');
  return byId;
}

function only(targets: LinkTarget[], ruleId: string): Finding {
  const findings = findingsById(targets);
  assert.deepEqual([...findings.keys()], [ruleId]);
  return findings.get(ruleId)!;
}

function none(targets: LinkTarget[]): void {
  assert.deepEqual(linkTargetFindings(targets), []);
}

describe('linkTargetFindings', () => {
  it('finds nothing for no targets, and nothing for fine links, images, canonicals and hreflang alternates', () => {
    none([]);
    none([
      link('/ok'),
      external('https://other.example/page'),
      image('/logo.png', { bytes: 12 * KB }),
      canonical('/ok'),
      hreflang('/de/ok', { linksBack: true }),
    ]);
  });

  describe('links/broken-internal', () => {
    it('fires on 404, 410, 500, 503 and a fetch failure: one finding counting every URL, three samples and the rest', () => {
      const finding = only(
        [
          link('/missing', { status: 404, indexable: null }),
          link('/gone', { status: 410, indexable: null }),
          link('/server-error', { status: 500, indexable: null }),
          link('/unavailable', { status: 503, indexable: null }),
          link('/timeout', { status: null, fetchError: 'timeout', indexable: null }),
        ],
        'links/broken-internal',
      );
      assert.deepEqual(finding, {
        ruleId: 'links/broken-internal',
        count: 5,
        samples: [`${SITE}/missing`, `${SITE}/gone`, `${SITE}/server-error`],
        more: [`${SITE}/unavailable`, `${SITE}/timeout`],
        detail: '5 URLs',
      });
    });

    it('says "1 URL" for one, and counts a URL linked twice twice but samples it once', () => {
      assert.equal(only([link('/missing', { status: 404 })], 'links/broken-internal').detail, '1 URL');
      const twice = only([link('/missing', { status: 404 }), link('/missing', { status: 404 })], 'links/broken-internal');
      assert.deepEqual([twice.count, twice.samples], [2, [`${SITE}/missing`]]);
    });

    it('does not fire on 401, 403, 429 and 999 (unverifiable), nor on other 4xx the catalog does not call broken', () => {
      none([401, 403, 429, 999].map((status) => link(`/status-${status}`, { status, indexable: null })));
      none([400, 405].map((status) => link(`/status-${status}`, { status, indexable: null })));
    });

    it('fires on a redirect whose chain ends at a 404 or fails, not on one that ends at 200', () => {
      const ends404 = findingsById([link('/moved', redirecting(1, { status: 404, indexable: null }))]);
      assert.deepEqual([...ends404.keys()].sort(), ['links/broken-internal', 'redirects/linked-redirect']);
      const endsFailing = findingsById([
        link('/moved', redirecting(1, { status: null, fetchError: 'network: ECONNRESET', indexable: null })),
      ]);
      assert.ok(endsFailing.has('links/broken-internal'));
      const ends200 = findingsById([link('/moved', redirecting(1))]);
      assert.deepEqual([...ends200.keys()], ['redirects/linked-redirect']);
      // Where the chain's end was not crawled, nothing says it is broken.
      assert.deepEqual([...findingsById([link('/moved', redirecting(1, null))]).keys()], ['redirects/linked-redirect']);
    });

    it('is not raised for a link blocked by robots.txt, nor for an external link', () => {
      assert.equal(
        findingsById([link('/private', { status: null, fetchError: 'blocked-by-robots', indexable: null })]).has('links/broken-internal'),
        false,
      );
      assert.equal(findingsById([external('https://other.example/missing', { status: 404 })]).has('links/broken-internal'), false);
    });
  });

  describe('links/broken-external', () => {
    it("fires on an external 404, 410, 5xx and a DNS failure, at the rule's severity", () => {
      const finding = only(
        [
          external('https://other.example/missing', { status: 404 }),
          external('https://other.example/gone', { status: 410 }),
          external('https://other.example/down', { status: 502 }),
          external('https://nowhere.invalid/', { status: null, fetchError: 'network: getaddrinfo ENOTFOUND nowhere.invalid' }),
        ],
        'links/broken-external',
      );
      assert.deepEqual([finding.count, finding.samples.length, finding.severity, finding.detail], [4, 3, undefined, '4 URLs']);
    });

    it('does not fire on a blocked address, on 401/403/429/999, or on 200', () => {
      none([
        external('http://10.0.0.1/admin', { status: null, fetchError: 'blocked-address' }),
        ...[401, 403, 429, 999].map((status) => external(`https://other.example/${status}`, { status })),
        external('https://other.example/ok'),
      ]);
    });
  });

  describe('redirects/linked-redirect, redirects/chain and redirects/loop', () => {
    it('a single hop is only a linked redirect', () => {
      const finding = only([link('/moved', redirecting(1))], 'redirects/linked-redirect');
      assert.deepEqual(finding, { ruleId: 'redirects/linked-redirect', count: 1, samples: [`${SITE}/moved`], detail: '1 URL' });
    });

    it('two hops make a chain at warning, not also a linked redirect; four still a warning', () => {
      const two = findingsById([link('/chain', redirecting(2))]);
      assert.deepEqual([...two.keys()], ['redirects/chain']);
      assert.deepEqual(two.get('redirects/chain'), {
        ruleId: 'redirects/chain',
        count: 1,
        samples: [`${SITE}/chain`],
        detail: 'longest 2 hops',
      });
      const four = findingsById([link('/chain', redirecting(4))]).get('redirects/chain');
      assert.deepEqual([four?.severity, four?.detail], [undefined, 'longest 4 hops']);
    });

    it('five hops make the chain an error, and it stays one when a shorter chain follows', () => {
      const five = findingsById([link('/long', redirecting(5))]).get('redirects/chain');
      assert.deepEqual([five?.severity, five?.detail], ['error', 'longest 5 hops']);
      const mixed = findingsById([link('/long', redirecting(5)), link('/chain', redirecting(2))]).get('redirects/chain');
      assert.deepEqual([mixed?.severity, mixed?.count, mixed?.detail], ['error', 2, 'longest 5 hops']);
      const both = findingsById([link('/linked', redirecting(1)), link('/chain', redirecting(2))]);
      assert.deepEqual([both.get('redirects/linked-redirect')?.count, both.get('redirects/chain')?.count], [1, 1]);
    });

    it('a loop is only a loop, never a chain, a linked redirect or a broken link', () => {
      const findings = findingsById([link('/loop/a', looping)]);
      assert.deepEqual([...findings.keys()], ['redirects/loop']);
      assert.deepEqual(findings.get('redirects/loop'), { ruleId: 'redirects/loop', count: 1, samples: [`${SITE}/loop/a`] });
      // A chain past ten hops is reported as a loop too.
      const endless = findingsById([link('/endless/1', { status: 302, redirect: { hops: 11, loop: true, end: null } })]);
      assert.deepEqual([...endless.keys()], ['redirects/loop']);
    });

    it('a 200 link is none of them', () => {
      none([link('/ok')]);
    });
  });

  describe('indexability/blocked-by-robots', () => {
    it('fires on an internal link that robots.txt disallows', () => {
      const finding = only(
        [link('/private/a', { status: null, fetchError: 'blocked-by-robots', indexable: null })],
        'indexability/blocked-by-robots',
      );
      assert.deepEqual(finding, { ruleId: 'indexability/blocked-by-robots', count: 1, samples: [`${SITE}/private/a`] });
    });
    it('does not fire on a fetched link, or on other fetch errors', () => {
      none([link('/public')]);
      assert.equal(findingsById([link('/slow', { status: null, fetchError: 'timeout' })]).has('indexability/blocked-by-robots'), false);
    });
  });

  describe('images/oversized-file', () => {
    it('does not fire at exactly 200 KB', () => {
      none([image('/exactly.jpg', { bytes: 200 * KB })]);
    });
    it('fires at 200 KB + 1 byte as a warning, and still a warning at exactly 1 MB', () => {
      const finding = only([image('/just-over.jpg', { bytes: 200 * KB + 1 })], 'images/oversized-file');
      assert.deepEqual(finding, {
        ruleId: 'images/oversized-file',
        count: 1,
        samples: [`${SITE}/just-over.jpg`],
        detail: 'largest 200 KB',
      });
      assert.equal(only([image('/one-mb.jpg', { bytes: MB })], 'images/oversized-file').severity, undefined);
    });
    it('is an error above 1 MB, naming the largest, with three samples of four', () => {
      const finding = only(
        [
          image('/a.jpg', { bytes: 300 * KB }),
          image('/b.jpg', { bytes: MB + 1 }),
          image('/c.jpg', { bytes: 250 * KB }),
          image('/d.jpg', { bytes: 500 * KB }),
        ],
        'images/oversized-file',
      );
      assert.deepEqual(
        [finding.count, finding.samples, finding.severity, finding.detail],
        [4, [`${SITE}/a.jpg`, `${SITE}/b.jpg`, `${SITE}/c.jpg`], 'error', 'largest 1024 KB'],
      );
    });
    it('does not fire for an external image, or one whose size is unknown', () => {
      none([image('https://cdn.example.net/huge.jpg', { internal: false, bytes: 5 * MB }), image('/unknown.jpg', { bytes: null })]);
    });
  });

  describe('images/broken', () => {
    it('fires on 404, 500 and a failed fetch', () => {
      const finding = only(
        [
          image('/missing.png', { status: 404 }),
          image('/error.png', { status: 500 }),
          image('https://cdn.example.net/x.png', { internal: false, status: null, fetchError: 'timeout' }),
        ],
        'images/broken',
      );
      assert.deepEqual([finding.count, finding.detail], [3, '3 URLs']);
    });
    it('does not fire on 403 (unverifiable) or a blocked address; a broken heavy image is broken, not oversized', () => {
      none([
        image('/hotlink.png', { status: 403 }),
        image('http://10.0.0.1/x.png', { internal: false, status: null, fetchError: 'blocked-address' }),
      ]);
      only([image('/gone.jpg', { status: 404, bytes: 2 * MB })], 'images/broken');
    });
  });

  describe('canonical/target-not-200 and canonical/target-not-indexable', () => {
    it('target-not-200 fires on a canonical that redirects, is missing, fails or refuses', () => {
      const finding = only(
        [
          canonical('/moved', redirecting(1)),
          canonical('/missing', { status: 404, indexable: null }),
          canonical('/error', { status: 500, indexable: null }),
          canonical('/slow', { status: null, fetchError: 'timeout', indexable: null }),
          canonical('/forbidden', { status: 403, indexable: null }),
        ],
        'canonical/target-not-200',
      );
      assert.deepEqual([finding.count, finding.samples], [5, [`${SITE}/moved`, `${SITE}/missing`, `${SITE}/error`]]);
      assert.equal(finding.severity, undefined);
    });

    it('target-not-indexable fires on a 200 target that is noindex or canonicalizes elsewhere (indexable false)', () => {
      const finding = only([canonical('/noindex', { indexable: false })], 'canonical/target-not-indexable');
      assert.deepEqual(finding, { ruleId: 'canonical/target-not-indexable', count: 1, samples: [`${SITE}/noindex`] });
    });

    it('target-not-indexable fires on a target that robots.txt disallows (§1: "noindex, blocked by robots.txt, or …")', () => {
      only(
        [canonical('/private/page', { status: null, fetchError: 'blocked-by-robots', indexable: null })],
        'canonical/target-not-indexable',
      );
    });

    it('neither fires on an indexable 200 target, an external canonical, or a target not fetched', () => {
      none([
        canonical('/fine'),
        canonical('https://other.example/page', { targetKind: 'external', internal: false, status: 404, indexable: null }),
        canonical('/not-yet', { status: null, fetchError: null, indexable: null }),
      ]);
    });

    it('a canonical that fails is only target-not-200, even when it is also not indexable', () => {
      only([canonical('/gone', { status: 410, indexable: false })], 'canonical/target-not-200');
    });
  });

  describe('hreflang/bad-target and hreflang/missing-return', () => {
    it('bad-target fires on an alternate that redirects, is missing, errs, or is not indexable', () => {
      const finding = only(
        [
          hreflang('/de/moved', { ...redirecting(1), linksBack: false }),
          hreflang('/de/missing', { status: 404, indexable: null, linksBack: false }),
          hreflang('/de/error', { status: 500, indexable: null, linksBack: false }),
          hreflang('/de/noindex', { indexable: false, linksBack: true }),
        ],
        'hreflang/bad-target',
      );
      assert.deepEqual(
        [finding.count, finding.samples, finding.severity],
        [4, [`${SITE}/de/moved`, `${SITE}/de/missing`, `${SITE}/de/error`], undefined],
      );
    });

    it('missing-return fires on an indexable alternate that does not list the page back', () => {
      const finding = only(
        [hreflang('/de/page', { linksBack: false }), hreflang('/fr/page', { linksBack: false })],
        'hreflang/missing-return',
      );
      assert.deepEqual(finding, { ruleId: 'hreflang/missing-return', count: 2, samples: [`${SITE}/de/page`, `${SITE}/fr/page`] });
    });

    it('neither fires on an alternate that links back, or whose return is unknown', () => {
      none([hreflang('/de/page', { linksBack: true }), hreflang('/fr/page', { linksBack: null })]);
    });

    it('missing-return is not claimed for an alternate whose links were never read (robots-blocked, 401/403)', () => {
      none([
        hreflang('/private/de', { status: null, fetchError: 'blocked-by-robots', indexable: null, linksBack: false }),
        hreflang('/members/fr', { status: 403, indexable: null, linksBack: false }),
      ]);
    });

    it('neither fires on an external alternate', () => {
      none([
        hreflang('https://other.example/de', { targetKind: 'external', internal: false, status: 404, indexable: null, linksBack: false }),
      ]);
    });
  });

  it('decides every site rule except those the report builder decides (duplicates, near duplicates, orphans, depth, hreflang codes), the crawl decides (noindex-unseen) and the site-level ones', () => {
    const decidedHere = new Set<string>();
    const everything = [
      link('/missing', { status: 404 }),
      external('https://other.example/missing', { status: 404 }),
      link('/moved', redirecting(1)),
      link('/chain', redirecting(2)),
      link('/loop', looping),
      link('/private', { status: null, fetchError: 'blocked-by-robots', indexable: null }),
      image('/big.jpg', { bytes: 300 * KB }),
      image('/missing.png', { status: 404 }),
      canonical('/missing', { status: 404 }),
      canonical('/noindex', { indexable: false }),
      hreflang('/de/moved', redirecting(1)),
      hreflang('/fr/page', { linksBack: false }),
    ];
    for (const finding of linkTargetFindings(everything)) decidedHere.add(finding.ruleId);
    const builderOrSiteLevel =
      /^(titles|descriptions|content)\/duplicate$|^content\/near-duplicate$|^links\/(orphan|deep)$|^hreflang\/conflicting-codes$|^indexability\/noindex-unseen$|^(sitemaps|robots)\/|^redirects\/http-not-redirected$/;
    const expected = siteRuleDefinitions.map((rule) => rule.id as string).filter((id) => !builderOrSiteLevel.test(id));
    assert.deepEqual([...decidedHere].sort(), expected.sort());
  });
});
