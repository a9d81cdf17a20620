/**
 * Custom rule packs: how long compiling a pack and running it over a crawl's pages take.
 * Run by hand: `node_modules/.bin/node bench/rule-eval.ts` (Node 24).
 *
 *   BENCH_PAGES   generated HTML pages (default 300, each 30–60 KB)
 *   BENCH_ROUNDS  measured rounds after one warm-up (default 5); the median is reported
 *   BENCH_SEED    seed of the page generator (default 1)
 *
 * The pack holds the three example rules of audit-checks.md §3.3 and 47 more of every kind
 * (selectors with each test, headers, status, text on each source, metrics, nested groups,
 * scope globs). Placeholder copy appears on a few pages only; one rule (bench-22) matches
 * dozens of times on most pages, the costly case: a firing rule's evidence is located with
 * re2js's NFA, much slower than the DFA that decides it. Each round evaluates every rule on fresh subject objects, so every page's
 * DOM is parsed again, as it would be in a crawl. Pages are built and their visible text
 * extracted before timing: a crawl has those from its own pass over the page.
 */
import { RulePack, type RulePackInput } from '../packages/contract/src/index.ts';
import { exampleRules } from '../packages/server/src/rule-packs/example-rules.ts';
import { htmlSubject } from '../packages/server/src/rule-packs/html-subject.ts';
import { evaluateRule } from '../packages/server/src/rule-packs/rule-evaluator.ts';
import { compileRulePack } from '../packages/server/src/rule-packs/rule-pack-compiler.ts';
import type { RuleSubject } from '../packages/server/src/rule-packs/rule-subject.ts';
import { mulberry32 } from '../packages/server/src/testing/seeded-random.ts';
import { parseDocument } from 'htmlparser2';
import { printTable, quantile } from './bench-kit.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const random = mulberry32(Number(process.env.BENCH_SEED ?? 1));

type RuleInput = RulePackInput['rules'][number];

const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const chance = (p: number) => random() < p;
const VOCABULARY = (
  'the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we ' +
  'when your can said there use an each which she do how their if will up other about out many then them these so some her would make ' +
  'shipping order product price colour size return account delivery guide install configure server request response cache header ' +
  'performance search index crawl audit report page link image title description canonical redirect status'
).split(' ');

function sentence(): string {
  const words = Array.from({ length: 8 + Math.floor(random() * 14) }, () => pick(VOCABULARY));
  const text = words.join(' ');
  return `${text[0]?.toUpperCase()}${text.slice(1)}.`;
}

function paragraph(): string {
  return `<p>${Array.from({ length: 3 + Math.floor(random() * 5) }, sentence).join(' ')}</p>`;
}

const SECTIONS = ['products', 'blog', 'docs', 'account', 'shop', 'help', 'styleguide'] as const;

function pageUrl(i: number): string {
  const section = pick(SECTIONS);
  switch (section) {
    case 'products':
      return `https://shop.example.test/products/item-${i}`;
    case 'shop':
      return `https://shop.example.test/shop/${pick(['men', 'women', 'kids'])}/${pick(['shoes', 'coats'])}/p/${i}`;
    case 'blog':
      return `https://shop.example.test/blog/${2020 + (i % 5)}/post-${i}`;
    case 'account':
      return `https://shop.example.test/account/${pick(['orders', 'settings', 'addresses'])}?page=${i % 3}`;
    default:
      return `https://shop.example.test/${section}/page-${i}`;
  }
}

