import { type Browser, type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); rendering never uses a downloaded browser. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export interface RenderingBrowserOptions {
  executablePath: string;
  /** The guarded proxy every request of every page goes through (guarded-proxy.ts). */
  proxyUrl: string;
}

/**
 * Chromium with no way out but the guarded proxy:
 * - `--proxy-bypass-list=<-loopback>` removes the implicit bypass of localhost, so even
 *   loopback requests reach the proxy (and its refusal);
 * - its own resolver answers nothing but the proxy's literal address, so no name is looked
 *   up inside the browser (no DNS prefetch, no rebinding behind the proxy's back);
 * - QUIC off and WebRTC restricted to proxied UDP (none), the two ways around an HTTP proxy.
 * The sandbox needs a user other than root; as root (containers) Chromium refuses to start
 * with it, so it is dropped there and the proxy stays the boundary.
 */
export async function launchRenderingBrowser(options: RenderingBrowserOptions): Promise<Browser> {
  return chromium.launch({
    executablePath: options.executablePath,
    headless: true,
    chromiumSandbox: process.getuid?.() !== 0,
    proxy: { server: options.proxyUrl, bypass: '<-loopback>' },
    args: [
      `--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1`,
      '--disable-quic',
      '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
      '--webrtc-ip-handling-policy=disable_non_proxied_udp',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-features=DnsOverHttps,MediaRouter,OptimizationHints',
      '--mute-audio',
      // A page's script heap beyond this ends its tab (a crash the renderer reports), not the machine.
      '--js-flags=--max-old-space-size=512',
    ],
  });
}

/**
 * A context for a few pages of one crawl: service workers blocked (they would outlive the
 * page and fetch on their own), downloads refused, no permission granted, and every popup
 * or new tab a page opens closed at once.
 */
export async function newRenderingContext(browser: Browser, userAgent: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    userAgent,
    serviceWorkers: 'block',
    acceptDownloads: false,
    permissions: [],
    viewport: { width: 1350, height: 940 },
    javaScriptEnabled: true,
  });
  context.on('page', (page) => {
    void page.opener().then((opener) => (opener ? page.close() : undefined));
  });
  return context;
}
