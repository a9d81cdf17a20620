import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { BrowserPool, type BrowserPoolOptions } from './browser-pool.ts';
import type { RenderOptions } from './page-renderer.ts';
import { DEFAULT_CHROMIUM } from './rendering-browser.ts';

const html = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>${head}</head><body>${body}</body></html>`;

/** The local site: each path one behaviour a renderer must survive or measure. */
const PAGES: Record<string, { type?: string; body: string }> = {
  '/spa': {
    body: html(
      '<div id="app"></div>',
      `<script>fetch('/data.json').then((r) => r.json()).then((data) => {
        document.title = data.title;
        document.getElementById('app').innerHTML = '<h1>' + data.heading + '</h1>' + data.links.map((href) => '<a href="' + href + '">' + href + '</a>').join('');
      });</script>`,
    ),
  },
  '/data.json': {
    type: 'application/json',
    body: JSON.stringify({ title: 'Rendered title', heading: 'Only after JavaScript', links: ['/spa/one', '/spa/two'] }),
  },
  '/shifty': {
    body: html(
      '<p id="first">Intro</p><div style="height:500px;background:#eee">Text pushed down by the banner that arrives late.</div>',
      // Once the content has been painted (a shift of what was never painted counts for
      // nothing), a banner pushes it down and a 400 ms task blocks the page.
      `<script>new PerformanceObserver((list, observer) => {
        if (list.getEntriesByName('first-contentful-paint').length === 0) return;
        observer.disconnect();
        requestAnimationFrame(() => requestAnimationFrame(() => {
          const banner = document.createElement('div');
          banner.style.height = '400px';
          banner.style.background = '#c00';
          document.body.insertBefore(banner, document.getElementById('first'));
          const end = performance.now() + 400;
          while (performance.now() < end) {}
        }));
      }).observe({ type: 'paint', buffered: true });</script>`,
    ),
  },
  '/inaccessible': {
    body: html('<img src="/pixel.png"><button></button><p style="color:#777;background:#888">Low contrast</p>').replace(' lang="en"', ''),
  },
  '/pixel.png': { type: 'image/png', body: '' },
  '/busy-network': {
    // One request the site never answers, and polling besides: the network never goes quiet.
    body: html(
      '<p>Polling forever</p>',
      `<script>fetch('/never'); setInterval(() => fetch('/data.json?poll=' + Math.random()), 100);</script>`,
    ),
  },
  '/never': { body: '' },
  '/after-load': {
    // Content that arrives only after the load event, in two fetches one after the other.
    body: html(
      '<div id="app"></div>',
      `<script>addEventListener('load', () => fetch('/data.json').then((r) => r.json()).then((data) =>
        fetch('/data.json?again').then(() => { document.getElementById('app').innerHTML = '<h1>' + data.heading + '</h1>'; })));</script>`,
    ),
  },
  '/hangs': {
    body: html('<p>Hangs after load</p>', `<script>window.addEventListener('load', () => setTimeout(() => { for (;;) {} }, 0));</script>`),
  },
  '/crashes': {
    body: html(
      '<p>Eats memory</p>',
      `<script>const kept = []; setTimeout(function grow() { for (let i = 0; i < 50; i++) kept.push(new Array(1e6).fill(i)); setTimeout(grow, 0); }, 0);</script>`,
    ),
  },
  '/red': { body: html('<p>Red</p>', '<style>html,body{background:#f00;margin:0;height:100%}</style>') },
  '/assets': {
    body: html(
      '<img src="/pixel.png?a"><img src="/pixel.png?b">',
      '<link rel="stylesheet" href="/style.css"><script src="/script.js"></script>',
    ),
  },
  '/style.css': { type: 'text/css', body: 'p { color: #222 }' },
  '/script.js': { type: 'text/javascript', body: 'window.loaded = true;' },
};

/** A pool on Debian's Chromium, local addresses allowed (the test site is on loopback). */
const startPool = (options: Pick<BrowserPoolOptions, 'concurrency' | 'pagesPerContext'> & Partial<BrowserPoolOptions>) =>
  BrowserPool.start({
    executablePath: DEFAULT_CHROMIUM,
    allowPrivate: true,
    memoryBudgetBytes: 4 * 1024 ** 3,
    userAgent: 'LoupeBot/1.0 (test)',
    ...options,
  });

const OPTIONS: RenderOptions = { timeoutMs: 10_000, settleMs: 2_000, accessibility: false, screenshot: false };

describe('rendering pages in the browser pool', () => {
  let site: Server;
  let base: string;
  let pool: BrowserPool;
  let pixel: Buffer;

  before(async () => {
    pixel = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    site = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0] as string;
      const page = PAGES[path];
      if (!page) return void response.writeHead(404).end();
      if (path === '/never') return void response.writeHead(200, { 'content-type': 'text/plain' });
      response.writeHead(200, { 'content-type': page.type ?? 'text/html; charset=utf-8' });
      response.end(path === '/pixel.png' ? pixel : page.body);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    pool = await startPool({ concurrency: 2, pagesPerContext: 3 });
  });

  after(async () => {
    await pool?.close();
    site?.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('reads the DOM as JavaScript left it: content and links that the raw HTML lacks', async () => {
    const page = await pool.render(`${base}/spa`, OPTIONS);
    assert.equal(page.error, null);
    assert.equal(page.status, 200);
    assert.equal(page.settled, true);
    assert.match(page.html ?? '', /<title>Rendered title<\/title>/);
    assert.match(page.html ?? '', /<h1>Only after JavaScript<\/h1>/);
    assert.match(page.html ?? '', /href="\/spa\/two"/);
  });

  it('measures layout shift and blocking time from the page’s own performance APIs', async () => {
    const page = await pool.render(`${base}/shifty`, OPTIONS);
    assert.equal(page.error, null);
    const metrics = page.metrics;
    assert.ok(metrics);
    assert.ok(metrics.cls > 0.1, `CLS ${metrics.cls}`);
    assert.ok(metrics.tbtMs >= 300, `TBT ${metrics.tbtMs}`);
    assert.ok(metrics.longTasks >= 1);
    assert.ok(metrics.fcpMs !== null && metrics.lcpMs !== null && metrics.ttfbMs !== null);
    assert.ok((metrics.lcpMs ?? 0) >= (metrics.fcpMs ?? 0));
  });

  it('counts requests and bytes by kind, and names render-blocking resources', async () => {
    const page = await pool.render(`${base}/assets`, OPTIONS);
    assert.equal(page.transfer.byKind.document.requests, 1);
    assert.equal(page.transfer.byKind.image.requests, 2);
    assert.equal(page.transfer.byKind.stylesheet.requests, 1);
    assert.equal(page.transfer.byKind.script.requests, 1);
    assert.ok(page.transfer.bytes > pixel.length * 2);
    assert.deepEqual(page.metrics?.renderBlocking.map((url) => new URL(url).pathname).sort(), ['/script.js', '/style.css']);
  });

  it('reports axe-core violations with their WCAG references and elements', async () => {
    const page = await pool.render(`${base}/inaccessible`, { ...OPTIONS, accessibility: true });
    const rules = new Map((page.accessibility ?? []).map((violation) => [violation.rule, violation]));
    for (const rule of ['image-alt', 'button-name', 'color-contrast', 'html-has-lang'])
      assert.ok(rules.has(rule), `no ${rule} in ${[...rules.keys()]}`);
    const contrast = rules.get('color-contrast');
    assert.ok(contrast?.wcag.includes('1.4.3'));
    assert.equal(contrast?.impact, 'serious');
    assert.equal(rules.get('image-alt')?.elements[0]?.selector, 'img');
  });

  it('keeps a bounded screenshot of the first screen', async () => {
    const page = await pool.render(`${base}/red`, { ...OPTIONS, screenshot: true });
    assert.ok(page.screenshot);
    const { data, info } = await sharp(page.screenshot).raw().toBuffer({ resolveWithObject: true });
    assert.equal(info.width, 800);
    const [r, g, b] = [data[0], data[1], data[2]] as number[];
    assert.ok(r > 240 && g < 20 && b < 20, `first pixel ${r},${g},${b}`);
  });

  it('does not read a rendered DOM past its bound, and says why', async () => {
    const whole = await pool.render(`${base}/red`, OPTIONS);
    assert.ok(whole.html && whole.error === null);
    const cut = await pool.render(`${base}/red`, { ...OPTIONS, maxHtmlChars: whole.html.length - 1 });
    assert.deepEqual([cut.html, cut.error], [null, 'dom-too-large']);
    const exact = await pool.render(`${base}/red`, { ...OPTIONS, maxHtmlChars: whole.html.length });
    assert.equal(exact.html, whole.html);
  });

  it('does not wait forever for a page whose network never goes quiet', async () => {
    const page = await pool.render(`${base}/busy-network`, { ...OPTIONS, settleMs: 1_000 });
    assert.equal(page.error, null);
    assert.equal(page.settled, false);
    assert.match(page.html ?? '', /Polling forever/);
  });

  it('settles a quiet page without spending its settle budget', async () => {
    // Were the whole settle budget waited out, the page's own budget would end it first.
    const page = await pool.render(`${base}/spa`, { ...OPTIONS, timeoutMs: 20_000, settleMs: 600_000 });
    assert.equal(page.error, null);
    assert.equal(page.settled, true);
  });

  it('waits for requests a page makes after its load event, one after another', async () => {
    const page = await pool.render(`${base}/after-load`, { ...OPTIONS, timeoutMs: 20_000, settleMs: 600_000 });
    assert.equal(page.error, null);
    assert.equal(page.settled, true);
    assert.match(page.html ?? '', /<h1>Only after JavaScript<\/h1>/);
    assert.equal(page.transfer.byKind.fetch.requests, 2);
  });

  it('renders page after page in one tab, each counting only its own requests', async () => {
    const serial = await startPool({ concurrency: 1, pagesPerContext: 10 });
    try {
      const busy = await serial.render(`${base}/busy-network`, { ...OPTIONS, settleMs: 500 });
      assert.equal(busy.error, null);
      assert.equal(serial.stats().tabs, 1);
      const pages = [
        await serial.render(`${base}/assets`, OPTIONS),
        await serial.render(`${base}/assets`, { ...OPTIONS, accessibility: true }),
      ];
      for (const page of pages) {
        assert.equal(page.error, null);
        assert.deepEqual({ ...page.transfer, bytes: 0, byKind: {} }, { requests: 5, bytes: 0, byKind: {}, blocked: [], failed: 0 });
        assert.equal(page.settled, true);
      }
      assert.ok(pages[1]?.accessibility);
      assert.equal(serial.stats().tabs, 1);
    } finally {
      await serial.close();
    }
  });

  it('gives a hung page its budget and a crashed tab its error, and goes on', async () => {
    const [hung, crashed] = await Promise.all([
      // With a screenshot asked for: Chromium refuses it at once on a hung page, which must not hide the hang.
      pool.render(`${base}/hangs`, { ...OPTIONS, timeoutMs: 3_000, screenshot: true }),
      pool.render(`${base}/crashes`, { ...OPTIONS, timeoutMs: 60_000 }),
    ]);
    assert.equal(hung.error, 'timeout');
    assert.equal(hung.screenshot, null);
    assert.equal(crashed.error, 'crashed');
    const next = await pool.render(`${base}/spa`, OPTIONS);
    assert.equal(next.error, null);
    assert.match(next.html ?? '', /Only after JavaScript/);
  });

  it('recycles contexts every few pages and restarts a browser over its memory budget', async () => {
    const small = await startPool({ concurrency: 2, pagesPerContext: 2, memoryBudgetBytes: 1 });
    try {
      const pages = await Promise.all(Array.from({ length: 10 }, (_, index) => small.render(`${base}/red?${index}`, OPTIONS)));
      assert.deepEqual(
        pages.map((page) => page.error),
        pages.map(() => null),
      );
      const stats = small.stats();
      assert.equal(stats.pages, 10);
      assert.ok(stats.contexts >= 5, `contexts ${stats.contexts}`);
      assert.ok(stats.browserStarts >= 2, `browser starts ${stats.browserStarts}`);
      assert.ok(stats.peakBrowserBytes > 0);
    } finally {
      await small.close();
    }
  });
});
