import type { FixtureSite } from './fixture-sites.ts';
import { type HtmlPageOptions, htmlPage } from './html-page.ts';
import { ORIGIN, type PageSpec } from './test-site.ts';

/** What every unknown path answers on the soft-404 site: 200, the same page whatever the path. */
const ERROR_TEMPLATE = htmlPage({
  title: 'The Tea Room',
  h1: 'Oops',
  canonical: null,
  body: '<p>We looked in every cupboard of the shop and could not find what you asked for. Try the menu above, or start again from the home page.</p>',
});

/**
 * The checks that need more than the pages themselves: a site that answers 200 for unknown
 * paths (`status/soft-404` through the probe), noindex pages behind robots.txt
 * (`indexability/noindex-unseen`), and hreflang annotations that disagree on languages
 * (`hreflang/conflicting-codes`). Each check has pages that must trip it and, next to them,
 * the nearest pages that must not.
 */
export function probeChecksSite(options: { loupeBotGroup?: boolean } = {}) {
  const known = {
    home: '/',
    soft404: {
      /** Linked, not a page of the site: the fallback answers it with the error template. */
      linkedMissing: '/teas/discontinued',
      /** A real page whose h1 says the tea is gone (the wording part of the check). */
      soldOut: '/teas/sold-out',
      /** A real page. */
      sencha: '/teas/sencha',
      withSoft404: ['/teas/discontinued', '/teas/sold-out'],
    },
    robots: {
      /** Under Disallow: /private/, with meta robots noindex. */
      metaNoindex: '/private/meta-noindex',
      /** Under Disallow: /private/, with X-Robots-Tag: noindex. */
      headerNoindex: '/private/header-noindex',
      /** Under Disallow: /private/, indexable. */
      plain: '/private/plain',
      /** Allowed, noindex: the noindex is seen. */
      publicNoindex: '/public-noindex',
      withNoindexUnseen: ['/private/header-noindex', '/private/meta-noindex'],
    },
    hreflang: {
      /** Lists en, de, and calls the French page es. */
      en: '/en/tea',
      de: '/de/tee',
      /** Calls itself fr; the English page calls it es. */
      fr: '/fr/the',
      /** Calls itself it under `<html lang="en">`. */
      it: '/it/te',
      /** Calls itself en-gb and x-default under `<html lang="en">`: no conflict. */
      enGb: '/en-gb/tea',
      withConflictingCodes: ['/fr/the', '/it/te'],
    },
  };
  const s = known.soft404;
  const r = known.robots;
  const h = known.hreflang;
  const abs = (path: string) => ORIGIN + path;
  const page = (path: string, title: string, extra: HtmlPageOptions = {}): string => htmlPage({ path, title, links: ['/'], ...extra });

  const pages: Record<string, PageSpec> = {
    '/': page('/', 'The Tea Room: soft 404s, hidden noindex and hreflang codes', {
      links: [
        s.linkedMissing,
        s.soldOut,
        s.sencha,
        r.metaNoindex,
        r.headerNoindex,
        r.plain,
        r.publicNoindex,
        h.en,
        h.de,
        h.fr,
        h.it,
        h.enGb,
      ],
    }),
    [s.soldOut]: page(s.soldOut, 'Gyokuro, shade-grown green tea', { h1: 'This tea is no longer available' }),
    [s.sencha]: page(s.sencha, 'Sencha, the everyday green tea of Japan'),

    [r.metaNoindex]: page(r.metaNoindex, 'A private page that asks not to be indexed', { robots: 'noindex' }),
    [r.headerNoindex]: {
      body: page(r.headerNoindex, 'A private page whose header asks not to be indexed'),
      headers: { 'x-robots-tag': 'noindex' },
    },
    [r.plain]: page(r.plain, 'A private page without any noindex'),
    [r.publicNoindex]: page(r.publicNoindex, 'A public page that asks not to be indexed', { robots: 'noindex' }),

    [h.en]: page(h.en, 'Green tea, the English page', { hreflang: { en: abs(h.en), de: abs(h.de), es: abs(h.fr) } }),
    [h.de]: page(h.de, 'Grüner Tee, die deutsche Seite', { lang: 'de', hreflang: { de: abs(h.de), en: abs(h.en) } }),
    [h.fr]: page(h.fr, 'Thé vert, la page française', { lang: 'fr', hreflang: { fr: abs(h.fr), en: abs(h.en) } }),
    [h.it]: page(h.it, 'Tè verde, la pagina italiana', { lang: 'en', hreflang: { it: abs(h.it) } }),
    [h.enGb]: page(h.enGb, 'Green tea, the British English page', { hreflang: { 'en-gb': abs(h.enGb), 'x-default': abs(h.enGb) } }),
  };
  const robotsTxt = [
    ...(options.loupeBotGroup ? ['User-agent: LoupeBot', 'Allow: /', ''] : []),
    'User-agent: *',
    'Disallow: /private/',
    '',
  ].join('\n');
  return {
    pages,
    robotsTxt,
    fallback: () => ERROR_TEMPLATE,
    known,
  } satisfies FixtureSite<typeof known>;
}
