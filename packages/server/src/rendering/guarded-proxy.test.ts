import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Resolve } from '../outbound/address-guard.ts';
import { type GuardedProxy, startGuardedProxy } from './guarded-proxy.ts';
import { DEFAULT_CHROMIUM, launchRenderingBrowser, newRenderingContext } from './rendering-browser.ts';

/** Names the test's resolver answers; nothing else resolves (no DNS leaves the machine). */
const NAMES: Record<string, string[]> = {
  'loopback.test': ['127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
};
const testResolve: Resolve = (hostname, _options, callback) => {
  const addresses = NAMES[hostname.toLowerCase()];
  const list: LookupAddress[] = (addresses ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  queueMicrotask(() =>
    addresses ? callback(null, list) : callback(Object.assign(new Error(`${hostname} not found`), { code: 'ENOTFOUND' }), []),
  );
};

/**
 * The page under attack. It is served by the test itself (a route fulfils it), so its origin
 * is `http://site.test` while everything it asks for goes to the network, that is, to the
 * proxy. Each attempt settles (error or load), then `window.done` is set.
 */
function attackPage(port: number): string {
  const targets = [
    `http://127.0.0.1:${port}/secret?via=fetch-v4`,
    `http://[::1]:${port}/secret?via=fetch-v6`,
    `http://localhost:${port}/secret?via=fetch-localhost`,
    `http://loopback.test:${port}/secret?via=fetch-name`,
    `http://mixed.test:${port}/secret?via=fetch-mixed`,
    'http://169.254.169.254/latest/meta-data/',
    `http://metadata.test/latest/meta-data/`,
    `https://127.0.0.1:${port}/secret?via=fetch-tls`,
    `http://2130706433:${port}/secret?via=fetch-decimal`,
    `http://[::ffff:127.0.0.1]:${port}/secret?via=fetch-mapped`,
    'file:///etc/passwd',
  ];
  return `<!doctype html><title>attack</title>
<img src="http://127.0.0.1:${port}/secret?via=img">
<iframe src="http://loopback.test:${port}/secret?via=iframe"></iframe>
<a id="download" href="/report.zip" download>x</a>
<script>
const settle = (element) => new Promise((resolve) => { element.onload = resolve; element.onerror = resolve; });
const attempts = ${JSON.stringify(targets)}.map((url) => fetch(url, { mode: 'no-cors' }).then(() => 'loaded', () => 'failed'));
const script = document.createElement('script');
script.src = 'http://127.0.0.1:${port}/secret?via=script';
attempts.push(settle(script));
document.head.append(script);
const style = document.createElement('link');
style.rel = 'stylesheet';
style.href = 'http://[::1]:${port}/secret?via=style';
attempts.push(settle(style));
document.head.append(style);
attempts.push(new Promise((resolve) => {
  const socket = new WebSocket('ws://127.0.0.1:${port}/socket');
  socket.onopen = () => resolve('open');
  socket.onerror = () => resolve('error');
}));
attempts.push(new Promise((resolve) => {
  const xhr = new XMLHttpRequest();
  xhr.open('GET', 'http://loopback.test:${port}/secret?via=xhr');
  xhr.onloadend = resolve;
  xhr.send();
}));
attempts.push(navigator.sendBeacon('http://127.0.0.1:${port}/secret?via=beacon') ? 'queued' : 'refused');
attempts.push(navigator.serviceWorker ? navigator.serviceWorker.register('/sw.js').then(() => { window.serviceWorker = 'registered'; }, () => { window.serviceWorker = 'refused'; }) : 'none');
attempts.push(new Promise((resolve) => {
  const worker = new Worker(URL.createObjectURL(new Blob(["fetch('http://127.0.0.1:${port}/secret?via=worker').finally(() => postMessage('done'))"])));
  worker.onmessage = resolve;
  worker.onerror = resolve;
}));
window.open('http://127.0.0.1:${port}/secret?via=popup');
document.getElementById('download').click();
Promise.allSettled(attempts).then((results) => { window.results = results; window.done = true; });
</script>`;
}

describe('rendering: every request of a page goes through the address guard', () => {
  let secret: Server;
  let port: number;
  const reached: string[] = [];
  const refused: string[] = [];
  const downloads: Promise<string | null>[] = [];
  let proxy: GuardedProxy;
  let browser: Browser;

  before(async () => {
    secret = createServer((request, response) => {
      reached.push(request.url ?? '');
      response.end('secret');
    });
    secret.on('upgrade', (request, socket) => {
      reached.push(`upgrade ${request.url}`);
      socket.destroy();
    });
    // '::' with dual stack: the secret answers on 127.0.0.1 and ::1 alike.
    await new Promise<void>((resolve) => secret.listen(0, '::', resolve));
    port = (secret.address() as AddressInfo).port;
    proxy = await startGuardedProxy({ allowPrivate: false, resolve: testResolve, onRefused: (_target, address) => refused.push(address) });
    browser = await launchRenderingBrowser({ executablePath: DEFAULT_CHROMIUM, proxyUrl: proxy.url });
  });

  after(async () => {
    await browser?.close();
    await proxy?.close();
    secret?.closeAllConnections();
    await new Promise((resolve) => secret?.close(resolve));
  });

  async function openAttack(): Promise<Page> {
    const context = await newRenderingContext(browser, 'LoupeBot/1.0 (test)');
    await context.route('http://site.test/', (route) => route.fulfill({ contentType: 'text/html', body: attackPage(port) }));
    await context.route('http://site.test/report.zip', (route) =>
      route.fulfill({ contentType: 'application/zip', headers: { 'content-disposition': 'attachment' }, body: 'PK' }),
    );
    await context.route('http://site.test/sw.js', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: `fetch('http://127.0.0.1:${port}/secret?via=sw')` }),
    );
    const page = await context.newPage();
    page.on('download', (download) => downloads.push(download.failure()));
    await page.goto('http://site.test/');
    await page.waitForFunction(() => (window as unknown as { done?: boolean }).done === true);
    return page;
  }

  it('refuses loopback, private, link-local and metadata targets, by literal and by name', async () => {
    const page = await openAttack();
    assert.notEqual(await page.evaluate(() => (window as unknown as { serviceWorker?: string }).serviceWorker), 'registered');
    // A navigation away makes the page's pending beacons and popups settle through the proxy.
    await page.goto('about:blank');
    await page.context().close();
    assert.deepEqual(reached, [], `the secret server was reached by ${reached.join(', ')}`);
    assert.equal(downloads.length, 1);
    assert.match((await downloads[0]) ?? 'completed', /acceptDownloads/);
    for (const address of ['127.0.0.1', '::1', '169.254.169.254']) {
      assert.ok(refused.includes(address), `no refusal of ${address} in ${refused.join(', ')}`);
    }
  });

  it('reaches a public address it is allowed to (the proxy is the way out, not a wall)', async () => {
    const open = await startGuardedProxy({ allowPrivate: true, resolve: testResolve });
    const allowed = await launchRenderingBrowser({ executablePath: DEFAULT_CHROMIUM, proxyUrl: open.url });
    try {
      const context = await newRenderingContext(allowed, 'LoupeBot/1.0 (test)');
      const page = await context.newPage();
      const response = await page.goto(`http://loopback.test:${port}/secret?via=allowed`);
      assert.equal(response?.status(), 200);
      assert.equal(await page.textContent('body'), 'secret');
      assert.ok(reached.includes('/secret?via=allowed'));
    } finally {
      await allowed.close();
      await open.close();
      reached.length = 0;
    }
  });
});

