import { defaultDescription, escapeHtml, fillerHtml, type HtmlLink, type HtmlPageOptions, htmlPage, seededRandom } from './html-page.ts';
import { ORIGIN, type PageSpec, type SiteDefinition } from './test-site.ts';

/** A fixture and the paths its tests assert on. */
export type FixtureSite<Known> = SiteDefinition & { known: Known };

/** A 1×1 transparent PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const png: PageSpec = { body: TINY_PNG, contentType: 'image/png' };

/** A `<urlset>` of absolute URLs on the site (paths get the origin at serve time). */
export function urlset(paths: Iterable<string>): string {
  const urls = [...paths].map((path) => `  <url><loc>${escapeHtml(ORIGIN + path)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function sitemapIndex(paths: Iterable<string>): string {
  const sitemaps = [...paths].map((path) => `  <sitemap><loc>${escapeHtml(ORIGIN + path)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemaps.join('\n')}\n</sitemapindex>\n`;
}

/** The other origin for external links and redirects: start it first and pass its origin to the fixture. */
export function externalSite(): FixtureSite<{ exists: string; landing: string; missing: string }> {
  const exists = '/exists';
  const landing = '/landing';
  return {
    pages: {
      [exists]: htmlPage({ path: exists, title: 'An external page that exists and answers 200' }),
      [landing]: htmlPage({ path: landing, title: 'The external landing page of a redirect' }),
    },
    known: { exists, landing, missing: '/missing' },
  };
}

/**
 * Broken internal links (404, 410, 500), a broken external link, a broken image, and links that
 * are not broken (403 and 429 are "unverifiable" in the catalog, an OK image, an external 200).
 */
export function brokenLinksSite(options: { externalOrigin: string }) {
  const known = {
    home: '/',
    ok: '/ok',
    /** Links to `missing` too, so that target has two inlinks. */
    alsoLinksMissing: '/also-links-missing',
    missing: '/missing',
    gone: '/gone',
    serverError: '/server-error',
    forbidden: '/forbidden',
    rateLimited: '/rate-limited',
    externalOk: `${options.externalOrigin}/exists`,
    externalMissing: `${options.externalOrigin}/missing`,
    image: '/images/ok.png',
    brokenImage: '/images/missing.png',
    /** Pages whose links or images are all fine. */
    clean: ['/ok'],
    /** Pages with a broken internal link. */
    withBrokenInternal: ['/', '/also-links-missing'],
  };
  const homeLinks = [
    known.ok,
    known.alsoLinksMissing,
    known.missing,
    known.gone,
    known.serverError,
    known.forbidden,
    known.rateLimited,
    known.externalOk,
    known.externalMissing,
  ];
  return {
    pages: {
      '/': htmlPage({
        path: '/',
        title: 'Broken links test site: a home page with bad links',
        links: homeLinks,
        images: [{ src: known.image }, { src: known.brokenImage }],
      }),
      [known.ok]: htmlPage({
        path: known.ok,
        title: 'A page whose links and images all work',
        links: ['/', known.externalOk],
        images: [{ src: known.image }],
      }),
      [known.alsoLinksMissing]: htmlPage({
        path: known.alsoLinksMissing,
        title: 'Another page that links to the missing page',
        links: ['/', known.missing],
      }),
      [known.gone]: { status: 410, body: '<!doctype html><title>Gone</title><h1>Gone</h1>' },
      [known.serverError]: { status: 500, body: '<!doctype html><title>Server error</title><h1>Server error</h1>' },
      [known.forbidden]: { status: 403, body: '<!doctype html><title>Forbidden</title><h1>Forbidden</h1>' },
      [known.rateLimited]: { status: 429, headers: { 'retry-after': '3600' }, body: 'Too many requests', contentType: 'text/plain' },
      [known.image]: png,
    },
    robotsTxt: 'User-agent: *\nDisallow:\n',
    known,
  } satisfies FixtureSite<typeof known>;
}

/** Redirects: a chain, a long chain, loops, an endless chain and a redirect to another origin. */
export function redirectsSite(options: { externalOrigin: string }) {
  const known = {
    home: '/',
    /** 301 → 302 → 200: two redirects before the final answer. */
    chain: ['/chain/start', '/chain/middle', '/chain/end'],
    /** One 301 to a 200. */
    single: ['/moved', '/moved-here'],
    /** Five redirects (301, 302, 307, 308, 303) then a 200: the chain check's error threshold. */
    longChain: ['/long/1', '/long/2', '/long/3', '/long/4', '/long/5', '/long/end'],
    /** a → b → a */
    loop: ['/loop/a', '/loop/b'],
    selfLoop: '/self-loop',
    /** `/endless/<n>` redirects to `/endless/<n + 1>` forever. */
    endless: '/endless/1',
    toExternal: '/to-external',
    externalTarget: `${options.externalOrigin}/landing`,
  };
  const [chainStart, chainMiddle, chainEnd] = known.chain;
  const longStatuses = [301, 302, 307, 308, 303] as const;
  const pages: Record<string, PageSpec> = {
    '/': htmlPage({
      path: '/',
      title: 'Redirects test site: chains, loops and moves',
      links: [chainStart, known.single[0], known.longChain[0], known.loop[0], known.selfLoop, known.endless, known.toExternal],
    }),
    [chainStart]: { redirect: chainMiddle, status: 301 },
    [chainMiddle]: { redirect: chainEnd, status: 302 },
    [chainEnd]: htmlPage({ path: chainEnd, title: 'The end of a chain of two redirects' }),
    [known.single[0]]: { redirect: known.single[1], status: 301 },
    [known.single[1]]: htmlPage({ path: known.single[1], title: 'The target of a single permanent redirect' }),
    [known.longChain[5]]: htmlPage({ path: known.longChain[5], title: 'The end of a chain of five redirects' }),
    [known.loop[0]]: { redirect: known.loop[1], status: 301 },
    [known.loop[1]]: { redirect: known.loop[0], status: 302 },
    [known.selfLoop]: { redirect: known.selfLoop, status: 301 },
    [known.toExternal]: { redirect: known.externalTarget, status: 302 },
  };
  longStatuses.forEach((status, i) => (pages[known.longChain[i]] = { redirect: known.longChain[i + 1], status }));
  return {
    pages,
    fallback: (path: string) => {
      const n = /^\/endless\/(\d+)$/.exec(path)?.[1];
      return n === undefined ? undefined : { redirect: `/endless/${Number(n) + 1}`, status: 302 as const };
    },
    robotsTxt: 'User-agent: *\nDisallow:\n',
    known,
  } satisfies FixtureSite<typeof known>;
}

/**
 * robots.txt rules (Disallow, an Allow that re-opens, a `$` pattern, a group for another agent,
 * Crawl-delay), a sitemap index named in robots.txt with a plain and a gzip child, pages known
 * only from the sitemaps, and noindex pages (meta and header).
 */
export function robotsSite(options: { crawlDelay?: number } = {}) {
  const known = {
    home: '/',
    about: '/about',
    /** Under `Disallow: /private/`: must never be fetched. */
    disallowed: ['/private/secret', '/private/listed-in-sitemap', '/files/report.pdf'],
    /** Re-opened by `Allow: /private/open/`. */
    allowed: '/private/open/welcome',
    /** Not matched by `Disallow: /*.pdf$` because of the query. */
    pdfWithQuery: '/files/report.pdf?download=1',
    noindexMeta: '/noindex-meta',
    noindexHeader: '/noindex-header',
    /** Linked from nowhere, listed in /sitemaps/pages.xml. */
    onlyInSitemap: '/from-sitemap',
    /** Linked from nowhere, listed only in the gzip child /sitemaps/posts.xml.gz. */
    onlyInGzipSitemap: '/from-gzip-sitemap',
    sitemapIndex: '/sitemap_index.xml',
    sitemaps: ['/sitemaps/pages.xml', '/sitemaps/posts.xml.gz'],
    crawlDelaySeconds: options.crawlDelay ?? 1,
    /** Disallows everything, but only for this agent. */
    excludedAgent: 'ExcludedBot',
  };
  const robotsTxt = [
    `User-agent: ${known.excludedAgent}`,
    'Disallow: /',
    '',
    'User-agent: *',
    'Disallow: /private/',
    'Allow: /private/open/',
    'Disallow: /*.pdf$',
    `Crawl-delay: ${known.crawlDelaySeconds}`,
    '',
    `Sitemap: ${ORIGIN}${known.sitemapIndex}`,
    '',
  ].join('\n');
  const page = (path: string, title: string, extra: HtmlPageOptions = {}): string => htmlPage({ path, title, links: ['/'], ...extra });
  return {
    pages: {
      '/': page('/', 'Robots test site: rules, sitemaps and noindex', {
        links: [known.about, ...known.disallowed, known.allowed, known.pdfWithQuery, known.noindexMeta, known.noindexHeader],
      }),
      [known.about]: page(known.about, 'About the robots test site and its rules'),
      [known.disallowed[0]]: page(known.disallowed[0], 'A secret page that robots.txt disallows'),
      [known.disallowed[1]]: page(known.disallowed[1], 'A disallowed page that the sitemap still lists'),
      [known.disallowed[2]]: { body: Buffer.from('%PDF-1.4\n%%EOF\n'), contentType: 'application/pdf' },
      [known.allowed]: page(known.allowed, 'A private page that an Allow rule opens again'),
      [known.noindexMeta]: page(known.noindexMeta, 'A page with a robots meta tag saying noindex', { robots: 'noindex, follow' }),
      [known.noindexHeader]: {
        body: page(known.noindexHeader, 'A page with an X-Robots-Tag header saying noindex'),
        headers: { 'x-robots-tag': 'noindex' },
      },
      [known.onlyInSitemap]: page(known.onlyInSitemap, 'A page that only the plain sitemap lists'),
      [known.onlyInGzipSitemap]: page(known.onlyInGzipSitemap, 'A page that only the gzip sitemap lists'),
    },
    robotsTxt,
    sitemaps: {
      [known.sitemapIndex]: sitemapIndex(known.sitemaps),
      [known.sitemaps[0]]: urlset(['/', known.about, known.noindexMeta, known.disallowed[1], known.onlyInSitemap]),
      [known.sitemaps[1]]: { gzip: urlset([known.allowed, known.onlyInGzipSitemap]) },
    },
    known,
  } satisfies FixtureSite<typeof known>;
}

