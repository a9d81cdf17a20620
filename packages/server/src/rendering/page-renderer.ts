import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { type AccessibilityViolation, checkAccessibility } from './accessibility-check.ts';
import { labMetricsInitScript, type PageLabMetrics, readLabMetrics } from './lab-metrics-script.ts';
import { type TransferSummary, tallyTransfers } from './transfer-tally.ts';

export interface RenderOptions {
  /** The whole page, from navigation to the last reading, ends after this. */
  timeoutMs: number;
  /** Once loaded, how long to wait at most for the network to go quiet (Playwright's `networkidle`). */
  settleMs: number;
  accessibility: boolean;
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
  /** 'timeout' (the page's budget ran out), 'crashed' (the tab died), or 'navigation: …'. */
  error: string | null;
  durationMs: number;
  /** Where the page's time went, ms per step; a step not run (or not reached) is 0. */
  steps: RenderSteps;
}

export interface RenderSteps {
  /** New tab, its CDP session and init script. */
  openMs: number;
  /** Navigation up to the load event. */
  gotoMs: number;
  settleMs: number;
  metricsMs: number;
  contentMs: number;
  accessibilityMs: number;
  screenshotMs: number;
  closeMs: number;
}

const SCREENSHOT_WIDTH = 800;
const SCREENSHOT_QUALITY = 60;

class PageBudgetExceeded extends Error {}

/**
 * Loads one URL in a fresh tab of `context` and reads what a visitor's browser would have:
 * the rendered DOM, lab metrics, transfers, and optionally axe's violations and a screenshot.
 * Every step is bounded by the page's budget; a hung script or a crashed tab costs this page
 * its budget and is reported, never the caller's progress. The tab is always closed.
 */
export async function renderPage(
  context: BrowserContext,
  url: string,
  options: RenderOptions,
  refusedTunnel: (url: string) => boolean,
): Promise<RenderedPage> {
  const started = performance.now();
  const deadline = started + options.timeoutMs;
  const remaining = () => Math.max(1, Math.round(deadline - performance.now()));
  const page = await context.newPage();
  let crashed = false;
  const crash = new Promise<never>((_, reject) =>
    page.once('crash', () => {
      crashed = true;
      reject(new Error('crashed'));
    }),
  );
  crash.catch(() => undefined);
  /** A step of the page, abandoned when the budget runs out or the tab crashes. */
  const bounded = <T>(step: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const expiry = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PageBudgetExceeded()), remaining());
    });
    return Promise.race([step, expiry, crash]).finally(() => clearTimeout(timer));
  };

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
  let stepStarted = started;
  /** Charges the time since the previous step's end to `step`. */
  const timed = <T>(step: keyof RenderSteps, value: T): T => {
    const now = performance.now();
    steps[step] = Math.round(now - stepStarted);
    stepStarted = now;
    return value;
  };
  const session = await context.newCDPSession(page);
  const transfers = await tallyTransfers(session, refusedTunnel);
  await page.addInitScript(labMetricsInitScript);
  const result: RenderedPage = {
    url,
    finalUrl: url,
    status: null,
    html: null,
    settled: false,
    metrics: null,
    transfer: transfers(),
    accessibility: null,
    screenshot: null,
    error: null,
    durationMs: 0,
    steps,
  };
  timed('openMs', undefined);
  try {
    const response = timed('gotoMs', await bounded(page.goto(url, { waitUntil: 'load', timeout: remaining() })));
    result.status = response?.status() ?? null;
    result.settled = await bounded(
      page.waitForLoadState('networkidle', { timeout: Math.min(options.settleMs, remaining()) }).then(
        () => true,
        () => false,
      ),
    );
    timed('settleMs', undefined);
    result.finalUrl = page.url();
    result.metrics = timed('metricsMs', await bounded(page.evaluate(readLabMetrics)));
    result.html = timed('contentMs', await bounded(page.content()));
    if (options.accessibility) result.accessibility = timed('accessibilityMs', await bounded(checkAccessibility(page)));
    if (options.screenshot) result.screenshot = timed('screenshotMs', await bounded(screenshot(page, remaining())));
  } catch (error) {
    result.error = crashed
      ? 'crashed'
      : error instanceof PageBudgetExceeded || isTimeout(error)
        ? 'timeout'
        : `navigation: ${firstLine(error)}`;
  } finally {
    result.transfer = transfers();
    stepStarted = performance.now();
    // A tab stuck in a script still closes: closing does not wait for the page's consent.
    await page.close({ runBeforeUnload: false }).catch(() => undefined);
    timed('closeMs', undefined);
    result.durationMs = Math.round(performance.now() - started);
  }
  return result;
}

async function screenshot(page: Page, timeout: number): Promise<Buffer> {
  const shot = await page.screenshot({ type: 'jpeg', quality: 80, timeout, scale: 'css' });
  return sharp(shot)
    .resize({ width: SCREENSHOT_WIDTH, withoutEnlargement: true })
    .jpeg({ quality: SCREENSHOT_QUALITY, mozjpeg: true })
    .toBuffer();
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 200) ?? '';
}
