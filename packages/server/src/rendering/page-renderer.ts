import type { CDPSession, Page } from 'playwright-core';
import { type AccessibilityViolation, checkAccessibility } from './accessibility-check.ts';
import { type PageLabMetrics, readLabMetrics } from './lab-metrics-script.ts';
import { watchNetworkQuiet } from './network-quiet.ts';
import type { RenderingTab } from './rendering-tab.ts';
import { type TransferSummary, tallyTransfers } from './transfer-tally.ts';

export interface RenderOptions {
  /** The whole page, from navigation to the last reading, ends after this. */
  timeoutMs: number;
  /** Once loaded, how long to wait at most for the network to go quiet (no request in flight for QUIET_WINDOW_MS). */
  settleMs: number;
  accessibility: boolean;
  /** A rendered DOM longer than this (UTF-16 units) is not read: the page gets error 'dom-too-large'. */
  maxHtmlChars?: number;
  screenshot: boolean;
}

export interface RenderedPage {
  url: string;
  /** Where the page ended, after redirects and script navigations. */
  finalUrl: string;
  /** Status of the main document's response; null when none arrived. */
  status: number | null;
  /** The DOM serialized after rendering; null when the page failed before it could be read. */
  html: string | null;
  /** The network went quiet within `settleMs` after load. */
  settled: boolean;
  metrics: PageLabMetrics | null;
  transfer: TransferSummary;
  accessibility: AccessibilityViolation[] | null;
  /** JPEG of the first screen, at most SCREENSHOT_WIDTH wide. */
  screenshot: Buffer | null;
  /** 'timeout' (the page's budget ran out), 'crashed' (the tab died), 'dom-too-large', or 'navigation: …'. */
  error: string | null;
  durationMs: number;
  /** Where the page's time went, ms per step; a step not run (or not reached) is 0. Absent when no tab was reached. */
  steps?: RenderSteps;
}

export interface RenderSteps {
  /** A tab: the last page's, or a new one with its CDP session and init script. */
  openMs: number;
  /** Navigation up to the load event. */
  gotoMs: number;
  settleMs: number;
  metricsMs: number;
  contentMs: number;
  accessibilityMs: number;
  screenshotMs: number;
  /** Leaving the page for about:blank, or closing its tab after a failure. */
  closeMs: number;
}

const SCREENSHOT_WIDTH = 800;
const SCREENSHOT_QUALITY = 60;
/** How long a finished page may take to leave for about:blank before its tab is closed instead. */
const BLANK_TIMEOUT_MS = 2_000;

class PageBudgetExceeded extends Error {}
class DomTooLarge extends Error {}

/** The document as page.content() serializes it (doctype and outerHTML), or null past `max` characters. Runs in the page. */
function serializedDom(max: number): string | null {
  const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
  const html = doctype + document.documentElement.outerHTML;
  return html.length > max ? null : html;
}

/**
 * Loads one URL in a tab (from `openTab`) and reads what a visitor's browser would have: the
 * rendered DOM, lab metrics, transfers, and optionally axe's violations and a screenshot.
 * Every step is bounded by the page's budget; a hung script or a crashed tab costs this page
 * its budget and is reported, never the caller's progress. Afterwards the tab is blank and
 * ready for another page, or closed when this one failed (`tab.usable` says which).
 */
