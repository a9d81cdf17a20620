import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What the page's own performance APIs said, read once the page has settled. */
export interface PageLabMetrics {
  /** Largest contentful paint, ms from navigation start; null when nothing was painted. */
  lcpMs: number | null;
  /** First contentful paint. */
  fcpMs: number | null;
  /** Cumulative layout shift, web-vitals' largest session window. */
  cls: number;
  /** Total blocking time: the part over 50 ms of each long task after first contentful paint. */
  tbtMs: number;
  longTasks: number;
  /** Time to first byte of the document (web-vitals' TTFB). */
  ttfbMs: number | null;
  /** Resources the browser marked render-blocking (resource timing's renderBlockingStatus). */
  renderBlocking: string[];
}

// web-vitals' browser build defines `webVitals`; its definitions of LCP, CLS (session
// windows), FCP and TTFB are the ones Google's tools report, so they are not rewritten here.
const webVitalsBuild = readFileSync(join(dirname(createRequire(import.meta.url).resolve('web-vitals')), 'web-vitals.iife.js'), 'utf8');

/**
 * Runs in every page before its own scripts: starts the observers, so that entries of the
 * first paint and the first long tasks are kept even if they happen before we ask.
 */
export const labMetricsInitScript = `${webVitalsBuild}
(() => {
  const lab = { lcp: null, fcp: null, cls: 0, ttfb: null, longTasks: [] };
  Object.defineProperty(window, '__loupeLab', { value: lab, enumerable: false });
  const all = { reportAllChanges: true };
  webVitals.onLCP((metric) => { lab.lcp = metric.value; }, all);
  webVitals.onFCP((metric) => { lab.fcp = metric.value; }, all);
  webVitals.onCLS((metric) => { lab.cls = metric.value; }, all);
  webVitals.onTTFB((metric) => { lab.ttfb = metric.value; }, all);
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) lab.longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
})();`;

/** Evaluated in the page once it settled: the observers' figures, plus render-blocking resources. */
export function readLabMetrics(): PageLabMetrics {
  type Lab = { lcp: number | null; fcp: number | null; cls: number; ttfb: number | null; longTasks: [number, number][] };
  const lab = (window as unknown as { __loupeLab?: Lab }).__loupeLab;
  const fcp = lab?.fcp ?? null;
  const tasks = lab?.longTasks ?? [];
  const tbt = tasks.filter(([start]) => fcp === null || start >= fcp).reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
  const blocking = performance
    .getEntriesByType('resource')
    .filter((entry) => (entry as PerformanceResourceTiming & { renderBlockingStatus?: string }).renderBlockingStatus === 'blocking')
    .map((entry) => entry.name);
  const round = (value: number | null) => (value === null ? null : Math.round(value));
  return {
    lcpMs: round(lab?.lcp ?? null),
    fcpMs: round(fcp),
    cls: Math.round((lab?.cls ?? 0) * 1000) / 1000,
    tbtMs: Math.round(tbt),
    longTasks: tasks.length,
    ttfbMs: round(lab?.ttfb ?? null),
    renderBlocking: blocking.slice(0, 50),
  };
}
