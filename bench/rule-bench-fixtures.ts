/**
 * What the rule benchmarks run: shop-like generated pages and a pack of 50 rules. The pages
 * are plain `{ path, html, status, headers }`, so `rule-eval.ts` can build subjects from them
 * in memory and `rule-preview.ts` can serve them to a real crawl.
 *
 * Pages are 30–60 KB: navigation, a main column of text, images, product boxes, scripts, a
 * footer. Every page links to 40 others (navigation, twice: header and footer) and to the next
 * three (so a crawl from `/`, page 0, finds them all, whatever their statuses), and all links
 * point at pages of the set: a crawl fetches exactly the generated pages, plus the images and
 * stylesheet of `BENCH_ASSETS`. Absolute URLs of the site (canonicals, some links) are written
 * with `ORIGIN`, put in at serve time or by `withOrigin`. Placeholder copy appears on a few
 * pages only; one rule (bench-22) matches dozens of times on most pages, the costly case for
 * evidence.
 */
import type { RulePackInput } from '../packages/contract/src/index.ts';
import { exampleRules } from '../packages/server/src/rule-packs/example-rules.ts';
import { mulberry32 } from '../packages/server/src/testing/seeded-random.ts';
import { ORIGIN } from '../packages/server/src/testing/test-site.ts';

export { ORIGIN };

/** One generated page: its path (with its query, for some), markup and answer. */
export interface BenchPage {
  path: string;
  html: string;
  status: number;
  /** Lower-case names, `content-type` included. */
  headers: Record<string, string>;
}

/** How many distinct image URLs the pages use (each a path under /img/). */
export const IMAGE_POOL = 24;
/** Every path the pages refer to besides the pages themselves: images and the stylesheet. */
export const BENCH_ASSETS = [...Array.from({ length: IMAGE_POOL }, (_, n) => `/img/${n}.jpg`), '/app.css'];

type RuleInput = RulePackInput['rules'][number];

const VOCABULARY = (
  'the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we ' +
  'when your can said there use an each which she do how their if will up other about out many then them these so some her would make ' +
  'shipping order product price colour size return account delivery guide install configure server request response cache header ' +
  'performance search index crawl audit report page link image title description canonical redirect status'
).split(' ');

const SECTIONS = ['products', 'blog', 'docs', 'account', 'shop', 'help', 'styleguide'] as const;

/** Writes the site's origin into a page's absolute URLs (what the test site does at serve time). */
export function withOrigin(html: string, origin: string): string {
  return html.replaceAll(ORIGIN, origin);
}

