import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addPasswordMember, setUpOwner } from '@loupe/server/src/sessions/test-session.ts';
import { readTestImage } from '@loupe/server/src/testing/test-images.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { screenshot } from './screenshots.ts';
import { signIn } from './sign-in.ts';

const OWNER_EMAIL = 'olga@example.test';

/** Drops files on the element as a user dragging them from the desktop would: a real DataTransfer carrying Files. */
async function dropFiles(page: Page, testId: string, files: { name: string; type: string; data: Buffer }[]) {
  const dataTransfer = await page.evaluateHandle(
    (sent) => {
      const transfer = new DataTransfer();
      for (const file of sent) {
        const bytes = Uint8Array.from(atob(file.base64), (character) => character.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
      }
      return transfer;
    },
    files.map((file) => ({ name: file.name, type: file.type, base64: file.data.toString('base64') })),
  );
  const zone = page.getByTestId(testId);
  for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer });
}

/** The preview's result as the browser decoded it. */
function resultWidthIs(page: Page, width: number) {
  return page.waitForFunction((expected) => {
    const image = document.querySelector<HTMLImageElement>('img[alt="Preview result"]');
    return image?.complete && image.naturalWidth === expected;
  }, width);
}

function allImagesLoaded(page: Page, selector: string) {
  return page.waitForFunction((within) => {
    const images = [...document.querySelectorAll<HTMLImageElement>(`${within} img`)];
    return images.length > 0 && images.every((image) => image.complete && image.naturalWidth > 0);
  }, selector);
}