export async function renderPage(
  openTab: () => Promise<RenderingTab>,
  url: string,
  options: RenderOptions,
  refusedTunnel: (url: string) => boolean,
): Promise<RenderedPage> {
  const started = performance.now();
  const deadline = started + options.timeoutMs;
  const remaining = () => Math.max(1, Math.round(deadline - performance.now()));
  const steps: RenderSteps = {
    openMs: 0,
    gotoMs: 0,
    settleMs: 0,
    metricsMs: 0,
    contentMs: 0,
    accessibilityMs: 0,
    screenshotMs: 0,
    closeMs: 0,
  };
  /** Runs one step and charges its time to `step`; steps may overlap, each counts its own span. */
  const timed = async <T>(step: keyof RenderSteps, run: () => Promise<T>): Promise<T> => {
    const from = performance.now();
    try {
      return await run();
    } finally {
      steps[step] = Math.round(performance.now() - from);
    }
  };

  const tab = await timed('openMs', openTab);
  const { page, session } = tab;
  let crashed = false;
  let onCrash: () => void = () => undefined;
  const crash = new Promise<never>((_, reject) => {
    onCrash = () => {
      crashed = true;
      reject(new Error('crashed'));
    };
    page.once('crash', onCrash);
  });
  crash.catch(() => undefined);
  /** A step of the page, abandoned when the budget runs out or the tab crashes. */
  const bounded = <T>(step: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const expiry = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PageBudgetExceeded()), remaining());
    });
    return Promise.race([step, expiry, crash]).finally(() => clearTimeout(timer));
  };

  const transfers = tallyTransfers(session, refusedTunnel);
  const network = watchNetworkQuiet(session);
  const result: RenderedPage = {
    url,
    finalUrl: url,
    status: null,
    html: null,
    settled: false,
    metrics: null,
    transfer: transfers.summary(),
    accessibility: null,
    screenshot: null,
    error: null,
    durationMs: 0,
    steps,
  };
  try {
    const response = await timed('gotoMs', () => bounded(page.goto(url, { waitUntil: 'load', timeout: remaining() })));
    result.status = response?.status() ?? null;
    result.settled = await timed('settleMs', () => bounded(network.settle(Math.min(options.settleMs, remaining()))));
    result.finalUrl = page.url();
    // Reading the page does not change it, so the readings overlap; axe comes last, as it may
    // scroll the page while it checks contrast.
    const [metrics, html, shot] = await Promise.all([
      timed('metricsMs', () => bounded(page.evaluate(readLabMetrics))),
      timed('contentMs', () => bounded(page.evaluate(serializedDom, options.maxHtmlChars ?? Number.MAX_SAFE_INTEGER))),
      // A screenshot Chromium cannot take (a page whose script holds its main thread) is only a
      // missing screenshot: the page's own outcome comes from the other readings.
      options.screenshot ? timed('screenshotMs', () => bounded(screenshot(page, session)).catch(() => null)) : null,
    ]);
    result.metrics = metrics;
    result.html = html;
    // Measured in the page: a DOM grown without bound (an endless feed) never crosses to this process.
    if (html === null) throw new DomTooLarge();
    result.screenshot = shot;
    if (options.accessibility) result.accessibility = await timed('accessibilityMs', () => bounded(checkAccessibility(page, session)));
  } catch (error) {
    result.error = crashed
      ? 'crashed'
      : error instanceof DomTooLarge
        ? 'dom-too-large'
        : error instanceof PageBudgetExceeded || isTimeout(error)
          ? 'timeout'
          : `navigation: ${firstLine(error)}`;
  } finally {
    page.off('crash', onCrash);
    network.stop();
    transfers.stop();
    result.transfer = transfers.summary();
    await timed('closeMs', () => (result.error === null ? tab.blank(Math.min(BLANK_TIMEOUT_MS, remaining())) : tab.close()));
    result.durationMs = Math.round(performance.now() - started);
  }
  return result;
}

/**
 * The first screen as Chromium encodes it, scaled down to SCREENSHOT_WIDTH in the same pass
 * (a clip's scale): no second decode and encode in this process.
 */
async function screenshot(page: Page, session: CDPSession): Promise<Buffer> {
  const viewport = page.viewportSize() ?? { width: SCREENSHOT_WIDTH, height: SCREENSHOT_WIDTH };
  const scale = Math.min(1, SCREENSHOT_WIDTH / viewport.width);
  const { data } = await session.send('Page.captureScreenshot', {
    format: 'jpeg',
    quality: SCREENSHOT_QUALITY,
    clip: { x: 0, y: 0, width: viewport.width, height: viewport.height, scale },
    optimizeForSpeed: true,
  });
  return Buffer.from(data, 'base64');
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 200) ?? '';
}