/** A page shaped like a shop's: navigation, a main column of text, images, a product box, scripts, a footer. */
function generatePage(i: number): RuleSubject {
  const url = pageUrl(i);
  const target = 30_000 + Math.floor(random() * 30_000);
  const nav = Array.from({ length: 40 }, (_, n) => `<li><a href="/${pick(SECTIONS)}/page-${n}" class="nav-link">${pick(VOCABULARY)}</a></li>`).join('');
  const head = [
    `<meta charset="utf-8"><title>${chance(0.05) ? 'Untitled' : `${sentence().slice(0, 50)} | Shop`}</title>`,
    chance(0.9) ? `<meta name="description" content="${sentence()}">` : '',
    chance(0.2) ? `<meta name="robots" content="${pick(['noindex', 'index, follow', 'noindex, nofollow'])}">` : '',
    `<link rel="canonical" href="${url}"><link rel="stylesheet" href="/app.css">`,
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
      () => `<figure><img src="/img/${Math.floor(random() * 1e6)}.jpg"${chance(0.7) ? ` alt="${pick(VOCABULARY)}"` : ''} width="640" height="480"><figcaption>${sentence()}</figcaption></figure>`,
      () => `<div class="product"><span itemprop="price">${(random() * 100).toFixed(2)}</span><span class="product-price">EUR</span><button>Add to cart</button></div>`,
      () => `<table><tr><th>Size</th><th>Stock</th></tr>${Array.from({ length: 5 }, () => `<tr><td>${pick(['S', 'M', 'L'])}</td><td>${Math.floor(random() * 50)}</td></tr>`).join('')}</table>`,
      () => (chance(0.01) ? `<p>Lorem ipsum dolor sit amet, ${sentence()} TODO: [insert copy here]</p>` : paragraph()),
      () => `<p>See <a href="${chance(0.3) ? 'https://elsewhere.test/x' : `/docs/page-${Math.floor(random() * 100)}`}">${pick(VOCABULARY)}</a>. ${sentence()}</p>`,
    ])();
    parts.push(block);
    size += block.length;
  }
  const html = `<!doctype html><html lang="en"><head>${head}</head><body><header><nav><ul>${nav}</ul></nav></header><main><h1>${sentence()}</h1>${parts.join('')}</main><footer>${nav}</footer><script>${'window.dataLayer=window.dataLayer||[];'.repeat(20)}</script></body></html>`;
  const headers: Record<string, string> = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': pick(['public, max-age=600', 'private, no-store', 'no-cache', 'max-age=0']),
    vary: 'Accept-Encoding',
  };
  if (chance(0.1)) headers['x-robots-tag'] = 'noindex';
  if (chance(0.5)) headers['strict-transport-security'] = 'max-age=31536000';
  const status = chance(0.05) ? 404 : 200;
  return htmlSubject({
    url,
    html,
    status,
    headers,
    indexable: !html.includes('content="noindex') && !headers['x-robots-tag'],
    metrics: {
      responseMs: Math.floor(random() * 1500),
      ttfbMs: Math.floor(random() * 800),
      bytes: html.length,
      depth: Math.floor(random() * 6),
      inlinks: Math.floor(random() * 40),
      linkCount: (html.match(/<a /g) ?? []).length,
    },
  });
}

/** 47 rules besides the examples, covering every condition kind and operator. */
function generatedRules(): RuleInput[] {
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
  add({ type: 'selector', selector: 'section:has(h2) > p:first-of-type', test: { op: 'textLength', cmp: { op: 'lt', value: 40 }, quantifier: 'any' } });
  add({ type: 'selector', selector: 'button', test: { op: 'text', str: { equals: 'add to cart' }, quantifier: 'any' } }, { scope: { include: ['/products/*', '/shop/**'] } });
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
  add({
    any: [
      { type: 'selector', selector: 'script[type="application/ld+json"]', test: { op: 'absent' }, label: 'no JSON-LD' },
      { type: 'selector', selector: 'script[type="application/ld+json"]', test: { op: 'text', str: { matches: '"@type"\\s*:\\s*"Product"' }, quantifier: 'none' }, label: 'no Product' },
    ],
  }, { scope: { include: ['/products/*'] } });
  add({
    not: {
      any: [
        { type: 'header', name: 'cache-control', test: { op: 'value', str: { contains: 'no-store' } } },
        { type: 'selector', selector: 'meta[name=robots i]', test: { op: 'attr', name: 'content', str: { contains: 'noindex' } } },
      ],
    },
  }, { scope: { include: ['/account/**'], statuses: ['any'] } });
  add({
    all: [
      { type: 'status', class: ['2xx'] },
      { not: { type: 'selector', selector: 'meta[name=viewport]', test: { op: 'exists' } } },
    ],
  });
  add({
    all: [
      { type: 'selector', selector: 'img', test: { op: 'count', cmp: { op: 'gt', value: 5 } } },
      { any: [{ type: 'metric', metric: 'bytes', cmp: { op: 'gt', value: 50_000 } }, { type: 'metric', metric: 'responseMs', cmp: { op: 'gt', value: 800 } }] },
    ],
  });
  add({ type: 'selector', selector: 'p', test: { op: 'text', str: { matches: '(a|e)+\\s+(a|e)+$' }, quantifier: 'any' } });
  add({ type: 'selector', selector: 'ul > li > a', test: { op: 'attr', name: 'href', str: { matches: '^/(styleguide|help)/' }, quantifier: 'any' } });
  add({ type: 'text', str: { matches: '(x+x+)+y' } });
  add({ type: 'selector', selector: 'h1 ~ section h2', test: { op: 'text', str: { contains: 'todo:' }, quantifier: 'any' } });
  add({ type: 'selector', selector: 'footer a', test: { op: 'count', cmp: { op: 'gte', value: 1 } } }, { scope: { hosts: ['*.example.test'] } });
  add({ type: 'selector', selector: 'div.product span[itemprop=price]', test: { op: 'text', str: { matches: '^0\\.' }, quantifier: 'any' } });
  return rules;
}

