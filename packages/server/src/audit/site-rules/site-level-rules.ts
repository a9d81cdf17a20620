import type { SiteFacts } from '../../crawl/site-facts.ts';
import { keptInstances, MAX_INSTANCES } from '../finding-instances.ts';
import type { Severity } from '../health-score.ts';

/** A finding that belongs to the site, not a page: it scales the whole score by its share. */
export interface SiteLevelFinding {
  ruleId: string;
  severity?: Severity;
  /** What it is about: the robots.txt or sitemap URL, or the start URL. */
  url: string;
  /** a(k) of the health score: 1 for yes/no findings. */
  share: number;
  count: number;
  samples: string[];
  /** The instances past the samples (finding-instances.ts). */
  more?: string[];
  detail: string;
}

/** What the crawl found about the URLs its sitemaps listed. */
export interface SitemapCoverage {
  /** Listed URLs of this origin that were fetched. */
  listedFetched: number;
  /** Of those, answering other than 2xx (with their URLs, up to MAX_INSTANCES). */
  listedNot200: number;
  listedNot200Samples: string[];
  /** Listed 2xx HTML pages that are noindex or canonicalized elsewhere. */
  listedNonIndexable: number;
  listedNonIndexableSamples: string[];
  /** Indexable pages crawled, and those of them not listed in a sitemap. */
  indexablePages: number;
  indexableUnlisted: number;
  indexableUnlistedSamples: string[];
}

const SITEMAP_MAX_URLS = 50_000;

/** The robots, sitemap and http→https checks of §1, from what the crawl's start and end learnt and what it found. */
export function siteLevelFindings(facts: SiteFacts, coverage: SitemapCoverage): SiteLevelFinding[] {
  const findings: SiteLevelFinding[] = [];
  const robots = facts.robots;
  if (robots.status === 'missing' && (robots.httpStatus === 404 || robots.httpStatus === 410)) {
    findings.push({
      ruleId: 'robots/missing',
      url: robots.url,
      share: 1,
      count: 1,
      samples: [robots.url],
      detail: `answered ${robots.httpStatus}`,
    });
  } else if (robots.status === 'unreachable' || robots.status === 'error') {
    const detail = robots.httpStatus === null ? 'no answer' : `answered ${robots.httpStatus}`;
    findings.push({ ruleId: 'robots/unreachable', url: robots.url, share: 1, count: 1, samples: [robots.url], detail });
  } else if (robots.blocksAll) {
    findings.push({
      ruleId: 'robots/blocks-all',
      url: robots.url,
      share: 1,
      count: 1,
      samples: [robots.url],
      detail: 'Disallow: / applies to all crawlers',
    });
  }
  const problems = robots.status === 'ok' ? robots.problems : undefined;
  if (problems && problems.count > 0) {
    const detail = `${problems.count} ${problems.count === 1 ? 'line' : 'lines'} that crawlers cannot use`;
    findings.push({ ruleId: 'robots/invalid', url: robots.url, share: 1, count: problems.count, samples: problems.samples, detail });
  }

  const twins = facts.httpTwins;
  if (twins && twins.notRedirected > 0) {
    findings.push({
      ruleId: 'redirects/http-not-redirected',
      url: twins.url,
      share: twins.notRedirected / twins.checked,
      count: twins.notRedirected,
      samples: twins.samples,
      detail: `${twins.notRedirected} of ${twins.checked} http:// URLs asked`,
    });
  }

  const sitemaps = facts.sitemaps;
  if (!sitemaps) return findings;
  const answered = sitemaps.files.some((file) => file.status >= 200 && file.status < 300);
  const usable = sitemaps.files.filter((file) => file.status >= 200 && file.status < 300 && file.kind !== 'invalid');
  // A sitemap robots.txt names but that does not answer is broken, not missing.
  if (!answered && !sitemaps.fromRobots) {
    findings.push({
      ruleId: 'sitemaps/missing',
      url: sitemaps.tried[0] ?? robots.url,
      share: 1,
      count: 1,
      ...keptInstances(sitemaps.tried),
      detail: 'no sitemap at /sitemap.xml or in robots.txt',
    });
  } else {
    const problems: string[] = [];
    let bad = 0;
    let firstBad: string | undefined;
    for (const file of sitemaps.files) {
      const reason =
        file.status === 0
          ? 'no answer'
          : file.status >= 400
            ? `answered ${file.status}`
            : file.kind === 'invalid'
              ? (file.error ?? 'not a sitemap')
              : file.namespace !== undefined && file.namespace !== 'http://www.sitemaps.org/schemas/sitemap/0.9'
                ? `wrong namespace ${file.namespace}`
                : file.urlCount > SITEMAP_MAX_URLS
                  ? `${file.urlCount} URLs (limit ${SITEMAP_MAX_URLS})`
                  : null;
      if (reason) {
        bad += 1;
        firstBad ??= file.url;
        if (problems.length < MAX_INSTANCES) problems.push(`${file.url}: ${reason}`);
      }
    }
    if (sitemaps.otherOriginUrls > 0) problems.push(`${sitemaps.otherOriginUrls} URLs on another host`);
    if (bad > 0 || sitemaps.otherOriginUrls > 0) {
      const share = Math.min(
        1,
        Math.max(bad / Math.max(1, sitemaps.filesRead), sitemaps.otherOriginUrls / Math.max(1, sitemaps.listedUrls)),
      );
      findings.push({
        ruleId: 'sitemaps/invalid',
        url: firstBad ?? sitemaps.tried[0] ?? robots.url,
        share,
        count: bad + (sitemaps.otherOriginUrls > 0 ? 1 : 0),
        ...keptInstances(problems),
        detail: problems[0] ?? '',
      });
    }
  }
  if (coverage.listedNot200 > 0) {
    findings.push({
      ruleId: 'sitemaps/non-200-url',
      url: sitemaps.tried[0] ?? robots.url,
      share: coverage.listedNot200 / Math.max(1, coverage.listedFetched),
      count: coverage.listedNot200,
      ...keptInstances(coverage.listedNot200Samples),
      detail: `${coverage.listedNot200} of ${coverage.listedFetched} listed URLs`,
    });
  }
  if (coverage.listedNonIndexable > 0) {
    findings.push({
      ruleId: 'sitemaps/non-indexable-url',
      url: sitemaps.tried[0] ?? robots.url,
      share: coverage.listedNonIndexable / Math.max(1, coverage.listedFetched),
      count: coverage.listedNonIndexable,
      ...keptInstances(coverage.listedNonIndexableSamples),
      detail: `${coverage.listedNonIndexable} of ${coverage.listedFetched} listed URLs`,
    });
  }
  const gap = coverage.indexableUnlisted;
  if (usable.length > 0 && coverage.indexablePages > 0 && (gap > 5 || gap / coverage.indexablePages > 0.1)) {
    findings.push({
      ruleId: 'sitemaps/coverage-gap',
      url: sitemaps.tried[0] ?? robots.url,
      share: gap / coverage.indexablePages,
      count: gap,
      ...keptInstances(coverage.indexableUnlistedSamples),
      detail: `${gap} of ${coverage.indexablePages} indexable pages are not listed`,
    });
  }
  return findings;
}