/**
 * Duplicate titles and descriptions, exact and near-duplicate content, missing and empty titles,
 * and canonicals (to another page, to a 404). Pages that share a title but must not count as
 * duplicates: a noindex page, a page in another language, a canonicalised page.
 */
export function duplicatesSite() {
  const sharedTitle = 'Widgets for every workshop, from the Loupe shop';
  const sharedDescription = 'Gadgets of every size, hand-picked by the Loupe test shop, with free returns and a two-year warranty on each.';
  const article = fillerHtml('duplicates/article', 1000);
  // One word changed in a thousand: 3 of ~1,000 shingles differ, so the SimHashes stay within a few bits.
  const nearCopy = article.replace(/(\w+)(\.<\/p>)$/, 'zeppelin$2');
  const known = {
    home: '/',
    duplicateTitle: ['/widgets/blue', '/widgets/red'],
    /** Same title as `duplicateTitle`, but noindex, in French, or canonicalised: not duplicates. */
    sameTitleExcluded: ['/widgets/green-noindex', '/fr/widgets', '/widgets/blue?sort=price'],
    duplicateDescription: ['/gadgets/one', '/gadgets/two'],
    /** The same visible text (h1, prose and navigation), different titles and descriptions. */
    duplicateContent: ['/articles/original', '/articles/copy'],
    /** The original with one word changed. */
    nearDuplicate: ['/articles/original', '/articles/near-copy'],
    /** The original's content with a canonical to it: an intended alternate, not a duplicate. */
    canonicalToOther: { page: '/articles/print', canonical: '/articles/original' },
    canonicalToMissing: { page: '/canonical-to-missing', canonical: '/does-not-exist' },
    missingTitle: '/no-title',
    emptyTitle: '/empty-title',
    unique: '/unique',
  };
  const [blue, red] = known.duplicateTitle;
  const [green, french, blueSorted] = known.sameTitleExcluded;
  const [original, copy] = known.duplicateContent;
  const linked = [
    blue,
    red,
    green,
    french,
    blueSorted,
    ...known.duplicateDescription,
    original,
    copy,
    known.nearDuplicate[1],
    known.canonicalToOther.page,
    known.canonicalToMissing.page,
    known.missingTitle,
    known.emptyTitle,
    known.unique,
  ];
  const articleLinks = ['/', original];
  const indexable = [
    '/',
    blue,
    red,
    french,
    ...known.duplicateDescription,
    original,
    copy,
    known.nearDuplicate[1],
    known.missingTitle,
    known.emptyTitle,
    known.unique,
  ];
  return {
    pages: {
      '/': htmlPage({ path: '/', title: 'Duplicates test site: titles, texts and canonicals', links: linked }),
      [blue]: htmlPage({
        path: blue,
        title: sharedTitle,
        description: 'Blue widgets in every size, for workshops that like a calm colour on the bench.',
      }),
      [red]: htmlPage({
        path: red,
        title: sharedTitle,
        description: 'Red widgets in every size, for workshops that want to find their tools at once.',
      }),
      [green]: htmlPage({ path: green, title: sharedTitle, robots: 'noindex' }),
      [french]: htmlPage({
        path: french,
        title: sharedTitle,
        lang: 'fr',
        description: 'Des widgets de toutes les tailles pour chaque atelier, choisis par la boutique de test Loupe.',
      }),
      [blueSorted]: htmlPage({ path: blueSorted, title: sharedTitle, canonical: ORIGIN + blue }),
      [known.duplicateDescription[0]]: htmlPage({
        path: known.duplicateDescription[0],
        title: 'Gadget number one, the small and sturdy one',
        description: sharedDescription,
      }),
      [known.duplicateDescription[1]]: htmlPage({
        path: known.duplicateDescription[1],
        title: 'Gadget number two, the large and quiet one',
        description: sharedDescription,
      }),
      [original]: htmlPage({
        path: original,
        title: 'The original article about workshop habits',
        h1: 'Workshop habits',
        body: article,
        links: articleLinks,
      }),
      [copy]: htmlPage({
        path: copy,
        title: 'A copied article, word for word the original',
        h1: 'Workshop habits',
        body: article,
        links: articleLinks,
      }),
      [known.nearDuplicate[1]]: htmlPage({
        path: known.nearDuplicate[1],
        title: 'An article that differs from the original by a word',
        h1: 'Workshop habits',
        body: nearCopy,
        links: articleLinks,
      }),
      [known.canonicalToOther.page]: htmlPage({
        path: known.canonicalToOther.page,
        title: 'The printable version of the workshop habits article',
        h1: 'Workshop habits',
        body: article,
        links: articleLinks,
        canonical: ORIGIN + original,
      }),
      [known.canonicalToMissing.page]: htmlPage({
        path: known.canonicalToMissing.page,
        title: 'A page whose canonical points to a missing page',
        canonical: ORIGIN + known.canonicalToMissing.canonical,
      }),
      [known.missingTitle]: htmlPage({
        path: known.missingTitle,
        title: null,
        h1: 'A page without a title element',
        description: 'This page has no title element in its head, so the missing title check fires on it.',
      }),
      [known.emptyTitle]: htmlPage({
        path: known.emptyTitle,
        title: '',
        h1: 'A page with an empty title element',
        description: 'This page has a title element with nothing in it, so the missing title check fires on it.',
      }),
      [known.unique]: htmlPage({ path: known.unique, title: 'A page that shares nothing with any other page' }),
    },
    robotsTxt: `User-agent: *\nDisallow:\n\nSitemap: ${ORIGIN}/sitemap.xml\n`,
    sitemaps: { '/sitemap.xml': urlset(indexable) },
    known,
  } satisfies FixtureSite<typeof known>;
}