/** `count` pages, the same for the same seed; page 0 is `/`. */
export function generatePages(count: number, seed = 1): BenchPage[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (p: number) => random() < p;

  const sentence = (): string => {
    const words = Array.from({ length: 8 + Math.floor(random() * 14) }, () => pick(VOCABULARY));
    const text = words.join(' ');
    return `${text[0]?.toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = () => `<p>${Array.from({ length: 3 + Math.floor(random() * 5) }, sentence).join(' ')}</p>`;

  const pagePath = (i: number): string => {
    if (i === 0) return '/';
    const section = pick(SECTIONS);
    switch (section) {
      case 'products':
        return `/products/item-${i}`;
      case 'shop':
        return `/shop/${pick(['men', 'women', 'kids'])}/${pick(['shoes', 'coats'])}/p/${i}`;
      case 'blog':
        return `/blog/${2020 + (i % 5)}/post-${i}`;
      case 'account':
        return `/account/${pick(['orders', 'settings', 'addresses'])}/${i}?page=${i % 3}`;
      default:
        return `/${section}/page-${i}`;
    }
  };
  const paths = Array.from({ length: count }, (_, i) => pagePath(i));
  const anyPath = () => pick(paths);

  const page = (i: number): BenchPage => {
    const path = paths[i] as string;
    const target = 30_000 + Math.floor(random() * 30_000);
    const nav = Array.from({ length: 40 }, () => `<li><a href="${anyPath()}" class="nav-link">${pick(VOCABULARY)}</a></li>`).join('');
    const next = [1, 2, 3].map((step) => `<a href="${paths[(i + step) % count]}">${pick(VOCABULARY)}</a>`).join(' ');
    const head = [
      `<meta charset="utf-8"><title>${chance(0.05) ? 'Untitled' : `${sentence().slice(0, 50)} | Shop`}</title>`,
      chance(0.9) ? `<meta name="description" content="${sentence()}">` : '',
      chance(0.2) ? `<meta name="robots" content="${pick(['noindex', 'index, follow', 'noindex, nofollow'])}">` : '',
      `<link rel="canonical" href="${ORIGIN}${path}"><link rel="stylesheet" href="/app.css">`,
      `<meta property="og:title" content="${pick(VOCABULARY)}"><meta name="viewport" content="width=device-width">`,
      chance(0.6)
        ? `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Item ${i}"${chance(0.5) ? ',"offers":{"@type":"Offer","price":"19.90","priceCurrency":"EUR"}' : ''}}</script>`
        : '',
      `<style>${'.c{color:#333;margin:0 auto;padding:4px}'.repeat(30)}</style>`,
    ].join('');
    const parts: string[] = [];
    let size = 0;
    while (size < target) {
      const block = pick([
        () => `<section><h2>${sentence()}</h2>${paragraph()}${paragraph()}</section>`,
        () => `<ul>${Array.from({ length: 6 }, () => `<li>${sentence()}</li>`).join('')}</ul>`,
        () =>
          `<figure><img src="/img/${Math.floor(random() * IMAGE_POOL)}.jpg"${chance(0.7) ? ` alt="${pick(VOCABULARY)}"` : ''} width="640" height="480"><figcaption>${sentence()}</figcaption></figure>`,
        () =>
          `<div class="product"><span itemprop="price">${(random() * 100).toFixed(2)}</span><span class="product-price">EUR</span><button>Add to cart</button></div>`,
        () =>
          `<table><tr><th>Size</th><th>Stock</th></tr>${Array.from({ length: 5 }, () => `<tr><td>${pick(['S', 'M', 'L'])}</td><td>${Math.floor(random() * 50)}</td></tr>`).join('')}</table>`,
        () => (chance(0.01) ? `<p>Lorem ipsum dolor sit amet, ${sentence()} TODO: [insert copy here]</p>` : paragraph()),
        // An absolute link (of the site itself, so a crawl stays on loopback) for the rel rule.
        () => `<p>See <a href="${chance(0.3) ? ORIGIN : ''}${anyPath()}">${pick(VOCABULARY)}</a>. ${sentence()}</p>`,
      ])();
      parts.push(block);
      size += block.length;
    }
    const html = `<!doctype html><html lang="en"><head>${head}</head><body><header><nav><ul>${nav}</ul></nav></header><main><h1>${sentence()}</h1>${parts.join('')}</main><footer>${nav}<p>Next: ${next}</p></footer><script>${'window.dataLayer=window.dataLayer||[];'.repeat(20)}</script></body></html>`;
    const headers: Record<string, string> = {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': pick(['public, max-age=600', 'private, no-store', 'no-cache', 'max-age=0']),
      vary: 'Accept-Encoding',
    };
    if (chance(0.1)) headers['x-robots-tag'] = 'noindex';
    if (chance(0.5)) headers['strict-transport-security'] = 'max-age=31536000';
    // The start page answers 200, or a crawl would stop there.
    const status = i > 0 && chance(0.05) ? 404 : 200;
    return { path, html, status, headers };
  };
  return Array.from({ length: count }, (_, i) => page(i));
}

