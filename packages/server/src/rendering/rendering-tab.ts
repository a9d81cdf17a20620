import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { labMetricsInitScript } from './lab-metrics-script.ts';

/**
 * A tab that renders one page after another in its context. Opening a tab costs a renderer
 * process and a CDP session; keeping it lets pages of a site share that process, and with it
 * V8's cache of axe-core's compiled code. A page that failed (a hung script, a crash) takes
 * its tab with it; any other page leaves it blank for the next.
 */
export class RenderingTab {
  readonly page: Page;
  /** Network (for the tallies) and Runtime (for compiled scripts) are enabled. */
  readonly session: CDPSession;
  #usable = true;

  private constructor(page: Page, session: CDPSession) {
    this.page = page;
    this.session = session;
  }

  static async open(context: BrowserContext): Promise<RenderingTab> {
    const page = await context.newPage();
    try {
      const session = await context.newCDPSession(page);
      await Promise.all([session.send('Network.enable'), session.send('Runtime.enable'), page.addInitScript(labMetricsInitScript)]);
      return new RenderingTab(page, session);
    } catch (error) {
      await page.close().catch(() => undefined);
      throw error;
    }
  }

  /** Whether the tab can take another page. */
  get usable(): boolean {
    return this.#usable && !this.page.isClosed();
  }

  /**
   * Leaves the page for about:blank, which ends its scripts, timers and requests before the
   * next page's tallies start; a tab that cannot within `timeoutMs` is closed.
   */
  async blank(timeoutMs: number): Promise<void> {
    try {
      await this.page.goto('about:blank', { timeout: timeoutMs });
    } catch {
      await this.close();
    }
  }

  /** A tab stuck in a script still closes: closing does not wait for the page's consent. */
  async close(): Promise<void> {
    this.#usable = false;
    await this.page.close({ runBeforeUnload: false }).catch(() => undefined);
  }
}