/** Pages that only the sitemap knows, next to linked ones. */
export function orphansSite() {
  const known = {
    home: '/',
    linked: ['/linked-a', '/linked-b'],
    /** Indexable, in the sitemap, linked from nowhere. */
    orphans: ['/orphan-1', '/orphan-2'],
    /** In the sitemap and linked from nowhere, but noindex: not an orphan finding. */
    orphanNoindex: '/orphan-noindex',
    /** Not in the sitemap, linked only from `/orphan-1`: it has an inlink from a crawled page. */
    linkedFromOrphan: '/linked-from-orphan',
  };
  const [a, b] = known.linked;
  const [orphan1, orphan2] = known.orphans;
  return {
    pages: {
      '/': htmlPage({ path: '/', title: 'Orphans test site: pages nobody links to', links: [a, b] }),
      [a]: htmlPage({ path: a, title: 'Linked page A, reached from the home page', links: ['/', b] }),
      [b]: htmlPage({ path: b, title: 'Linked page B, reached from the home page', links: ['/', a] }),
      [orphan1]: htmlPage({ path: orphan1, title: 'The first orphan page, only in the sitemap', links: ['/', known.linkedFromOrphan] }),
      [orphan2]: htmlPage({ path: orphan2, title: 'The second orphan page, only in the sitemap' }),
      [known.orphanNoindex]: htmlPage({
        path: known.orphanNoindex,
        title: 'An orphan page that asks not to be indexed',
        robots: 'noindex',
      }),
      [known.linkedFromOrphan]: htmlPage({ path: known.linkedFromOrphan, title: 'A page linked only from the first orphan page' }),
    },
    robotsTxt: `User-agent: *\nDisallow:\n\nSitemap: ${ORIGIN}/sitemap.xml\n`,
    sitemaps: { '/sitemap.xml': urlset(['/', a, b, orphan1, orphan2, known.orphanNoindex]) },
    known,
  } satisfies FixtureSite<typeof known>;
}

