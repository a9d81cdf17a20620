import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pictureSnippet } from '@loupe/sdk';
import { setUpOwner } from '@loupe/server/src/sessions/test-session.ts';
import { readTestImage, uploadForm } from '@loupe/server/src/testing/test-images.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import { decode } from '@loupe/server/src/transform/test-pixels.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { signIn } from './sign-in.ts';

const OWNER_EMAIL = 'rosa@example.test';
/** Quotes, an ampersand and angle brackets: the snippet must escape them and a browser read them back. */
const ALT = 'Falcon "9" & <its> launch';
const PUBLIC_URL = 'http://localhost:8080';

/** The responsive snippet on the image page and the client hints setting (issue #26 point 3). */
describe('the responsive snippet in a browser', () => {
  let t: TestServer;
  let browser: Chromium;
  let page: Page;
  let projectId: string;
  let slug: string;
  let imageId: string;
  let secret: string;

  before(async () => {
    await ensureDashboardBuilt();
    t = await startTestServer('sqlite');
    await setUpOwner(t, OWNER_EMAIL);
    const project = await t.request('POST', '/api/images/projects', { body: { name: 'Launches' } });
    projectId = project.body.id;
    slug = project.body.slug;
    await t.request('POST', `/api/images/projects/${projectId}/presets`, {
      body: { name: 'card', transforms: { width: 300, fit: 'cover' } },
    });
    secret = (await t.request('POST', `/api/images/projects/${projectId}/signing`, { body: { requireSignedUrls: true } })).body
      .signingSecret;
    const upload = await fetch(`${t.url}/api/images/projects/${projectId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.owner.key}` },
      body: uploadForm({ name: 'rocket.jpg', data: await readTestImage('rocket.jpg') }, { path: 'launch pad/rocket.jpg' }),
    });
    imageId = ((await upload.json()) as { id: string }).id;
    await t.request('PATCH', `/api/images/projects/${projectId}/images/${imageId}`, { body: { altText: ALT } });
    browser = await launchChromium();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    page = await browser.context.newPage();
    await signIn(page, t.url, OWNER_EMAIL);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('turns client hints on from the project settings', async () => {
    await page.goto(`${t.url}/w/${t.owner.workspaceId}/images/${projectId}/settings`);
    await page.getByLabel('Honour client hints').check();
    await page.getByRole('button', { name: 'Save client hints' }).click();
    await page.getByRole('form', { name: 'Client hints' }).getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    assert.equal((await t.request('GET', `/api/images/projects/${projectId}`)).body.clientHints, true);
  });

  it('copies the SDK’s <picture> for the chosen preset, widths and sizes, signed, and every URL is its width', async () => {
    await page.goto(`${t.url}/w/${t.owner.workspaceId}/images/${projectId}/images/${imageId}`);
    const box = page.getByRole('region', { name: 'Responsive snippet' });
    await box.getByLabel('Preset').selectOption('card');
    await box.getByLabel('Widths').fill('400, 200');
    await box.getByLabel('Sizes').fill('(min-width: 800px) 50vw, 100vw');
    await box.getByLabel('<picture> with AVIF and WebP').check();
    const expected = await pictureSnippet({
      baseUrl: PUBLIC_URL,
      project: slug,
      path: 'launch pad/rocket.jpg',
      preset: 'card',
      widths: [200, 400],
      sizes: '(min-width: 800px) 50vw, 100vw',
      alt: ALT,
      formats: ['avif', 'webp'],
      sign: { secret },
    });
    await box.getByLabel('Responsive snippet').filter({ hasText: expected }).waitFor();
    await box.getByRole('button', { name: 'Copy snippet' }).click();
    await box.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, expected);

    // The browser reads the markup back as written: one picture, two sources, the alt text intact.
    const onServer = copied.replaceAll(PUBLIC_URL, t.url);
    const parsed = await page.evaluate((html) => {
      const template = document.createElement('template');
      template.innerHTML = html;
      const picture = template.content.querySelector('picture');
      return {
        children: [...(picture?.children ?? [])].map((child) => `${child.tagName}:${child.getAttribute('type') ?? ''}`),
        alt: picture?.querySelector('img')?.getAttribute('alt'),
        srcsets: [...(picture?.querySelectorAll('[srcset]') ?? [])].map((each) => each.getAttribute('srcset') ?? ''),
      };
    }, onServer);
    assert.deepEqual(parsed.children, ['SOURCE:image/avif', 'SOURCE:image/webp', 'IMG:']);
    assert.equal(parsed.alt, ALT);
    for (const srcset of parsed.srcsets) {
      for (const candidate of srcset.split(', ')) {
        const [url = '', descriptor = ''] = candidate.split(' ');
        const response = await fetch(url, { headers: { 'sec-ch-dpr': '2' } });
        assert.equal(response.status, 200, url);
        assert.equal((await decode(Buffer.from(await response.arrayBuffer()))).width, Number.parseInt(descriptor, 10), url);
      }
    }
  });
});