/** 47 rules besides the examples, covering every condition kind and operator. */
function generatedRules(random: () => number): RuleInput[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const rule = (n: number, when: RuleInput['when'], extra: Partial<RuleInput> = {}): RuleInput => ({
    id: `content/bench-${n}`,
    title: `Bench rule ${n}`,
    category: 'content',
    severity: pick(['error', 'warning', 'notice'] as const),
    message: '{{path}}: {{labels}} {{count}} {{match}} {{value}}',
    when,
    ...extra,
  });
  const rules: RuleInput[] = [];
  const add = (when: RuleInput['when'], extra?: Partial<RuleInput>) => rules.push(rule(rules.length, when, extra));
  add({ type: 'selector', selector: 'img:not([alt])', test: { op: 'exists' }, label: 'image without alt' });
  add({ type: 'selector', selector: 'h1', test: { op: 'count', cmp: { op: 'neq', value: 1 } } });
  add({ type: 'selector', selector: 'main h2', test: { op: 'textLength', cmp: { op: 'gt', value: 70 }, quantifier: 'any' } });
  add({ type: 'selector', selector: 'a[href^="http"]', test: { op: 'attr', name: 'rel', quantifier: 'none' } });
  add({ type: 'selector', selector: 'meta[name=description]', test: { op: 'attr', name: 'content', str: { matches: '^.{0,50}$' } } });
  add({ type: 'selector', selector: 'link[rel=canonical]', test: { op: 'absent' } });
  add({ type: 'selector', selector: 'table', test: { op: 'text', str: { contains: 'stock' }, quantifier: 'all' } });
  add({ type: 'selector', selector: 'nav a.nav-link', test: { op: 'count', cmp: { op: 'outside', value: [5, 35] } } });
  add({ type: 'selector', selector: 'figure > figcaption', test: { op: 'text', str: { matches: '\\b(todo|tbd|fixme)\\b' } } });
  add({ type: 'selector', selector: 'meta[property^="og:"]', test: { op: 'count', cmp: { op: 'lt', value: 3 } } });
  add({
    type: 'selector',
    selector: 'section:has(h2) > p:first-of-type',
    test: { op: 'textLength', cmp: { op: 'lt', value: 40 }, quantifier: 'any' },
  });
  add(
    { type: 'selector', selector: 'button', test: { op: 'text', str: { equals: 'add to cart' }, quantifier: 'any' } },
    { scope: { include: ['/products/*', '/shop/**'] } },
  );
  add({ type: 'selector', selector: 'html', test: { op: 'attr', name: 'lang', quantifier: 'none' } });
  add({ type: 'selector', selector: 'img[width][height]', dom: 'rendered', test: { op: 'exists' } });
  add({ type: 'header', name: 'strict-transport-security', test: { op: 'absent' } });
  add({ type: 'header', name: 'cache-control', test: { op: 'value', str: { matches: 'max-age=(\\d{1,2})\\b' } } });
  add({ type: 'header', name: 'Vary', test: { op: 'value', str: { contains: 'cookie' } } });
  add({ type: 'header', name: 'x-robots-tag', test: { op: 'present' } }, { scope: { indexableOnly: false, statuses: ['any'] } });
  add({ type: 'status', in: [404, 410] }, { scope: { statuses: ['4xx'] } });
  add({ type: 'status', class: ['5xx', 'failed'] }, { scope: { statuses: ['any'] } });
  add({ type: 'text', str: { matches: '\\b(lorem ipsum|dolor sit amet)\\b' } });
  add({ type: 'text', str: { contains: 'click here' } });
  add({ type: 'text', str: { matches: '(shipping|delivery)\\s+\\w+\\s+(order|product)' } });
  add({ type: 'text', source: 'html', str: { contains: 'document.write(' } });
  add({ type: 'text', source: 'html', str: { matches: '<iframe[^>]+src="http:' } });
  add({ type: 'text', source: 'title', str: { matches: '^(untitled|home|page)$' } });
  add({ type: 'text', source: 'title', str: { matches: '\\| Shop$', caseSensitive: true } }, { scope: { exclude: ['/blog/**'] } });
  add({ type: 'text', source: 'url', str: { matches: '[A-Z]' } });
  add({ type: 'text', source: 'path', str: { matches: '/page-\\d{3,}$' } });
  add({ type: 'text', source: 'url', str: { contains: '?page=' } }, { scope: { include: ['/account/**?*'] } });
  add({ type: 'metric', metric: 'wordCount', cmp: { op: 'lt', value: 300 } });
  add({ type: 'metric', metric: 'responseMs', cmp: { op: 'gt', value: 1000 } });
  add({ type: 'metric', metric: 'ttfbMs', cmp: { op: 'between', value: [600, 800] } });
  add({ type: 'metric', metric: 'depth', cmp: { op: 'gte', value: 5 } });
  add({ type: 'metric', metric: 'bytes', cmp: { op: 'gt', value: 55_000 } });
  add({ type: 'metric', metric: 'titleLength', cmp: { op: 'gt', value: 60 } });
  add({
    all: [
      { type: 'metric', metric: 'inlinks', cmp: { op: 'lte', value: 2 } },
      { type: 'selector', selector: 'main a[href^="/"]', test: { op: 'count', cmp: { op: 'lt', value: 3 } } },
    ],
  });
  add(
    {
      any: [
        { type: 'selector', selector: 'script[type="application/ld+json"]', test: { op: 'absent' }, label: 'no JSON-LD' },
        {
          type: 'selector',
          selector: 'script[type="application/ld+json"]',
          test: { op: 'text', str: { matches: '"@type"\\s*:\\s*"Product"' }, quantifier: 'none' },
          label: 'no Product',
        },
      ],
    },
    { scope: { include: ['/products/*'] } },
  );
  add(
    {
      not: {
        any: [
          { type: 'header', name: 'cache-control', test: { op: 'value', str: { contains: 'no-store' } } },
          { type: 'selector', selector: 'meta[name=robots i]', test: { op: 'attr', name: 'content', str: { contains: 'noindex' } } },
        ],
      },
    },
    { scope: { include: ['/account/**'], statuses: ['any'] } },
  );
  add({
    all: [{ type: 'status', class: ['2xx'] }, { not: { type: 'selector', selector: 'meta[name=viewport]', test: { op: 'exists' } } }],
  });
  add({
    all: [
      { type: 'selector', selector: 'img', test: { op: 'count', cmp: { op: 'gt', value: 5 } } },
      {
        any: [
          { type: 'metric', metric: 'bytes', cmp: { op: 'gt', value: 50_000 } },
          { type: 'metric', metric: 'responseMs', cmp: { op: 'gt', value: 800 } },
        ],
      },
    ],
  });
  add({ type: 'selector', selector: 'p', test: { op: 'text', str: { matches: '(a|e)+\\s+(a|e)+$' }, quantifier: 'any' } });
  add({
    type: 'selector',
    selector: 'ul > li > a',
    test: { op: 'attr', name: 'href', str: { matches: '^/(styleguide|help)/' }, quantifier: 'any' },
  });
  add({ type: 'text', str: { matches: '(x+x+)+y' } });
  add({ type: 'selector', selector: 'h1 ~ section h2', test: { op: 'text', str: { contains: 'todo:' }, quantifier: 'any' } });
  // The served pages are on 127.0.0.1, the in-memory ones on shop.example.test: the rule looks at both.
  add(
    { type: 'selector', selector: 'footer a', test: { op: 'count', cmp: { op: 'gte', value: 1 } } },
    { scope: { hosts: ['*.example.test', '127.0.0.1'] } },
  );
  add({
    type: 'selector',
    selector: 'div.product span[itemprop=price]',
    test: { op: 'text', str: { matches: '^0\\.' }, quantifier: 'any' },
  });
  return rules;
}

/**
 * The pack both benchmarks run: the three example rules of audit-checks.md §3.3 and 47 more of
 * every kind (selectors with each test, headers, status, text on each source, metrics, nested
 * groups, scope globs), as a request body would carry it.
 */
export function benchRulePack(seed = 1): RulePackInput {
  return { schema: 'loupe.rules/v1', name: 'bench', rules: [...exampleRules, ...generatedRules(mulberry32(seed ^ 0x5eed))] };
}