function median(values: number[]): number {
  return quantile(values, 0.5);
}

const ms = (value: number) => value.toFixed(1);

const generationStart = performance.now();
const subjects = Array.from({ length: PAGES }, (_, i) => generatePage(i));
const generationMs = performance.now() - generationStart;
const htmlBytes = subjects.reduce((sum, s) => sum + (s.html?.length ?? 0), 0);
const packInput = { schema: 'loupe.rules/v1', name: 'bench', rules: [...exampleRules, ...generatedRules()] };
const pack = RulePack.parse(packInput);

const compileTimes: number[] = [];
const parseTimes: number[] = [];
const evaluateTimes: number[] = [];
const outcomes: Record<string, number> = {};
const perRule = new Map<string, number>();
let compiled = compileRulePack(pack);

for (let round = 0; round <= ROUNDS; round++) {
  const compileStart = performance.now();
  for (let i = 0; i < 10; i++) compiled = compileRulePack(RulePack.parse(packInput));
  const compileMs = (performance.now() - compileStart) / 10;

  const parseStart = performance.now();
  for (const subject of subjects) parseDocument(subject.html ?? '');
  const parseMs = performance.now() - parseStart;

  // Fresh subject objects: nothing derived in an earlier round (DOM, lower-cased text) is reused.
  const fresh = subjects.map((subject) => ({ ...subject }));
  const evaluateStart = performance.now();
  for (const subject of fresh) {
    for (const rule of compiled.rules) {
      const ruleStart = round === ROUNDS ? performance.now() : 0;
      const result = evaluateRule(rule, subject);
      if (round === ROUNDS) {
        perRule.set(rule.definition.id, (perRule.get(rule.definition.id) ?? 0) + performance.now() - ruleStart);
        outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
      }
    }
  }
  const evaluateMs = performance.now() - evaluateStart;
  if (round === 0) continue; // warm-up
  compileTimes.push(compileMs);
  parseTimes.push(parseMs);
  evaluateTimes.push(evaluateMs);
}

const evaluations = PAGES * compiled.rules.length;
const evaluateMs = median(evaluateTimes);
console.log(`rule evaluation: ${compiled.rules.length} rules × ${PAGES} pages (${(htmlBytes / PAGES / 1024).toFixed(1)} KB of HTML on average, ${(htmlBytes / 1024 / 1024).toFixed(1)} MB in all)`);
console.log(`pages generated in ${ms(generationMs)} ms; median of ${ROUNDS} rounds after a warm-up\n`);
printTable(
  ['measure', 'median', 'per page', 'per rule and page'],
  [
    ['compile the pack (parse + compile)', `${ms(median(compileTimes))} ms`, '', ''],
    ['evaluate every rule on every page', `${ms(evaluateMs)} ms`, `${(evaluateMs / PAGES).toFixed(2)} ms`, `${((evaluateMs * 1000) / evaluations).toFixed(1)} µs`],
    ['  of which: parsing each page once (htmlparser2, for reference)', `${ms(median(parseTimes))} ms`, `${(median(parseTimes) / PAGES).toFixed(2)} ms`, ''],
    ['pages per second, one core', `${Math.round((PAGES * 1000) / evaluateMs)}`, '', ''],
  ],
);
console.log(`\noutcomes (last round): ${Object.entries(outcomes).map(([k, v]) => `${k} ${v}`).join(', ')}`);
const slowest = [...perRule.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
console.log(`slowest rules (last round, total over all pages; the first rule to select on a page pays its parse):`);
for (const [id, total] of slowest) console.log(`  ${id.padEnd(40)} ${ms(total)} ms`);
