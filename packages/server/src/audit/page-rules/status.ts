import type { AuditedPage, PageRule } from '../rule.ts';
import { verdict } from './verdict.ts';

/** Answers that mean "not for you" rather than "not here"; crawlie keeps them out of broken links. */
const ACCESS_DENIED = new Set([401, 403, 429, 999]);
/** The crawler's own refusal, not the site's failure. */
const BLOCKED_BY_ROBOTS = 'blocked-by-robots';
/** audit-checks.md §1 `status/soft-404`, matched on the title and the first h1. */
const NOT_FOUND_WORDING = /\b(404|not found|page (not|cannot be) found|no longer available)\b/i;

function isSiteRoot(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && parsed.pathname === '/' && parsed.search === '';
}

function statusVerdict(page: AuditedPage) {
  return verdict([page.url], { detail: `HTTP ${page.status}` });
}

export const statusRules: readonly PageRule[] = [
  {
    id: 'status/client-error',
    category: 'status',
    severity: 'error',
    scope: 'page',
    title: 'Page answers with a client error (4xx)',
    explanation:
      'Visitors and search engines who follow a link here get an error instead of the page. Search engines drop such URLs from their index, and any links pointing here are wasted.',
    fix: 'Restore the page, or redirect the URL (301) to the closest live page, and update the links that point to it.',
    check: (page) =>
      page.status !== null && page.status >= 400 && page.status <= 499 && !ACCESS_DENIED.has(page.status) ? statusVerdict(page) : null,
  },
  {
    id: 'status/server-error',
    category: 'status',
    severity: 'error',
    scope: 'page',
    title: 'Page answers with a server error (5xx)',
    explanation:
      'The server failed while building this page, so nobody can read it. Repeated server errors also make search engines crawl the whole site more slowly.',
    fix: "Check the server or application logs for this URL at the crawl's time and fix the failure; if the page is gone for good, answer 404 or 410 instead.",
    check: (page) => (page.status !== null && page.status >= 500 && page.status <= 599 ? statusVerdict(page) : null),
  },
  {
    id: 'status/fetch-failed',
    category: 'status',
    severity: 'error',
    scope: 'page',
    title: 'Page could not be fetched',
    explanation:
      'No complete HTTP answer arrived: the name did not resolve, the connection or TLS handshake failed, or the server took too long. To a visitor this looks like the site is down.',
    fix: "Open the URL yourself and check DNS, the TLS certificate and the server's response time; make sure a firewall or bot protection is not dropping the crawler.",
    check: (page) =>
      page.status === null && page.fetchError !== null && page.fetchError !== BLOCKED_BY_ROBOTS
        ? verdict([page.url], { detail: page.fetchError })
        : null,
  },
  {
    id: 'status/access-denied',
    category: 'status',
    severity: 'notice',
    // Login walls and rate limits are often intended; they are reported, not scored (§2.3).
    weight: 0,
    scope: 'page',
    title: 'Page refused the crawler (401, 403, 429 or 999)',
    explanation:
      'The server asked for a login, refused access, or limited the request rate, so the page could not be checked. If search engines get the same answer, the page will not appear in results.',
    fix: 'If the page should be public, allow the crawler (check bot protection, firewall and rate limits); if it is private, you can ignore this.',
    check: (page) => (page.status !== null && ACCESS_DENIED.has(page.status) ? statusVerdict(page) : null),
  },
  {
    id: 'status/soft-404',
    category: 'status',
    severity: 'warning',
    scope: 'page',
    title: 'Page looks like an error page but answers 200',
    explanation:
      'The page says it was not found, or shows exactly what the site shows for an address that does not exist, yet the server reports success. Search engines treat such "soft 404s" as errors anyway, and may index an empty error page under this URL.',
    fix: 'Make the server answer 404 (or 410) for pages that do not exist, or redirect the URL to a relevant live page.',
    check: (page) => {
      if (page.facts === null || page.status === null || page.status < 200 || page.status > 299) return null;
      const title = page.facts.title?.text;
      if (title !== undefined && NOT_FOUND_WORDING.test(title)) return verdict([title], { detail: 'the title reads as "not found"' });
      const h1 = page.facts.h1Texts[0];
      if (h1 !== undefined && NOT_FOUND_WORDING.test(h1)) return verdict([h1], { detail: 'the first h1 reads as "not found"' });
      const probe = page.context?.notFoundProbe;
      // A site that answers its home page for unknown paths makes the probe equal the home
      // page, which is no soft 404: the root always exists.
      if (probe && page.facts.mainText.textHash === probe.textHash && !isSiteRoot(page.finalUrl)) {
        return verdict([probe.url], { detail: 'same text as the answer to an address that does not exist' });
      }
      return null;
    },
  },
];
