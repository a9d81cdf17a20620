import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { type GuardedProxy, startGuardedProxy } from './guarded-proxy.ts';
import { DEFAULT_CHROMIUM, launchRenderingBrowser, newRenderingContext } from './rendering-browser.ts';

/**
 * What a rendered page may ask of the browser besides the network (the proxy's part is
 * guarded-proxy.test.ts): no permission is granted, no file is read, no popup stays open.
 * The page is served by the test itself through a route, so nothing leaves the machine.
 */
describe('rendering: a page gets no permission, no file and no popup', () => {
  let proxy: GuardedProxy;
  let browser: Browser;
  let context: BrowserContext;

  before(async () => {
    proxy = await startGuardedProxy({
      allowPrivate: false,
      resolve: (_host, _options, callback) => callback(new Error('no DNS here'), []),
    });
    browser = await launchRenderingBrowser({ executablePath: DEFAULT_CHROMIUM, proxyUrl: proxy.url });
    context = await newRenderingContext(browser, 'LoupeBot/1.0 (test)');
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await proxy?.close();
  });

  async function open(body: string) {
    await context.route('http://site.test/', (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html>${body}` }));
    const page = await context.newPage();
    await page.goto('http://site.test/');
    return page;
  }

  it('denies geolocation, notifications, the camera and the clipboard', async () => {
    const page = await open('<title>asks</title>');
    const answers = await page.evaluate(async () => {
      const geolocation = await new Promise<string>((resolve) =>
        navigator.geolocation.getCurrentPosition(
          () => resolve('granted'),
          (error) => resolve(`denied ${error.code}`),
          { timeout: 5_000 },
        ),
      );
      const notifications = await Notification.requestPermission();
      const camera = await navigator.mediaDevices?.getUserMedia({ video: true }).then(
        () => 'granted',
        (error: Error) => `refused ${error.name}`,
      );
      const clipboard = await navigator.clipboard?.readText().then(
        () => 'read',
        (error: Error) => `refused ${error.name}`,
      );
      return { geolocation, notifications, camera: camera ?? 'absent', clipboard: clipboard ?? 'absent' };
    });
    await page.close();
    assert.equal(answers.geolocation, 'denied 1', 'PERMISSION_DENIED');
    assert.equal(answers.notifications, 'denied');
    assert.notEqual(answers.camera, 'granted');
    assert.notEqual(answers.clipboard, 'read');
  });

  it('reads no file: URL, by frame, fetch or navigation', async () => {
    const page = await open(`<title>files</title><iframe id="frame" src="file:///etc/passwd"></iframe>`);
    const fetched = await page.evaluate(() =>
      fetch('file:///etc/passwd').then(
        (answer) => answer.text(),
        () => 'refused',
      ),
    );
    assert.equal(fetched, 'refused');
    const framed = page.frames().find((frame) => frame.url().startsWith('file:'));
    const framedText = framed ? await framed.evaluate(() => document.body?.textContent ?? '').catch(() => '') : '';
    assert.doesNotMatch(framedText, /root:/);
    await page.evaluate(() => {
      location.href = 'file:///etc/passwd';
    });
    await page.waitForLoadState('load');
    assert.doesNotMatch(await page.content(), /root:/);
    await page.close();
  });

  it('closes every popup a page opens', async () => {
    const page = await open('<title>popups</title>');
    const popup = context.waitForEvent('page');
    await page.evaluate(() => window.open('http://site.test/'));
    const opened = await popup;
    await opened.waitForEvent('close');
    assert.deepEqual(
      context.pages().map((open) => open.url()),
      ['http://site.test/'],
    );
    await page.close();
  });
});
