import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PageLab, PageLabMetrics } from '@loupe/contract';
import { byKind, check, compliantHtml, compliantPage, firing, goodLab, renderedPage } from './test-page.ts';

const LAB_RULES = [
  'performance/render-failed',
  'performance/slow-lcp',
  'performance/layout-shift',
  'performance/blocking-time',
  'performance/render-blocking',
  'performance/heavy-page',
];

function withMetrics(metrics: Partial<PageLabMetrics>): ReturnType<typeof renderedPage> {
  const lab = goodLab();
  return renderedPage(compliantHtml(), compliantHtml(), { lab: { ...lab, metrics: { ...(lab.metrics as PageLabMetrics), ...metrics } } });
}

function failed(error: string, overrides: Partial<PageLab> = {}) {
  return renderedPage(compliantHtml(), compliantHtml(), {
    rendered: false,
    lab: goodLab({ error, metrics: null, durationMs: 30_000, ...overrides }),
  });
}

describe('the lab performance rules', () => {
  it('fire on nothing outside a rendering crawl, or on a fast, light, rendered page', () => {
    assert.deepEqual(
      firing(compliantPage()).filter((id) => LAB_RULES.includes(id)),
      [],
    );
    assert.deepEqual(firing(renderedPage(compliantHtml())), []);
  });
});

describe('performance/render-failed', () => {
  it('fires when the browser timed out or crashed, naming why and after how long', () => {
    assert.deepEqual(check('performance/render-failed', failed('timeout')), {
      count: 1,
      samples: ['timeout after 30,000 ms'],
      detail: 'timeout',
    });
    assert.equal(check('performance/render-failed', failed('crashed'))?.detail, 'crashed');
    assert.equal(check('performance/render-failed', failed('navigation: net::ERR_ABORTED'))?.detail, 'navigation: net::ERR_ABORTED');
  });
  it('is the only lab rule a failed render fires, even with metrics read before it failed', () => {
    const lab = goodLab();
    const page = failed('timeout', {
      metrics: { ...(lab.metrics as PageLabMetrics), lcpMs: 9_000, renderBlocking: ['https://example.com/a.css'] },
    });
    assert.deepEqual(
      firing(page).filter((id) => LAB_RULES.includes(id)),
      ['performance/render-failed'],
    );
  });
});

describe('performance/slow-lcp', () => {
  it('is a notice past 2.5 s and a warning past 4 s', () => {
    assert.equal(check('performance/slow-lcp', withMetrics({ lcpMs: 2_500 })), null);
    assert.deepEqual(check('performance/slow-lcp', withMetrics({ lcpMs: 2_501 })), {
      count: 1,
      samples: ['LCP 2.5 s'],
      detail: 'LCP 2.5 s',
    });
    assert.equal(check('performance/slow-lcp', withMetrics({ lcpMs: 4_000 }))?.severity, undefined);
    assert.deepEqual(check('performance/slow-lcp', withMetrics({ lcpMs: 4_001 })), {
      count: 1,
      samples: ['LCP 4.0 s'],
      detail: 'LCP 4.0 s',
      severity: 'warning',
    });
  });
  it('does not fire when nothing was painted', () => {
    assert.equal(check('performance/slow-lcp', withMetrics({ lcpMs: null })), null);
  });
});

describe('performance/layout-shift', () => {
  it('is a notice past 0.1 and a warning past 0.25', () => {
    assert.equal(check('performance/layout-shift', withMetrics({ cls: 0.1 })), null);
    assert.deepEqual(check('performance/layout-shift', withMetrics({ cls: 0.14 })), {
      count: 1,
      samples: ['CLS 0.14'],
      detail: 'CLS 0.14',
    });
    assert.equal(check('performance/layout-shift', withMetrics({ cls: 0.25 }))?.severity, undefined);
    assert.equal(check('performance/layout-shift', withMetrics({ cls: 0.31 }))?.severity, 'warning');
  });
});

describe('performance/blocking-time', () => {
  it('is a notice past 200 ms and a warning past 600 ms', () => {
    assert.equal(check('performance/blocking-time', withMetrics({ tbtMs: 200 })), null);
    assert.deepEqual(check('performance/blocking-time', withMetrics({ tbtMs: 1_250.4 })), {
      count: 1,
      samples: ['TBT 1,250 ms'],
      detail: 'TBT 1,250 ms',
      severity: 'warning',
    });
    assert.equal(check('performance/blocking-time', withMetrics({ tbtMs: 600 }))?.severity, undefined);
  });
});

describe('performance/render-blocking', () => {
  it('lists the resources the browser marked render-blocking', () => {
    const blocking = [
      'https://example.com/site.css',
      'https://example.com/fonts.css',
      'https://example.com/app.js',
      'https://cdn.example.net/x.js',
    ];
    assert.deepEqual(check('performance/render-blocking', withMetrics({ renderBlocking: blocking })), {
      count: 4,
      samples: blocking.slice(0, 3),
      more: blocking.slice(3),
      detail: '4 render-blocking resources',
    });
  });
});

describe('performance/heavy-page', () => {
  it('fires past 4,000 KiB transferred, heaviest kinds first', () => {
    const transfer = (bytes: number): PageLab['transfer'] => ({
      requests: 64,
      bytes,
      byKind: byKind({
        document: { requests: 1, bytes: 30_000 },
        image: { requests: 40, bytes: bytes - 1_030_000 },
        script: { requests: 20, bytes: 1_000_000 },
        font: { requests: 3, bytes: 0 },
      }),
      blocked: [],
      failed: 0,
    });
    const page = (bytes: number) => renderedPage(compliantHtml(), compliantHtml(), { lab: goodLab({ transfer: transfer(bytes) }) });
    assert.equal(check('performance/heavy-page', page(4_000 * 1024)), null);
    assert.deepEqual(check('performance/heavy-page', page(5 * 1024 * 1024)), {
      count: 1,
      samples: ['image 4.0 MiB (40 requests)', 'script 976.6 KiB (20 requests)', 'document 29.3 KiB (1 request)'],
      detail: '5.0 MiB in 64 requests',
    });
  });
  it('counts what a page that timed out had already loaded', () => {
    const lab = goodLab({ error: 'timeout', metrics: null, transfer: { ...goodLab().transfer, bytes: 9_000_000 } });
    assert.equal(
      check('performance/heavy-page', renderedPage(compliantHtml(), compliantHtml(), { rendered: false, lab }))?.detail,
      '8.6 MiB in 12 requests',
    );
  });
});
