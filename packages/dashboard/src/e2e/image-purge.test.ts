import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addPasswordMember, setUpOwner } from '@loupe/server/src/sessions/test-session.ts';
import { readTestImage, uploadForm } from '@loupe/server/src/testing/test-images.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { signIn } from './sign-in.ts';

const OWNER_EMAIL = 'pia@example.test';

/** "Purge cached variants" on the image page and the project settings (issue #26 point 7). */
describe('purging cached variants in a browser', () => {
  let t: TestServer;
  let browser: Chromium;
  let page: Page;
  let projectId: string;
  let slug: string;
  let imageId: string;

  const upload = async (path: string, data: Buffer) => {
    const response = await fetch(`${t.url}/api/images/projects/${projectId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.owner.key}` },
      body: uploadForm({ name: path, data }, { path }),
    });
    assert.equal(response.status, 201);
    return ((await response.json()) as { id: string }).id;
  };
  const warm = async (path: string, widths: number[]) => {
    for (const width of widths) assert.equal((await fetch(`${t.url}/cdn/${slug}/${path}?w=${width}&f=png`)).status, 200);
  };

  before(async () => {
    await ensureDashboardBuilt();
    t = await startTestServer('sqlite');
    await setUpOwner(t, OWNER_EMAIL);
    const project = await t.request('POST', '/api/images/projects', { body: { name: 'Shop' } });
    projectId = project.body.id;
    slug = project.body.slug;
    imageId = await upload('rocket.jpg', await readTestImage('rocket.jpg'));
    await upload('camera.png', await readTestImage('camera.png'));
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("purges an image's variants after a confirmation saying what a purge cannot reach", async () => {
    await warm('rocket.jpg', [41, 42]);
    await signIn(page, t.url, OWNER_EMAIL);
    await page.goto(`${t.url}/w/${t.owner.workspaceId}/images/${projectId}/images/${imageId}`);
    await page.getByRole('heading', { name: 'rocket.jpg' }).waitFor();
    // The page's own view of the image is a variant too (1200 px WebP): wait for it, so the count is known.
    await page.waitForFunction(() => [...document.querySelectorAll('img')].some((image) => image.complete && image.naturalWidth > 0));
    await page.getByRole('button', { name: 'Purge cached variants' }).click();
    const dialog = page.getByRole('dialog', { name: 'Purge the cached variants of rocket.jpg?' });
    await dialog.getByText(/immutable/).waitFor();
    await dialog.getByRole('button', { name: 'Purge cached variants' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Purged 3 cached variants \(.+\)\.$/ })
      .waitFor();
    assert.equal(await dialog.count(), 0);
  });

  it('purges every image of the project from its settings', async () => {
    await warm('camera.png', [30]);
    await warm('rocket.jpg', [31]);
    await page.goto(`${t.url}/w/${t.owner.workspaceId}/images/${projectId}/settings`);
    await page.getByRole('button', { name: 'Purge cached variants' }).click();
    await page
      .getByRole('dialog', { name: 'Purge the cached variants of every image of Shop?' })
      .getByRole('button', { name: 'Purge cached variants' })
      .click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Purged 2 cached variants/ })
      .waitFor();
    const again = await t.request('POST', `/api/images/projects/${projectId}/purge`);
    assert.deepEqual(again.body, { purged: 0, bytesFreed: 0 });
  });

  it('offers a viewer no purge', async () => {
    const viewer = await addPasswordMember(t, t.owner.workspaceId, t.owner.key, 'viewer');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    await signIn(page, t.url, viewer);
    await page.goto(`${t.url}/w/${t.owner.workspaceId}/images/${projectId}/images/${imageId}`);
    await page.getByRole('heading', { name: 'rocket.jpg' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Purge cached variants' }).count(), 0);
    await page.goto(`${t.url}/w/${t.owner.workspaceId}/images/${projectId}/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Purge cached variants' }).count(), 0);
  });
});
