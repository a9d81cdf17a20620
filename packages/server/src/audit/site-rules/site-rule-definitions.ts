import type { RuleDefinition } from '../rule.ts';

type SiteRule = RuleDefinition & { scope: 'site' };

/**
 * The catalog's site-scope checks (audit-checks.md §1): each needs other URLs of the crawl,
 * so they run when the report is built. Those that concern particular pages (broken links,
 * duplicates, orphans…) land on those pages; robots and sitemap findings belong to the site.
 */
export const siteRuleDefinitions = [
  {
    id: 'redirects/linked-redirect',
    category: 'redirects',
    severity: 'warning',
    scope: 'site',
    title: 'Page links to a redirect',
    explanation:
      'Each link to a redirecting URL costs visitors and crawlers an extra round trip, and spends crawl budget on a URL that is not the real page.',
    fix: 'Point the link straight at the final URL of the redirect.',
  },
  {
    id: 'redirects/chain',
    category: 'redirects',
    severity: 'warning',
    scope: 'site',
    title: 'Page links into a redirect chain',
    explanation:
      'A redirect that leads to another redirect makes every visit slower, and search engines stop following long chains (Google after about ten hops), so the target may never be reached.',
    fix: 'Make the first redirect point directly at the final URL, and update links to use the final URL.',
  },
  {
    id: 'redirects/loop',
    category: 'redirects',
    severity: 'error',
    scope: 'site',
    title: 'Page links into a redirect loop',
    explanation:
      'The linked URL redirects back to a URL already visited (or through more than ten hops), so no browser or crawler ever reaches a page.',
    fix: 'Break the loop: decide which URL is the real page, make it answer 200, and redirect the others to it once.',
  },
  {
    id: 'redirects/http-not-redirected',
    category: 'redirects',
    severity: 'warning',
    scope: 'site',
    title: 'http:// addresses are not redirected to https',
    explanation:
      'People who type the address, and old links, reach the http:// form of the site. Unless it answers with a permanent redirect (301 or 308) to the same page over https, they browse without encryption, and search engines may index both forms. Loupe asks the http:// form of the start URL and of up to 19 other pages, within 20 seconds; an http:// address that does not answer at all is not counted.',
    fix: 'Make the server answer every http:// request with a 301 (or 308) to the same path on https://, and add an HSTS header on the https answers.',
  },
  {
    id: 'indexability/blocked-by-robots',
    category: 'indexability',
    severity: 'warning',
    scope: 'site',
    title: 'Page links to URLs blocked by robots.txt',
    explanation:
      'Search engines will not crawl the linked URLs, so their content cannot be indexed, yet they may still appear in results as bare links.',
    fix: 'If the linked pages should rank, allow them in robots.txt; if not, stop linking to them or use noindex instead of a robots.txt block.',
  },
  {
    id: 'indexability/noindex-unseen',
    category: 'indexability',
    severity: 'notice',
    scope: 'site',
    title: 'noindex on a URL that robots.txt blocks',
    explanation:
      'Search engines do not fetch URLs that robots.txt disallows, so they never read the noindex on them, and may still list the bare URL when other sites link to it. Loupe sees the noindex only on URLs it fetched: in a crawl with respectRobots off, or where robots.txt lets Loupe in while it keeps other crawlers out.',
    fix: 'To keep the page out of search results, allow it in robots.txt so the noindex can be read; to keep crawlers away only, the noindex is not needed.',
  },
  {
    id: 'titles/duplicate',
    category: 'titles',
    severity: 'warning',
    scope: 'site',
    title: 'Title shared with other pages',
    explanation:
      'Indexable pages with the same title (in the same language) compete with each other in search results and are hard to tell apart for searchers.',
    fix: 'Give each page a title that says what is particular to it; if the pages are really the same, canonicalize them to one.',
  },
  {
    id: 'descriptions/duplicate',
    category: 'descriptions',
    severity: 'warning',
    scope: 'site',
    title: 'Meta description shared with other pages',
    explanation: 'Search engines tend to ignore descriptions that repeat across pages and write their own snippet instead.',
    fix: 'Write a description for each page that summarizes its own content, or remove the shared one.',
  },
  {
    id: 'content/duplicate',
    category: 'content',
    severity: 'warning',
    scope: 'site',
    title: 'Same content as other pages',
    explanation:
      'Indexable pages with identical main content (their text without the menus, headers, footers and sidebars the site repeats) split links and ranking signals between copies, and search engines pick one copy on their own.',
    fix: 'Keep one URL for the content: redirect or canonicalize the copies to it.',
  },
  {
    id: 'content/near-duplicate',
    category: 'content',
    severity: 'notice',
    scope: 'site',
    title: 'Nearly the same content as other pages',
    explanation:
      'The main content of this page (its text without the menus, headers, footers and sidebars the site repeats) differs from other indexable pages by only a few words (their SimHashes are within 3 of 64 bits), so search engines may treat them as duplicates and show only one.',
    fix: 'Make each page say something of its own, or merge the near-copies into one page and redirect or canonicalize the others to it.',
  },
  {
    id: 'canonical/target-not-200',
    category: 'canonical',
    severity: 'error',
    scope: 'site',
    title: 'Canonical points to a URL that does not answer 200',
    explanation:
      'A canonical target that redirects, is missing or fails cannot be the indexed version, so search engines ignore the hint and may index the wrong URL.',
    fix: 'Point the canonical at the final, working URL of the page.',
  },
  {
    id: 'canonical/target-not-indexable',
    category: 'canonical',
    severity: 'error',
    scope: 'site',
    title: 'Canonical points to a page that cannot be indexed',
    explanation:
      'The canonical target is noindex, blocked by robots.txt, or canonicalizes to yet another URL, which sends contradictory signals: search engines may drop both pages.',
    fix: 'Canonicalize to an indexable page that canonicalizes to itself.',
  },
  {
    id: 'hreflang/missing-return',
    category: 'hreflang',
    severity: 'warning',
    scope: 'site',
    title: 'Hreflang alternate does not link back',
    explanation:
      'Hreflang annotations must be confirmed from both sides; when the alternate does not list this page in return, search engines ignore the pair.',
    fix: 'Add a matching hreflang link back to this page on each listed alternate.',
  },
  {
    id: 'hreflang/bad-target',
    category: 'hreflang',
    severity: 'warning',
    scope: 'site',
    title: 'Hreflang alternate is not an indexable page',
    explanation: 'An alternate that redirects, fails, is noindex or canonicalizes elsewhere cannot be shown to searchers in its language.',
    fix: 'List only final, indexable URLs in hreflang annotations.',
  },
  {
    id: 'hreflang/conflicting-codes',
    category: 'hreflang',
    severity: 'warning',
    scope: 'site',
    title: 'Page is given conflicting hreflang languages',
    explanation:
      "The site's hreflang annotations call this page two different languages, or the code it gives itself contradicts its <html lang>. Search engines then cannot tell which audience the page is for, and may ignore the whole set.",
    fix: "Give each URL one language in every hreflang annotation that names it, matching the page's own hreflang and its <html lang>.",
  },
  {
    id: 'links/broken-internal',
    category: 'links',
    severity: 'error',
    scope: 'site',
    title: 'Broken internal links',
    explanation:
      'Links to pages of this site that answer 404, 410, a server error or nothing at all lead visitors to a dead end and waste crawl budget.',
    fix: 'Fix or remove each broken link, or restore the missing pages (or redirect them to their replacements).',
  },
  {
    id: 'links/broken-external',
    category: 'links',
    severity: 'warning',
    scope: 'site',
    title: 'Broken external links',
    explanation:
      'Links to other sites that no longer answer frustrate visitors and make the page look neglected. 401, 403 and 429 answers are not counted: they cannot be verified.',
    fix: "Update each link to the resource's new address, link to an archived copy, or remove it.",
  },
  {
    id: 'links/orphan',
    category: 'links',
    severity: 'warning',
    scope: 'site',
    title: 'Orphan page: in the sitemap but not linked',
    explanation: 'No crawled page links to this page, so visitors cannot navigate to it and search engines see it as unimportant.',
    fix: 'Link to it from related pages or navigation, or remove it from the sitemap if it is obsolete.',
  },
  {
    id: 'links/deep',
    category: 'links',
    severity: 'notice',
    scope: 'site',
    title: 'Page is more than four clicks from the start',
    explanation: 'Pages buried deep in the link structure are crawled less often and get less internal link weight.',
    fix: 'Link to the page from higher-level pages, hubs or navigation so it is reachable in four clicks or fewer.',
  },
  {
    id: 'images/broken',
    category: 'images',
    severity: 'error',
    scope: 'site',
    title: 'Broken images',
    explanation: 'Images whose URL answers an error or nothing show as broken to visitors and cannot appear in image search.',
    fix: 'Fix the image URLs or restore the files; remove images that are gone for good.',
  },
  {
    id: 'images/oversized-file',
    category: 'images',
    severity: 'warning',
    scope: 'site',
    title: 'Images larger than 200 KB',
    explanation: 'Heavy images slow pages down, especially on mobile connections; over 1 MB the effect on load time is severe.',
    fix: "Resize images to the size they are shown at and serve modern formats (WebP, AVIF) at a sensible quality — Loupe's image CDN does both.",
  },
  {
    id: 'sitemaps/missing',
    category: 'sitemaps',
    severity: 'warning',
    scope: 'site',
    title: 'No XML sitemap found',
    explanation:
      'Without a sitemap search engines rely on links alone to find pages, so new or weakly linked pages are discovered late or never.',
    fix: 'Publish a sitemap at /sitemap.xml listing the indexable pages, and name it in robots.txt with a Sitemap: line.',
  },
  {
    id: 'sitemaps/invalid',
    category: 'sitemaps',
    severity: 'error',
    scope: 'site',
    title: 'Sitemap cannot be used',
    explanation:
      'A sitemap that fails to load, does not parse, uses the wrong namespace, is too large or lists URLs of another host is ignored by search engines in whole or in part.',
    fix: "Serve the sitemap with status 200 as valid XML in the sitemaps.org namespace, within 50,000 URLs and 50 MB, listing only this host's URLs.",
  },
  {
    id: 'sitemaps/non-200-url',
    category: 'sitemaps',
    severity: 'warning',
    scope: 'site',
    title: 'Sitemap lists URLs that do not answer 200',
    explanation:
      "A sitemap should list only final, working URLs; redirects and errors in it waste crawl budget and erode search engines' trust in the file.",
    fix: 'Remove or replace the listed URLs that redirect or fail.',
  },
  {
    id: 'sitemaps/non-indexable-url',
    category: 'sitemaps',
    severity: 'warning',
    scope: 'site',
    title: 'Sitemap lists pages that cannot be indexed',
    explanation:
      'Listing noindex or canonicalized pages asks search engines to index pages that say they must not be, a contradiction they resolve on their own.',
    fix: 'List only indexable, self-canonical pages in the sitemap.',
  },
  {
    id: 'sitemaps/coverage-gap',
    category: 'sitemaps',
    severity: 'notice',
    scope: 'site',
    title: 'Indexable pages missing from the sitemap',
    explanation:
      'More than 10 % (or more than five) of the indexable pages crawled are not in the sitemap, so the sitemap does not help search engines find them.',
    fix: "Generate the sitemap from the same source as the site's pages so every indexable page is listed.",
  },
  {
    id: 'robots/missing',
    category: 'robots',
    severity: 'notice',
    scope: 'site',
    title: 'No robots.txt',
    explanation:
      'Without robots.txt every URL may be crawled and there is no place to point crawlers at the sitemap. It is not an error, but most sites benefit from one.',
    fix: 'Publish /robots.txt with the rules you need and a Sitemap: line.',
  },
  {
    id: 'robots/unreachable',
    category: 'robots',
    severity: 'error',
    scope: 'site',
    title: 'robots.txt cannot be read',
    explanation:
      'When robots.txt answers a server error, 429 or nothing, Google stops crawling the whole site until it can read the file again.',
    fix: 'Make /robots.txt answer 200 (or 404 if you want no rules) reliably.',
  },
  {
    id: 'robots/invalid',
    category: 'robots',
    severity: 'warning',
    scope: 'site',
    title: 'robots.txt has lines crawlers cannot use',
    explanation:
      'Crawlers skip a robots.txt line they cannot parse: one without a colon, an unknown or misspelt directive, a rule before any User-agent, a pattern that does not start with / or *, or a Sitemap that is not a URL. The rule that line was meant to make then does not hold.',
    fix: 'Correct the lines listed: spell the directive right (User-agent, Allow, Disallow, Sitemap), start each group with a User-agent line, begin patterns with / or *, and give Sitemap an absolute URL.',
  },
  {
    id: 'robots/blocks-all',
    category: 'robots',
    severity: 'error',
    weight: 0.9,
    scope: 'site',
    title: 'robots.txt blocks the whole site',
    explanation: 'Disallow: / for all crawlers keeps every page out of search engines. This is usually a leftover from a staging site.',
    fix: 'Remove the Disallow: / rule for * (and Googlebot), or narrow it to the paths that must stay private.',
  },
] as const satisfies readonly SiteRule[];

export type SiteRuleId = (typeof siteRuleDefinitions)[number]['id'];
