import type { FixtureSite } from './fixture-sites.ts';
import { escapeHtml, type HtmlPageOptions, htmlPage } from './html-page.ts';
import { ORIGIN, type PageSpec, type SiteDefinition } from './test-site.ts';

const KB = 1024;
const MB = 1024 * 1024;

const jpeg = (bytes: number): PageSpec => ({ largeBody: bytes, contentType: 'image/jpeg', declareLength: true });

/** A `<urlset>` in `namespace`: paths get the site's origin at serve time, absolute URLs stay as given. */
function urlsetOf(urls: readonly string[], namespace = 'http://www.sitemaps.org/schemas/sitemap/0.9'): string {
  const entries = urls.map((url) => `  <url><loc>${escapeHtml(url.startsWith('/') ? ORIGIN + url : url)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${namespace}">\n${entries.join('\n')}\n</urlset>\n`;
}

/** The other origin: an image too large for the size check, which must not count it (it is not the site's). */
export function siteChecksExternalSite() {
  const known = { largeImage: '/large.jpg', largeImageBytes: 2 * MB };
  return { pages: { [known.largeImage]: jpeg(known.largeImageBytes) }, known } satisfies FixtureSite<typeof known>;
}

/**
 * The site checks no other fixture reaches through a crawl: hreflang returns and targets,
 * canonicals to non-indexable pages, heavy images, deep pages, and broken sitemaps with
 * URLs that do not answer 200. Each check has pages that must trip it and, next to them,
 * the nearest pages that must not.
 */
export function siteChecksSite(options: { externalOrigin: string }) {
  const known = {
    home: '/',
    hreflang: {
      /** Lists de and fr; de lists en back, fr does not. */
      en: '/hreflang/en',
      /** Lists en (which lists it back) and a robots-blocked alternate whose links are unknown. */
      de: '/hreflang/de',
      /** Lists only itself. */
      fr: '/hreflang/fr',
      blockedAlternate: '/private/hreflang-es',
      /** Lists a 404, a noindex page, a redirect and a canonicalised page as alternates. */
      badTargets: '/hreflang/bad',
      missing: '/hreflang/bad-de',
      noindex: '/hreflang/bad-fr',
      moved: '/hreflang/bad-es',
      movedTo: '/hreflang/bad-es-final',
      canonicalised: '/hreflang/bad-it',
      /** Pages where `hreflang/missing-return` fires, and where `hreflang/bad-target` fires. */
      withMissingReturn: ['/hreflang/en'],
      withBadTarget: ['/hreflang/bad'],
    },
    canonical: {
      toNoindex: '/canonical/to-noindex',
      noindexTarget: '/canonical/noindex-target',
      /** Canonical to `middle`, which canonicalizes to `fineTarget`. */
      toCanonicalised: '/canonical/to-canonicalised',
      middle: '/canonical/middle',
      /** Canonical to a URL that robots.txt disallows. */
      toBlocked: '/canonical/to-blocked',
      blockedTarget: '/private/canonical-target',
      /** Canonical to an indexable, self-canonical page. */
      fine: '/canonical/fine',
      fineTarget: '/canonical/fine-target',
      /** Canonical to a 404: target-not-200, not target-not-indexable. */
      toMissing: '/canonical/to-missing',
      missingTarget: '/canonical/missing-target',
      withNotIndexable: ['/canonical/to-blocked', '/canonical/to-canonicalised', '/canonical/to-noindex'],
      withNot200: ['/canonical/to-missing'],
    },
    images: {
      /** One image of 200 KB + 1 byte: a warning. */
      heavy: '/images/heavy',
      /** An image over 1 MB and the 200 KB + 1 one: an error. */
      huge: '/images/huge',
      /** An image of exactly 200 KB, a small one and the external 2 MB one: nothing. */
      light: '/images/light',
      exactly200k: '/img/exactly-200k.jpg',
      justOver200k: '/img/just-over-200k.jpg',
      overOneMegabyte: '/img/over-1mb.jpg',
      small: '/img/small.jpg',
      external: `${options.externalOrigin}/large.jpg`,
      withOversized: ['/images/heavy', '/images/huge'],
    },
    /** `/depth/1` … `/depth/6`, each linking to the next: depth n. */
    depth: ['/depth/1', '/depth/2', '/depth/3', '/depth/4', '/depth/5', '/depth/6'],
    deep: ['/depth/5', '/depth/6'],
    sitemaps: {
      /** Named in robots.txt, valid; lists `listed` and one URL of another origin. */
      main: '/sitemap.xml',
      /** Named in robots.txt: 404. */
      missing: '/sitemaps/missing.xml',
      /** Named in robots.txt: Google's 0.84 namespace. */
      wrongNamespace: '/sitemaps/old-namespace.xml',
      wrongNamespaceUri: 'http://www.google.com/schemas/sitemap/0.84',
      /** Named in robots.txt: XML that does not parse. */
      broken: '/sitemaps/broken.xml',
      otherOrigin: `${options.externalOrigin}/listed-elsewhere`,
      /** Listed URLs that answer 301, 410 and 500. */
      not200: ['/listed/moved', '/listed/gone', '/listed/error'],
      movedTo: '/listed/moved-here',
      /** Listed and fine, or listed but blocked by robots.txt (not fetched: listed, non-indexable, not non-200). */
      listedFine: '/listed/fine',
      listedBlocked: '/private/listed',
    },
  };
  const h = known.hreflang;
  const c = known.canonical;
  const i = known.images;
  const s = known.sitemaps;
  const abs = (path: string) => ORIGIN + path;
  const page = (path: string, title: string, extra: HtmlPageOptions = {}): string => htmlPage({ path, title, links: ['/'], ...extra });

  const pages: Record<string, PageSpec> = {
    '/': page('/', 'Site checks test site: hreflang, canonicals, images, depth', {
      links: [
        h.en,
        h.de,
        h.fr,
        h.badTargets,
        c.toNoindex,
        c.toCanonicalised,
        c.toBlocked,
        c.fine,
        c.toMissing,
        i.heavy,
        i.huge,
        i.light,
        known.depth[0],
      ],
    }),

    [h.en]: page(h.en, 'The English page of an hreflang set', { hreflang: { en: abs(h.en), de: abs(h.de), fr: abs(h.fr) } }),
    [h.de]: page(h.de, 'Die deutsche Seite einer hreflang-Gruppe', {
      lang: 'de',
      hreflang: { de: abs(h.de), en: abs(h.en), es: abs(h.blockedAlternate) },
    }),
    [h.fr]: page(h.fr, "La page française d'un groupe hreflang", { lang: 'fr', hreflang: { fr: abs(h.fr) } }),
    [h.blockedAlternate]: page(h.blockedAlternate, 'Una página que robots.txt bloquea', { lang: 'es' }),
    [h.badTargets]: page(h.badTargets, 'A page whose hreflang alternates are all bad', {
      hreflang: { en: abs(h.badTargets), de: abs(h.missing), fr: abs(h.noindex), es: abs(h.moved), it: abs(h.canonicalised) },
    }),
    [h.noindex]: page(h.noindex, 'Une page alternative qui demande à ne pas être indexée', {
      lang: 'fr',
      robots: 'noindex',
      hreflang: { fr: abs(h.noindex), en: abs(h.badTargets) },
    }),
    [h.moved]: { redirect: h.movedTo, status: 301 },
    [h.movedTo]: page(h.movedTo, 'La página a la que lleva una redirección', { lang: 'es' }),
    [h.canonicalised]: page(h.canonicalised, 'Una pagina alternativa canonicalizzata altrove', {
      lang: 'it',
      canonical: abs(h.badTargets),
      hreflang: { it: abs(h.canonicalised), en: abs(h.badTargets) },
    }),

    [c.toNoindex]: page(c.toNoindex, 'A page whose canonical is a noindex page', { canonical: abs(c.noindexTarget) }),
    [c.noindexTarget]: page(c.noindexTarget, 'A noindex page that another page names as canonical', { robots: 'noindex' }),
    [c.toCanonicalised]: page(c.toCanonicalised, 'A page whose canonical canonicalizes to a third page', { canonical: abs(c.middle) }),
    [c.middle]: page(c.middle, 'A canonical target that canonicalizes elsewhere itself', { canonical: abs(c.fineTarget) }),
    [c.toBlocked]: page(c.toBlocked, 'A page whose canonical is disallowed by robots.txt', { canonical: abs(c.blockedTarget) }),
    [c.blockedTarget]: page(c.blockedTarget, 'A canonical target that robots.txt keeps crawlers away from'),
    [c.fine]: page(c.fine, 'A page whose canonical is a fine indexable page', { canonical: abs(c.fineTarget) }),
    [c.fineTarget]: page(c.fineTarget, 'An indexable page that canonicalizes to itself'),
    [c.toMissing]: page(c.toMissing, 'A page whose canonical points to a missing page', { canonical: abs(c.missingTarget) }),

    [i.heavy]: page(i.heavy, 'A page with an image just over 200 KB', { images: [{ src: i.justOver200k }, { src: i.small }] }),
    [i.huge]: page(i.huge, 'A page with an image over a megabyte', { images: [{ src: i.overOneMegabyte }, { src: i.justOver200k }] }),
    [i.light]: page(i.light, 'A page whose own images are at most 200 KB', {
      images: [{ src: i.exactly200k }, { src: i.small }, { src: i.external }],
    }),
    [i.exactly200k]: jpeg(200 * KB),
    [i.justOver200k]: jpeg(200 * KB + 1),
    [i.overOneMegabyte]: jpeg(MB + 1),
    [i.small]: jpeg(20 * KB),

    [s.movedTo]: page(s.movedTo, 'Where a URL the sitemap lists redirects to'),
    [s.not200[0]]: { redirect: s.movedTo, status: 301 },
    [s.not200[1]]: { status: 410, body: '<!doctype html><title>Gone</title><h1>Gone</h1>' },
    [s.not200[2]]: { status: 500, body: '<!doctype html><title>Server error</title><h1>Server error</h1>' },
    [s.listedFine]: page(s.listedFine, 'A page the sitemap lists that answers 200'),
    [s.listedBlocked]: page(s.listedBlocked, 'A listed page that robots.txt disallows'),
  };
  known.depth.forEach((path, n) => {
    const next = known.depth[n + 1];
    pages[path] = page(path, `A page ${n + 1} clicks from the home page`, { links: next ? ['/', next] : ['/'] });
  });

  const robotsTxt = [
    'User-agent: *',
    'Disallow: /private/',
    '',
    ...[s.main, s.missing, s.wrongNamespace, s.broken].map((path) => `Sitemap: ${ORIGIN}${path}`),
    '',
  ].join('\n');
  return {
    pages,
    robotsTxt,
    sitemaps: {
      [s.main]: urlsetOf(['/', ...s.not200, s.listedFine, s.listedBlocked, s.otherOrigin]),
      [s.wrongNamespace]: urlsetOf([s.listedFine], s.wrongNamespaceUri),
      [s.broken]: '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url><loc>',
    },
    known,
  } satisfies FixtureSite<typeof known>;
}

/** One page behind a robots.txt that answers `status`: 500 makes `robots/unreachable`, 404 `robots/missing`. */
export function robotsAnswerSite(status: number): SiteDefinition {
  return {
    pages: { '/': htmlPage({ path: '/', title: `A site whose robots.txt answers ${status}`, links: ['/'] }) },
    robotsTxt: { status, body: status >= 500 ? 'Internal error' : 'Not found' },
  };
}
