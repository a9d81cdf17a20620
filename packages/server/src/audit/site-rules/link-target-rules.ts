import { notChecked } from '../../crawl/link-outcome.ts';
import { keptInstances, MAX_INSTANCES } from '../finding-instances.ts';
import type { Finding } from '../rule.ts';

/** Where a chain of the crawl's own redirect rows ends. */
export interface ChainEnd {
  url: string;
  status: number | null;
  fetchError: string | null;
  indexable: boolean | null;
}

/** One outgoing reference of a page whose target the crawl fetched or checked. */
export interface LinkTarget {
  kind: 'link' | 'image' | 'canonical' | 'hreflang';
  url: string;
  /** page: an internal URL crawled; external: another site's URL, checked; asset: an image, checked. */
  targetKind: 'page' | 'external' | 'asset';
  internal: boolean;
  status: number | null;
  fetchError: string | null;
  bytes: number | null;
  indexable: boolean | null;
  /** For an internal URL that redirects: the hops followed through the crawl's rows, and where they end. */
  redirect: { hops: number; loop: boolean; end: ChainEnd | null } | null;
  /** For an hreflang target: whether it lists the page in return (null when unknown). */
  linksBack: boolean | null;
}

/** 401, 403, 429 and 999 say "not for you", not "gone": unverifiable, never broken (§1). */
const UNVERIFIABLE = new Set([401, 403, 429, 999]);
const IMAGE_WARNING_BYTES = 200 * 1024;
const IMAGE_ERROR_BYTES = 1024 * 1024;
/** A chain this long is an error rather than a warning. */
const CHAIN_ERROR_HOPS = 5;

function brokenAnswer(status: number | null, fetchError: string | null): boolean {
  if (status === null) return fetchError !== null && fetchError !== 'blocked-by-robots' && !notChecked(fetchError);
  return status === 404 || status === 410 || (status >= 500 && status < 600);
}

function failed(status: number | null, fetchError: string | null): boolean {
  if (status === null) return fetchError !== null && fetchError !== 'blocked-by-robots' && !notChecked(fetchError);
  return status >= 400 && !UNVERIFIABLE.has(status);
}

/** Where a target really ends: through its redirects when it has them. */
function finalAnswer(target: LinkTarget): { status: number | null; fetchError: string | null; indexable: boolean | null } {
  const end = target.redirect?.end;
  return end ? end : { status: target.status, fetchError: target.fetchError, indexable: target.indexable };
}

class FindingTally {
  readonly #findings = new Map<string, { finding: Finding; instances: Set<string> }>();

  add(ruleId: string, instance: string, severity?: Finding['severity']): void {
    let entry = this.#findings.get(ruleId);
    if (!entry) {
      entry = { finding: { ruleId, count: 0, samples: [] }, instances: new Set() };
      this.#findings.set(ruleId, entry);
    }
    entry.finding.count += 1;
    if (entry.instances.size < MAX_INSTANCES) entry.instances.add(instance);
    if (severity === 'error') entry.finding.severity = 'error';
  }

  detail(ruleId: string, text: (finding: Finding) => string): void {
    const entry = this.#findings.get(ruleId);
    if (entry) entry.finding.detail = text(entry.finding);
  }

  list(): Finding[] {
    return [...this.#findings.values()].map(({ finding, instances }) => ({ ...finding, ...keptInstances([...instances]) }));
  }
}

/**
 * The site checks decided by what a page's links, images, canonical and hreflang
 * alternates lead to. One finding per rule and page; the instances are counted.
 */
export function linkTargetFindings(targets: readonly LinkTarget[]): Finding[] {
  const tally = new FindingTally();
  let largestImage = 0;
  let longestChain = 0;
  for (const target of targets) {
    const final = finalAnswer(target);
    switch (target.kind) {
      case 'link':
        if (target.internal && target.targetKind === 'page') {
          if (target.fetchError === 'blocked-by-robots') tally.add('indexability/blocked-by-robots', target.url);
          // A link into a chain or a loop is one root cause: it counts under that rule, not again as a linked redirect.
          if (target.redirect?.loop) tally.add('redirects/loop', target.url);
          else if (target.redirect && target.redirect.hops >= 2) {
            longestChain = Math.max(longestChain, target.redirect.hops);
            tally.add('redirects/chain', target.url, target.redirect.hops >= CHAIN_ERROR_HOPS ? 'error' : undefined);
          } else if (target.redirect) tally.add('redirects/linked-redirect', target.url);
          if (!target.redirect?.loop && brokenAnswer(final.status, final.fetchError)) tally.add('links/broken-internal', target.url);
        } else if (
          target.targetKind === 'external' &&
          final.fetchError !== 'blocked-address' &&
          brokenAnswer(final.status, final.fetchError)
        ) {
          tally.add('links/broken-external', target.url);
        }
        break;
      case 'image':
        if (failed(final.status, final.fetchError) && final.fetchError !== 'blocked-address') tally.add('images/broken', target.url);
        else if (target.internal && target.bytes !== null && target.bytes > IMAGE_WARNING_BYTES) {
          largestImage = Math.max(largestImage, target.bytes);
          tally.add('images/oversized-file', target.url, target.bytes > IMAGE_ERROR_BYTES ? 'error' : undefined);
        }
        break;
      case 'canonical':
        if (!target.internal || target.targetKind !== 'page' || (target.status === null && target.fetchError === null)) break;
        if (target.redirect || failed(target.status, target.fetchError) || (target.status !== null && target.status >= 400)) {
          tally.add('canonical/target-not-200', target.url);
        } else if (target.indexable === false || target.fetchError === 'blocked-by-robots') {
          tally.add('canonical/target-not-indexable', target.url);
        }
        break;
      case 'hreflang':
        if (!target.internal || target.targetKind !== 'page') break;
        if (target.redirect || failed(target.status, target.fetchError) || target.indexable === false)
          tally.add('hreflang/bad-target', target.url);
        // Only an alternate read as an indexable page has known hreflang links to compare.
        else if (target.linksBack === false && target.indexable === true) tally.add('hreflang/missing-return', target.url);
        break;
    }
  }
  tally.detail('images/oversized-file', () => `largest ${(largestImage / 1024).toFixed(0)} KB`);
  tally.detail('redirects/chain', () => `longest ${longestChain} hops`);
  for (const rule of ['links/broken-internal', 'links/broken-external', 'images/broken', 'redirects/linked-redirect']) {
    tally.detail(rule, (finding) => `${finding.count} ${finding.count === 1 ? 'URL' : 'URLs'}`);
  }
  return tally.list();
}
