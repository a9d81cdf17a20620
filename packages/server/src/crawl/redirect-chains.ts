/** One internal URL that answered a redirect, and the url_key of where it sent the crawler. */
export interface RedirectHop {
  key: string;
  nextKey: string;
}

export type ChainFailure = 'loop' | 'too-many-redirects';

/**
 * The redirects whose chain leads nowhere, as the page fetcher would have said had it followed
 * them (page-fetcher.ts): 'loop' when the chain comes back to a URL it passed, else
 * 'too-many-redirects' past `maxRedirects` hops. A site crawl fetches each hop as a URL of its
 * own, so this is known only once the hops are all fetched. Chains ending at a URL that is no
 * redirect of `hops` (a page, a URL not fetched) are left alone.
 */
export function brokenChains(hops: readonly RedirectHop[], maxRedirects: number): Map<string, ChainFailure> {
  const next = new Map(hops.map((hop) => [hop.key, hop.nextKey]));
  const failures = new Map<string, ChainFailure>();
  for (const { key } of hops) {
    const seen = new Set([key]);
    let at = key;
    for (let redirects = 1; ; redirects++) {
      const to = next.get(at);
      if (to === undefined) break;
      if (seen.has(to)) {
        failures.set(key, 'loop');
        break;
      }
      if (redirects > maxRedirects) {
        failures.set(key, 'too-many-redirects');
        break;
      }
      seen.add(to);
      at = to;
    }
  }
  return failures;
}