export interface GeneratedSiteOptions {
  /** Links per page before the defects' extra links; defaults to 10. */
  linksPerPage?: number;
  /** Chooses the far links and the prose; defaults to 1. */
  seed?: number;
  /** Prose words per page (about 5–10 KB of HTML at the default 800). */
  wordsPerPage?: number;
  urlsPerSitemap?: number;
}

/**
 * Deliberate defects, on pages that exist when the site has at least 100 pages. Everything
 * else on a generated page passes the catalog's page-scope checks (except those about https).
 */
export const generatedDefects = {
  /** Page 7 links to a 404. */
  brokenLink: { page: '/pages/7', target: '/missing/7' },
  /** Page 13 links to a 500. */
  serverErrorLink: { page: '/pages/13', target: '/error/13' },
  /** Page 17 links to a 301 whose Location is page 18. */
  redirectedLink: { page: '/pages/17', target: '/moved/17', location: '/pages/18' },
  missingTitle: '/pages/21',
  /** Page 31 has page 30's title. */
  duplicateTitle: ['/pages/30', '/pages/31'],
  /** Page 33 has page 32's description. */
  duplicateDescription: ['/pages/32', '/pages/33'],
  /** meta robots noindex, and listed in the sitemap. */
  noindex: '/pages/42',
  /** An image (200, PNG) without alt. */
  imageWithoutAlt: { page: '/pages/60', image: '/images/60.png' },
  /** An image that answers 404. */
  brokenImage: { page: '/pages/61', image: '/images/missing-61.png' },
  /** 40 words of prose. */
  thin: '/pages/70',
  /** Canonical to page 81, and listed in the sitemap. */
  canonicalElsewhere: { page: '/pages/80', canonical: '/pages/81' },
  /** In the last sitemap, linked from nowhere. */
  orphan: '/orphan',
} as const;

