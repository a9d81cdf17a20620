import type { PageRule } from '../rule.ts';
import { htmlCheck } from './html-check.ts';
import { verdict } from './verdict.ts';

export const redirectRules: readonly PageRule[] = [
  {
    id: 'redirects/redirected-url',
    category: 'redirects',
    severity: 'notice',
    scope: 'page',
    title: 'URL redirects',
    explanation:
      'This URL sends visitors on to another address. One redirect is harmless, but every hop adds a round trip, and links that point at a redirect pass on less value than links to the final page.',
    fix: 'Keep the redirect for old links and bookmarks, but change your own links, sitemap and canonicals to point straight at the final URL.',
    // The cost belongs to the pages that link here (redirects/linked-redirect); this only records the hop.
    check: (page) =>
      page.status !== null && page.status >= 300 && page.status <= 399
        ? verdict([page.finalUrl], { detail: `HTTP ${page.status} to ${page.finalUrl}` })
        : null,
  },
  {
    id: 'redirects/meta-refresh',
    category: 'redirects',
    severity: 'warning',
    scope: 'page',
    title: 'Page uses a meta refresh',
    explanation:
      'A `<meta http-equiv="refresh">` reloads or leaves the page after a delay, which disorients visitors and people using screen readers. Search engines treat it as a weak, unreliable redirect.',
    fix: 'Replace it with a server-side 301 redirect if the page has moved; if it only reloads the page, remove it and update the content another way.',
    check: htmlCheck((facts) => {
      const refresh = facts.metaRefresh;
      if (refresh === null) return null;
      const delay = refresh.delaySeconds === null ? 'no delay given' : `after ${refresh.delaySeconds} s`;
      const target = refresh.url === null ? '' : ` to ${refresh.url}`;
      return verdict(facts.metaRefreshes.instances, { detail: `refreshes ${delay}${target}`, count: facts.metaRefreshes.count });
    }),
  },
];
