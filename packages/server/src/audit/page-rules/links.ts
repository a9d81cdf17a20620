import type { LinkFact } from '../../page-facts/page-facts.ts';
import type { PageRule } from '../rule.ts';
import { htmlCheck } from './html-check.ts';
import { internalLinks } from './internal-links.ts';
import { quantity, verdict } from './verdict.ts';

/** audit-checks.md §1: SEOnaut and squirrelscan both flag more than 100 internal links. */
const MAX_INTERNAL_LINKS = 100;
/** Link texts that say nothing about the target once trimmed of punctuation ("Read more »"). */
const GENERIC_TEXTS = new Set([
  'click',
  'click here',
  'click this',
  'here',
  'right here',
  'this',
  'this page',
  'this link',
  'link',
  'go',
  'start',
  'continue',
  'more',
  'read more',
  'learn more',
  'see more',
  'view more',
  'find out more',
  'more info',
  'more information',
  'info',
  'details',
  'view',
]);
const BARE_URL = /^(?:https?:\/\/|www\.)\S+$/i;
const JAVASCRIPT_VOID = /^javascript:void\(?0\)?;?$/i;
/** An href whose first character past whitespace starts none of mailto:, javascript: and file:. */
const PLAIN_HREF = /^\s*[^\sfjm]/i;

/** Whether a serialized URL may have a local host name: hosts are serialized lower-cased, IPv4 in dotted decimal. */
const MAYBE_LOCAL = /localhost|127\.|\[::1\]|0\.0\.0\.0/;

/** `localhost`, `*.localhost` (RFC 6761), 127.0.0.0/8, ::1 and 0.0.0.0: addresses only the author's machine answers. */
function isLocalHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname) ||
    hostname === '[::1]' ||
    hostname === '0.0.0.0'
  );
}

function isGeneric(text: string): boolean {
  const words = text.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  return GENERIC_TEXTS.has(words) || BARE_URL.test(text.trim());
}

/** Why crawlers cannot follow this `<a>`, or null when they can. */
function uncrawlableReason(link: LinkFact): string | null {
  // Lighthouse's crawlable-anchors: an element with a role is acting as a button, not a link.
  if (link.role !== null) return null;
  if (PLAIN_HREF.test(link.href)) return link.scheme === null ? 'unparsable href' : null;
  const href = link.href.replace(/\s/g, '');
  if (/^mailto:/i.test(href)) return null;
  if (href === '') return 'empty href';
  if (JAVASCRIPT_VOID.test(href)) return 'javascript:void(0)';
  if (/^file:/i.test(href)) return 'file: URL';
  if (link.scheme === null) return 'unparsable href';
  return null;
}

