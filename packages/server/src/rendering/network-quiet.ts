import type { CDPSession } from 'playwright-core';

/**
 * How long no request may be in flight before a page counts as settled. Playwright's
 * `networkidle` waits 500 ms of quiet, a third of a typical page's whole render here; a
 * script that fetches on load, or chains one fetch after another, starts its next request
 * well within this window.
 */
export const QUIET_WINDOW_MS = 150;

export interface NetworkQuiet {
  /**
   * Resolves true once no request of this page has been in flight for `quietMs`, or false
   * when `budgetMs` passes first (a page that polls, streams or holds a request open).
   */
  settle(budgetMs: number, quietMs?: number): Promise<boolean>;
  /** Stops listening; the session stays open for the tab's next page. */
  stop(): void;
}

/**
 * Follows the requests in flight from Chromium's own network events on the page's CDP session
 * (Network.enable already sent). Only requests that start after this call count, so a
 * previous page's stragglers never keep this one from settling.
 */
export function watchNetworkQuiet(session: CDPSession): NetworkQuiet {
  const inFlight = new Set<string>();
  let changed: (() => void) | undefined;
  const started = (event: { requestId: string }) => {
    inFlight.add(event.requestId);
    changed?.();
  };
  const ended = (event: { requestId: string }) => {
    if (inFlight.delete(event.requestId)) changed?.();
  };
  session.on('Network.requestWillBeSent', started);
  session.on('Network.loadingFinished', ended);
  session.on('Network.loadingFailed', ended);
  return {
    settle(budgetMs, quietMs = QUIET_WINDOW_MS) {
      return new Promise<boolean>((resolve) => {
        let quiet: NodeJS.Timeout | undefined;
        const finish = (settled: boolean) => {
          clearTimeout(quiet);
          clearTimeout(budget);
          changed = undefined;
          resolve(settled);
        };
        const budget = setTimeout(() => finish(false), budgetMs);
        changed = () => {
          clearTimeout(quiet);
          if (inFlight.size === 0) quiet = setTimeout(() => finish(true), quietMs);
        };
        changed();
      });
    },
    stop() {
      changed = undefined;
      session.off('Network.requestWillBeSent', started);
      session.off('Network.loadingFinished', ended);
      session.off('Network.loadingFailed', ended);
    },
  };
}