describe('the guarded proxy when the browser gives up on a request', () => {
  it('abandons the request upstream too, and goes on serving', async () => {
    let arrived: () => void = () => undefined;
    const requestArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let abandoned: () => void = () => undefined;
    const upstreamClosed = new Promise<void>((resolve) => {
      abandoned = resolve;
    });
    const site = createServer((request, response) => {
      if (request.url === '/hold') {
        arrived();
        // Answered only once the proxy has closed its side: a late answer must not reach a closed response.
        response.once('close', () => {
          abandoned();
          response.end('late');
        });
        return;
      }
      response.end('fresh');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://loopback.test:${(site.address() as AddressInfo).port}`;
    const proxy = await startGuardedProxy({ allowPrivate: true, resolve: testResolve });
    const viaProxy = (path: string) => {
      const { hostname, port } = new URL(proxy.url);
      return httpRequest({ host: hostname, port, path: `${origin}${path}` });
    };
    try {
      const held = viaProxy('/hold');
      held.on('error', () => undefined);
      held.end();
      await requestArrived;
      held.destroy();
      await upstreamClosed;
      const body = await new Promise<string>((resolve, reject) => {
        const fresh = viaProxy('/fresh');
        fresh.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk;
          });
          response.on('end', () => resolve(text));
        });
        fresh.on('error', reject);
        fresh.end();
      });
      assert.equal(body, 'fresh');
    } finally {
      await proxy.close();
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  });
});