/** The Images section in Debian's Chromium against the real server (issue #7 point 2). */
describe('images in a browser', () => {
  let t: TestServer;
  let browser: Chromium;
  let page: Page;
  let projectUrl: string;

  before(async () => {
    await ensureDashboardBuilt();
    t = await startTestServer('sqlite');
    await setUpOwner(t, OWNER_EMAIL);
    browser = await launchChromium();
    page = await browser.context.newPage();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signInAs(email: string) {
    // Signing in returns to the page that asked for it; this starts from the project list.
    await signIn(page, t.url, email);
    await page.goto(`${t.url}/w/${t.owner.workspaceId}/images`);
    await page.getByRole('heading', { name: 'Images', level: 1 }).waitFor();
  }

  const tab = (name: string) => page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name });

  it('creates an image project and opens it', async () => {
    await signInAs(OWNER_EMAIL);
    await page.getByRole('button', { name: 'New project' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New image project' });
    await dialog.getByLabel('Name').fill('Campaign photos');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Campaign photos', level: 1 }).waitFor();
    projectUrl = page.url();
    assert.match(projectUrl, new RegExp(`/w/${t.owner.workspaceId}/images/[0-9a-f-]{36}$`));
    await page.getByText('No images yet').waitFor();
  });

  it('uploads photos dropped on the page, each with its progress, and refuses a broken file on its own row', async () => {
    await dropFiles(page, 'drop-zone', [
      { name: 'rocket.jpg', type: 'image/jpeg', data: await readTestImage('rocket.jpg') },
      { name: 'chelsea.png', type: 'image/png', data: await readTestImage('chelsea.png') },
      { name: 'truncated.jpg', type: 'image/jpeg', data: await readTestImage('truncated.jpg') },
    ]);
    const uploads = page.getByRole('list', { name: 'Uploads' });
    for (const name of ['rocket.jpg', 'chelsea.png']) {
      const row = uploads.getByRole('listitem').filter({ hasText: name });
      await row.getByText('Uploaded').waitFor();
      assert.equal(await row.getByRole('progressbar').getAttribute('value'), '100');
    }
    await uploads
      .getByRole('listitem')
      .filter({ hasText: 'truncated.jpg' })
      .getByText(/^Failed: /)
      .waitFor();
  });

  it('shows the uploaded photos in the grid as CDN thumbnails', async () => {
    const grid = page.getByRole('list', { name: 'Images' });
    await grid.getByText('rocket.jpg').waitFor();
    await grid.getByText('chelsea.png').waitFor();
    assert.equal(await grid.getByRole('listitem').count(), 2);
    await allImagesLoaded(page, '.image-grid');
    const thumbnail = await grid.locator('img').first().getAttribute('src');
    assert.match(thumbnail ?? '', /^\/cdn\/campaign-photos[^/]*\/[^?]+\?f=webp&fit=cover&h=320&w=320$/);
    await screenshot(page, 'images-grid');
  });

  it('saves alt text and tags of an image', async () => {
    await page
      .getByRole('list', { name: 'Images' })
      .getByRole('link', { name: /rocket\.jpg/ })
      .click();
    await page.getByRole('heading', { name: 'rocket.jpg' }).waitFor();
    await page.getByRole('textbox', { name: 'Alt text' }).fill('A rocket on its launch pad');
    await page.getByRole('textbox', { name: 'Tags' }).fill('launch, space');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await allImagesLoaded(page, '.image-view');
    assert.equal(await page.locator('.image-view img').getAttribute('alt'), 'A rocket on its launch pad');
    await screenshot(page, 'images-image');
  });

  it('finds images by tag and by the start of their path', async () => {
    await tab('Images').click();
    const grid = page.getByRole('list', { name: 'Images' });
    // Within the search form: until the tab's page replaces the image's, "Alt text and tags" matches 'Tag' too.
    const search = page.getByRole('search', { name: 'Search images' });
    await search.getByLabel('Tag').fill('space');
    await page.waitForURL(/\?tag=space$/);
    await grid.getByRole('listitem').filter({ hasText: 'rocket.jpg' }).waitFor();
    await grid.getByText('chelsea.png').waitFor({ state: 'detached' });
    await search.getByLabel('Tag').fill('');
    await search.getByLabel('Path starts with').fill('chel');
    await page.waitForURL(/\?prefix=chel$/);
    await grid.getByText('chelsea.png').waitFor();
    await grid.getByText('rocket.jpg').waitFor({ state: 'detached' });
    await search.getByLabel('Path starts with').fill('nothing-here');
    await page.getByText('No image matches').waitFor();
    await search.getByLabel('Path starts with').fill('');
    await grid.getByText('rocket.jpg').waitFor();
  });

  it("previews a new preset with the CDN's real answer: the result's dimensions follow the width", async () => {
    await tab('Presets').click();
    await page.getByText('No presets yet').waitFor();
    await page.getByRole('link', { name: 'New preset' }).first().click();
    await page.getByRole('heading', { name: 'New preset' }).waitFor();
    await page.getByLabel('Preview on').selectOption({ label: 'rocket.jpg' });
    await resultWidthIs(page, 640);

    await page.getByRole('spinbutton', { name: 'Width' }).fill('300');
    await resultWidthIs(page, 300);
    await page.getByTestId('result-dimensions').getByText('300 × 200').waitFor();

    await page.getByRole('spinbutton', { name: 'Width' }).fill('120');
    await resultWidthIs(page, 120);
    await page.getByTestId('result-dimensions').getByText('120 × 80').waitFor();

    await page.getByRole('combobox', { name: 'Format' }).selectOption('png');
    await page.locator('.preview-facts dd', { hasText: /^PNG$/ }).waitFor();
    await screenshot(page, 'images-preset-editor');
  });

  it("shows the CDN's refusal of an out-of-range value at its control", async () => {
    const height = page.getByRole('spinbutton', { name: 'Height' });
    await height.fill('9000');
    await page.waitForFunction(() => document.querySelector('[aria-invalid="true"][type="number"]') !== null);
    assert.equal(await height.getAttribute('aria-invalid'), 'true');
    await page.getByRole('button', { name: 'Clear Height' }).click();
    await resultWidthIs(page, 120);
    assert.equal(await height.getAttribute('aria-invalid'), null);
  });

  it("shows the API's refusal of a preset name beside the name, then saves the preset", async () => {
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('card photo!');
    await page.getByRole('button', { name: 'Create preset' }).click();
    await page.locator('.field-error').first().waitFor();
    assert.equal(await name.getAttribute('aria-invalid'), 'true');

    await name.fill('card');
    await page.getByRole('button', { name: 'Create preset' }).click();
    await page.getByRole('heading', { name: 'Preset card' }).waitFor();
    await page.getByText('Preset created.').waitFor();
    assert.match(page.url(), /\/presets\/[0-9a-f-]{36}$/);
    await resultWidthIs(page, 120);

    await tab('Presets').click();
    await page.getByRole('row').filter({ hasText: 'card' }).getByText('f=png&w=120').waitFor();
  });

  it('gives a copyable CDN URL of an image through the preset', async () => {
    await tab('Images').click();
    await page
      .getByRole('list', { name: 'Images' })
      .getByRole('link', { name: /rocket\.jpg/ })
      .click();
    await page.getByRole('region', { name: 'CDN URL' }).getByLabel('Preset').selectOption('card');
    const url = page.locator('output.cdn-url', { hasText: '?t=card' });
    await url.waitFor();
    const text = (await url.textContent()) ?? '';
    assert.match(text, /\/cdn\/campaign-photos[^/]*\/rocket\.jpg\?t=card$/);
    await page.getByRole('button', { name: 'Copy URL' }).click();
    await page.getByText('Copied').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), text);
  });

  it('requires signed URLs: the secret is shown once, and URLs, thumbnails and previews are signed', async () => {
    await tab('Signing').click();
    await page.getByLabel('Require signed URLs').check();
    await page.getByRole('button', { name: 'Save signing settings' }).click();
    const secret = page.getByRole('region', { name: 'New signing secret' });
    await secret.getByText(/^lsk_/).waitFor();
    await page.locator('.page-header .badge', { hasText: 'Signed URLs required' }).waitFor();
    await screenshot(page, 'images-signing');
    await secret.getByRole('button', { name: 'I have stored it' }).click();
    await secret.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate' }).click();
    await secret.getByText(/^lsk_/).waitFor();
    await page.getByText(/Still verifies until/).waitFor();

    await tab('Images').click();
    await allImagesLoaded(page, '.image-grid');
    assert.match((await page.locator('.image-grid img').first().getAttribute('src')) ?? '', /&s=[0-9a-f]{64}$/);

    await page
      .getByRole('list', { name: 'Images' })
      .getByRole('link', { name: /rocket\.jpg/ })
      .click();
    await page.getByRole('region', { name: 'CDN URL' }).getByLabel('Preset').selectOption('card');
    await page.locator('output.cdn-url', { hasText: /\?t=card&s=[0-9a-f]{64}$/ }).waitFor();

    await tab('Presets').click();
    await page.getByRole('link', { name: 'card' }).click();
    await page.getByLabel('Preview on').selectOption({ label: 'rocket.jpg' });
    await resultWidthIs(page, 120);
  });

  it('updates a saved preset, shows a name already taken beside the name, and deletes a preset', async () => {
    const projectId = projectUrl.split('/').at(-1);
    const other = await t.request('POST', `/api/images/projects/${projectId}/presets`, {
      body: { name: 'thumb', transforms: { width: 64 } },
    });
    assert.equal(other.status, 201);
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('thumb');
    await page.getByRole('button', { name: 'Save preset' }).click();
    await page.locator('.field-error', { hasText: 'already exists' }).waitFor();
    assert.equal(await name.getAttribute('aria-invalid'), 'true');

    await name.fill('card');
    await page.getByRole('spinbutton', { name: 'Width' }).fill('150');
    await resultWidthIs(page, 150);
    await page.getByRole('button', { name: 'Save preset' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    await tab('Presets').click();
    await page.getByRole('row').filter({ hasText: 'card' }).getByText('f=png&w=150').waitFor();
    await page.getByRole('button', { name: 'Delete thumb' }).click();
    await page.getByRole('dialog', { name: 'Delete the preset thumb?' }).getByRole('button', { name: 'Delete preset' }).click();
    await page.getByRole('row').filter({ hasText: 'thumb' }).waitFor({ state: 'detached' });
  });

  it('charts the CDN usage of the project', async () => {
    await tab('Usage').click();
    const chart = page.getByRole('img', { name: /^Requests per day over 30 days: \d+ in all/ });
    await chart.waitFor();
    await page.getByLabel('Show').selectOption('bytesServed');
    await page.getByRole('img', { name: /^Bytes served per day/ }).waitFor();
    await screenshot(page, 'images-usage');
  });

  it('renames the project, and shows a bad custom domain at its field', async () => {
    await tab('Settings').click();
    await page.getByLabel('Project name').fill('Launch photos');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: 'Launch photos', level: 1 }).waitFor();

    const domain = page.getByRole('textbox', { name: 'Domain' });
    await domain.fill('not a domain');
    await page.getByRole('button', { name: 'Save domain' }).click();
    await page.locator('.field-error', { hasText: 'hostname' }).waitFor();
    assert.equal(await domain.getAttribute('aria-invalid'), 'true');
    await domain.fill('images.example.com');
    await page.getByRole('button', { name: 'Save domain' }).click();
    await page.locator('.page-header', { hasText: 'images.example.com' }).waitFor();
    await screenshot(page, 'images-settings');
  });

  it('keeps image metadata only once the project asks for it', async () => {
    const keep = page.getByRole('checkbox', { name: 'Keep EXIF, XMP and IPTC in served images' });
    assert.equal(await keep.isChecked(), false);
    await keep.check();
    await page.getByRole('button', { name: 'Save metadata setting' }).click();
    await page.getByRole('form', { name: 'Image metadata' }).getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const projects = await t.request('GET', '/api/images/projects');
    const launch = projects.body.find((p: { name: string }) => p.name === 'Launch photos');
    assert.equal(launch.keepMetadata, true);
    await page.reload();
    assert.equal(await keep.isChecked(), true);
    const reset = await t.request('PATCH', `/api/images/projects/${launch.id}`, { body: { keepMetadata: false } });
    assert.equal(reset.status, 200);
  });

  it('lists projects with their stats, and deletes one after a confirmation naming what is lost', async () => {
    const created = await t.request('POST', '/api/images/projects', { body: { name: 'Old banners' } });
    assert.equal(created.status, 201);
    await page.getByRole('link', { name: '← Image projects' }).click();
    const launch = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Launch photos' }) });
    await launch.getByText(/^2 images · \d+(\.\d)? KB/).waitFor();
    await page.getByRole('listitem').filter({ hasText: 'Old banners' }).getByText('0 images').waitFor();
    await screenshot(page, 'images-projects');

    await page.getByRole('link', { name: 'Old banners' }).click();
    await tab('Settings').click();
    await page.getByRole('button', { name: 'Delete project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Old banners?' });
    await dialog.getByText('0 images').waitFor();
    await dialog.getByText('0 presets').waitFor();
    await dialog.getByText(`/cdn/${created.body.slug}/`).waitFor();
    await dialog.getByRole('button', { name: 'Delete Old banners' }).click();
    await page.waitForURL(new RegExp(`/w/${t.owner.workspaceId}/images$`));
    await page.getByRole('heading', { name: 'Launch photos' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Old banners' }).count(), 0);
  });

  it('fits a phone: the preset editor is not wider than the screen at 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${projectUrl}/presets/new`);
    await page.getByRole('heading', { name: 'New preset' }).waitFor();
    await page.getByRole('spinbutton', { name: 'Width' }).fill('200');
    await resultWidthIs(page, 200);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    await screenshot(page, 'images-phone-preset-editor');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('shows a viewer the images, presets and settings without a single write control', async () => {
    const viewer = await addPasswordMember(t, t.owner.workspaceId, t.owner.key, 'viewer');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    await signInAs(viewer);
    const writeControls = () =>
      page
        .getByRole('button', {
          name: /^(New project|Save|Create preset|Save preset|Delete|Delete image|Delete project|Rename|Save domain|Rotate secret|Save signing settings)/,
        })
        .or(page.getByRole('link', { name: 'New preset' }))
        .or(page.getByTestId('drop-zone'))
        .count();

    await page.getByRole('heading', { name: 'Launch photos' }).waitFor();
    assert.equal(await writeControls(), 0);

    await page.goto(projectUrl);
    await page.getByRole('list', { name: 'Images' }).getByText('rocket.jpg').waitFor();
    assert.equal(await writeControls(), 0);

    await page
      .getByRole('list', { name: 'Images' })
      .getByRole('link', { name: /rocket\.jpg/ })
      .click();
    await page.getByText('A rocket on its launch pad').waitFor();
    await page.locator('output.cdn-url').waitFor();
    assert.equal(await writeControls(), 0);
    assert.equal(await page.getByRole('textbox', { name: 'Alt text' }).count(), 0);

    await tab('Presets').click();
    await page.getByRole('link', { name: 'card' }).click();
    await page.getByRole('heading', { name: 'Preset card' }).waitFor();
    await resultWidthIs(page, 150);
    assert.equal(await writeControls(), 0);
    assert.equal(await page.getByRole('spinbutton', { name: 'Width' }).isDisabled(), true);
    await screenshot(page, 'images-viewer-preset');

    for (const name of ['Signing', 'Settings']) {
      await tab(name).click();
      await page.getByRole('heading', { name, level: 2 }).waitFor();
      assert.equal(await writeControls(), 0);
    }
  });
});