export const linkRules: readonly PageRule[] = [
  {
    id: 'links/dead-end',
    category: 'links',
    severity: 'notice',
    scope: 'page',
    title: 'Page links to no other page of the site',
    explanation:
      'Visitors who land here have nowhere on your site to go next, and crawlers cannot discover more pages from it. Search engines also pass no value on from a page without links.',
    fix: 'Add links to related pages, your main sections or the home page, for example in a header, footer or "related content" block.',
    check: htmlCheck((facts, page) =>
      internalLinks(facts, page).length === 0 ? verdict([page.url], { detail: '0 internal links' }) : null,
    ),
  },
  {
    id: 'links/too-many',
    category: 'links',
    severity: 'notice',
    scope: 'page',
    title: 'Page has more than 100 internal links',
    explanation:
      'A very long list of links dilutes the value each one passes on and makes the important ones hard to find, for people and for search engines. It often comes from mega-menus or tag clouds repeated on every page.',
    fix: 'Trim navigation and footer menus to the links visitors use, and move long lists (all tags, all products) to dedicated index pages.',
    check: htmlCheck((facts, page) => {
      const count = internalLinks(facts, page).length;
      return count > MAX_INTERNAL_LINKS ? verdict([], { count, detail: quantity(count, 'internal link') }) : null;
    }),
  },
  {
    id: 'links/internal-nofollow',
    category: 'links',
    severity: 'warning',
    scope: 'page',
    title: 'Internal links are nofollow',
    explanation:
      "nofollow tells search engines not to follow a link or pass value through it. On links to your own pages it hides those pages from crawlers and wastes the value of your site's structure.",
    fix: 'Remove rel="nofollow" from links to your own pages, and remove nofollow from the page\'s robots meta tag or X-Robots-Tag header.',
    check: htmlCheck((facts, page) => {
      const internal = internalLinks(facts, page);
      if (facts.robots.combined.nofollow && internal.length > 0) {
        return verdict(
          internal.map((link) => link.href),
          { detail: `the page is nofollow: ${quantity(internal.length, 'internal link')} not followed` },
        );
      }
      const nofollow = internal.filter((link) => link.rel.includes('nofollow'));
      return verdict(
        nofollow.map((link) => link.href),
        { detail: `${quantity(nofollow.length, 'internal link')} with rel=nofollow` },
      );
    }),
  },
  {
    id: 'links/insecure-internal',
    category: 'links',
    severity: 'warning',
    scope: 'page',
    title: 'Secure page links to http:// pages of the site',
    explanation:
      'Links to the http:// version of your own pages send visitors through an extra redirect, or worse, to an unencrypted page. They also signal to search engines that both versions exist.',
    fix: 'Change these links to https:// (or to relative links such as /about), typically in templates, menus or content copied from the old site.',
    check: htmlCheck((facts, page) => {
      if (!facts.url.startsWith('https:')) return null;
      const host = URL.parse(page.origin)?.hostname;
      const insecure = facts.links.filter((link) => link.url?.startsWith('http:') && URL.parse(link.url)?.hostname === host);
      return verdict(insecure.map((link) => link.url as string));
    }),
  },
  {
    id: 'links/localhost',
    category: 'links',
    severity: 'error',
    scope: 'page',
    title: 'Links point to localhost',
    explanation:
      'These links point to an address that only exists on the computer of whoever wrote them (localhost or 127.0.0.1). For every visitor they are broken.',
    fix: 'Replace them with links to the live site; they usually come from content or settings copied from a development or staging copy.',
    check: htmlCheck((facts, page) => {
      // A crawl of a development server links to itself legitimately.
      const site = URL.parse(page.origin);
      if (site !== null && isLocalHost(site.hostname)) return null;
      const local = facts.links.filter(
        (link) => link.url !== null && MAYBE_LOCAL.test(link.url) && isLocalHost(URL.parse(link.url)?.hostname ?? ''),
      );
      return verdict(local.map((link) => link.url as string));
    }),
  },
  {
    id: 'links/non-descriptive-text',
    category: 'links',
    severity: 'notice',
    scope: 'page',
    title: 'Links have generic text',
    explanation:
      'Link text such as "click here" or "read more" says nothing about where the link goes. Screen-reader users who list the links on a page, and search engines, rely on that text to understand the target.',
    fix: 'Rewrite the link text to name the destination, for example "Read our pricing guide" instead of "Read more".',
    check: htmlCheck((facts) => {
      if (facts.robots.combined.nofollow) return null;
      const generic = facts.links.filter(
        (link) =>
          link.url !== null &&
          !link.samePage &&
          !link.inNoscript &&
          !link.rel.includes('nofollow') &&
          link.text !== '' &&
          isGeneric(link.text),
      );
      return verdict(generic.map((link) => `"${link.text}" → ${link.href}`));
    }),
  },
  {
    id: 'links/uncrawlable',
    category: 'links',
    severity: 'warning',
    scope: 'page',
    title: 'Links cannot be followed by crawlers',
    explanation:
      'Search engines only follow links with a real web address in href. Links that are empty, use javascript:void(0), point to a file: path, or cannot be parsed lead nowhere for them, and the pages behind them may never be found.',
    fix: 'Give each link a real URL in href (and keep any JavaScript as an enhancement), or use a <button> for actions that are not navigation.',
    check: htmlCheck((facts) => {
      const found: string[] = [];
      const reasons = new Set<string>();
      for (const link of facts.links) {
        const reason = uncrawlableReason(link);
        if (reason === null) continue;
        found.push(link.href.trim() === '' ? `(empty href) "${link.text}"` : link.href);
        reasons.add(reason);
      }
      return verdict(found, { detail: [...reasons].join(', ') });
    }),
  },
];
