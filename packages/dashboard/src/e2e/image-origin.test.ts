import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setUpOwner } from '@loupe/server/src/sessions/test-session.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { signIn } from './sign-in.ts';

const OWNER_EMAIL = 'oona@example.test';

/** The project settings' origin form (issue #26 point 2): set an https site, an S3 bucket, then none. */
describe('setting a project origin in a browser', () => {
  let t: TestServer;
  let browser: Chromium;
  let page: Page;
  let projectId: string;
  const origin = () => t.request('GET', `/api/images/projects/${projectId}/origin`).then((answer) => answer.body.origin);

  before(async () => {
    await ensureDashboardBuilt();
    t = await startTestServer('sqlite');
    await setUpOwner(t, OWNER_EMAIL);
    projectId = (await t.request('POST', '/api/images/projects', { body: { name: 'Shop' } })).body.id;
    browser = await launchChromium();
    page = await browser.context.newPage();
    await signIn(page, t.url, OWNER_EMAIL);
    await page.goto(`${t.url}/w/${t.owner.workspaceId}/images/${projectId}/settings`);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('sets an https origin, and shows a refused address at its field', async () => {
    const form = page.getByRole('form', { name: 'Origin' });
    await form.getByLabel('Fetch missing images from').selectOption('https');
    await form.getByLabel('Base URL').fill('http://www.example.com/');
    await form.getByRole('button', { name: 'Save origin' }).click();
    await form.getByText('Must be an https address.').first().waitFor();
    await form.getByLabel('Base URL').fill('https://www.example.com/images/');
    await form.getByRole('button', { name: 'Save origin' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    assert.deepEqual(await origin(), { kind: 'https', baseUrl: 'https://www.example.com/images/' });
  });

  it('sets an S3 origin whose secret is never shown again, and keeps it when left empty', async () => {
    const form = page.getByRole('form', { name: 'Origin' });
    await form.getByLabel('Fetch missing images from').selectOption('s3');
    await form.getByLabel('Endpoint').fill('https://s3.example.com');
    await form.getByLabel('Region').fill('auto');
    await form.getByLabel('Bucket').fill('photos');
    await form.getByLabel('Key prefix').fill('site/');
    await form.getByLabel('Access key id').fill('AKID');
    await form.getByLabel('Secret access key').fill('s3cr3t-value');
    await form.getByRole('button', { name: 'Save origin' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    assert.equal((await origin()).hasSecret, true);

    await page.reload();
    const reloaded = page.getByRole('form', { name: 'Origin' });
    assert.equal(await reloaded.getByLabel('Secret access key').inputValue(), '');
    assert.equal(await reloaded.getByLabel('Bucket').inputValue(), 'photos');
    assert.ok(!(await page.content()).includes('s3cr3t-value'));
    await reloaded.getByLabel('Key prefix').fill('other/');
    await reloaded.getByRole('button', { name: 'Save origin' }).click();
    await reloaded.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    assert.equal((await origin()).prefix, 'other/');
  });

  it('removes the origin', async () => {
    const form = page.getByRole('form', { name: 'Origin' });
    await form.getByLabel('Fetch missing images from').selectOption('none');
    await form.getByRole('button', { name: 'Save origin' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    assert.equal(await origin(), null);
  });
});