export interface GeneratedSite extends FixtureSite<{ sitemapIndex: string; sitemaps: string[]; defects: typeof generatedDefects }> {
  pageCount: number;
  /** `/` for page 0, `/pages/<n>` otherwise. */
  pathOf(n: number): string;
  /** The page number of a path, or undefined when it is not a generated page. */
  numberOf(path: string): number | undefined;
  /** The page numbers page `n` links to (not counting the defects' extra links). */
  linksOf(n: number): number[];
}

/**
 * N pages, each built on request from its number, so 50,000 pages cost no more memory than 10.
 * Page n links to the home page, its neighbours n ± 1, its children in a ⌈links/2⌉-ary heap
 * (c·n + 1 … c·n + c, which bounds the click depth: ≤ 6 for 10,000 pages at 10 links) and
 * pseudo-random far pages up to `linksPerPage`.
 */
export function generatedSite(pageCount: number, options: GeneratedSiteOptions = {}): GeneratedSite {
  const linksPerPage = options.linksPerPage ?? 10;
  const seed = options.seed ?? 1;
  const wordsPerPage = options.wordsPerPage ?? 800;
  const urlsPerSitemap = options.urlsPerSitemap ?? 2000;
  const children = Math.ceil(linksPerPage / 2);
  const sitemapCount = Math.ceil(pageCount / urlsPerSitemap);
  const sitemapPaths = Array.from({ length: sitemapCount }, (_, k) => `/sitemaps/pages-${k + 1}.xml`);
  const defects = generatedDefects;

  const pathOf = (n: number): string => (n === 0 ? '/' : `/pages/${n}`);
  const numberOf = (path: string): number | undefined => {
    if (path === '/') return 0;
    const digits = /^\/pages\/([1-9]\d*)$/.exec(path)?.[1];
    return digits !== undefined && Number(digits) < pageCount ? Number(digits) : undefined;
  };
  const linksOf = (n: number): number[] => {
    const links = new Set<number>([0, n - 1, n + 1].filter((m) => m >= 0 && m < pageCount && m !== n));
    for (let k = 1; k <= children && children * n + k < pageCount; k++) links.add(children * n + k);
    const random = seededRandom(`${seed}:links:${n}`);
    for (let draw = 0; links.size < linksPerPage && draw < linksPerPage * 4; draw++) {
      const far = Math.floor(random() * pageCount);
      if (far !== n) links.add(far);
    }
    return [...links];
  };
  const title = (n: number): string =>
    n === 0 ? 'The home page of a generated Loupe test site' : `Generated page ${n} of the Loupe test site`;

  const page = (n: number): string => {
    const path = pathOf(n);
    const links: HtmlLink[] = linksOf(n).map((m) => ({ href: pathOf(m), text: m === 0 ? 'Home' : `Page ${m}` }));
    const extra: HtmlPageOptions = {};
    if (path === defects.brokenLink.page) links.push({ href: defects.brokenLink.target, text: 'A page that was never there' });
    if (path === defects.serverErrorLink.page) links.push({ href: defects.serverErrorLink.target, text: 'A page that fails' });
    if (path === defects.redirectedLink.page) links.push({ href: defects.redirectedLink.target, text: 'A page that moved' });
    if (path === defects.missingTitle) extra.title = null;
    if (path === defects.duplicateTitle[1]) extra.title = title(30);
    if (path === defects.duplicateDescription[1]) extra.description = defaultDescription(title(32));
    if (path === defects.noindex) extra.robots = 'noindex';
    if (path === defects.imageWithoutAlt.page) extra.images = [{ src: defects.imageWithoutAlt.image, alt: null }];
    if (path === defects.brokenImage.page) extra.images = [{ src: defects.brokenImage.image }];
    if (path === defects.thin) extra.words = 40;
    if (path === defects.canonicalElsewhere.page) extra.canonical = ORIGIN + defects.canonicalElsewhere.canonical;
    return htmlPage({
      path,
      title: title(n),
      h1: n === 0 ? 'A generated Loupe test site' : `Generated page ${n}`,
      seed: `${seed}:${n}`,
      words: wordsPerPage,
      links,
      ...extra,
    });
  };

  return {
    pages: {
      [defects.redirectedLink.target]: { redirect: defects.redirectedLink.location, status: 301 },
      [defects.serverErrorLink.target]: { status: 500, body: '<!doctype html><title>Server error</title><h1>Server error</h1>' },
      [defects.imageWithoutAlt.image]: png,
      [defects.orphan]: htmlPage({ path: defects.orphan, title: 'An orphan page of the generated test site', seed: `${seed}:orphan` }),
    },
    robotsTxt: `User-agent: *\nDisallow:\n\nSitemap: ${ORIGIN}/sitemap.xml\n`,
    sitemaps: { '/sitemap.xml': sitemapIndex(sitemapPaths) },
    fallback: (path) => {
      const n = numberOf(path);
      if (n !== undefined) return page(n);
      const k = sitemapPaths.indexOf(path);
      if (k === -1) return undefined;
      const paths = Array.from({ length: Math.min(urlsPerSitemap, pageCount - k * urlsPerSitemap) }, (_, i) =>
        pathOf(k * urlsPerSitemap + i),
      );
      if (k === sitemapCount - 1) paths.push(defects.orphan);
      return { body: urlset(paths), contentType: 'application/xml; charset=utf-8' };
    },
    known: { sitemapIndex: '/sitemap.xml', sitemaps: sitemapPaths, defects },
    pageCount,
    pathOf,
    numberOf,
    linksOf,
  };
}
