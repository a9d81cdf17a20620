import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addPasswordMember, setUpOwner } from '@loupe/server/src/sessions/test-session.ts';
import { readTestImage, uploadForm } from '@loupe/server/src/testing/test-images.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { signIn } from './sign-in.ts';

const OWNER_EMAIL = 'ena@example.test';

/** The project's enlargement default and the preset editor's `enlarge` (issue #26 point 4). */
describe('enlargement in a browser', () => {
  let t: TestServer;
  let browser: Chromium;
  let page: Page;
  let projectId: string;

  const projectPage = (tail: string) => `${t.url}/w/${t.owner.workspaceId}/images/${projectId}/${tail}`;
  const enlargeOfProject = async () => (await t.request('GET', `/api/images/projects/${projectId}`)).body.enlarge;

  before(async () => {
    await ensureDashboardBuilt();
    t = await startTestServer('sqlite');
    await setUpOwner(t, OWNER_EMAIL);
    projectId = (await t.request('POST', '/api/images/projects', { body: { name: 'Gallery' } })).body.id;
    const uploaded = await fetch(`${t.url}/api/images/projects/${projectId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.owner.key}` },
      body: uploadForm({ name: 'rocket.jpg', data: await readTestImage('rocket.jpg') }),
    });
    assert.equal(uploaded.status, 201);
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("sets the project's default to never in its settings; it stays after a reload", async () => {
    await signIn(page, t.url, OWNER_EMAIL);
    await page.goto(projectPage('settings'));
    const form = page.getByRole('form', { name: 'Enlargement' });
    const select = form.getByRole('combobox', { name: 'Enlarge' });
    assert.equal(await select.inputValue(), 'allow');
    await select.selectOption('never');
    await form.getByRole('button', { name: 'Save enlargement' }).click();
    await form.getByText('Saved').waitFor();
    assert.equal(await enlargeOfProject(), 'never');
    await page.reload();
    assert.equal(await page.getByRole('combobox', { name: 'Enlarge' }).inputValue(), 'never');
  });

  it("previews a preset under the project's never, then with enlarge=allow set in the editor", async () => {
    await page.goto(projectPage('presets/new'));
    await page.getByRole('heading', { name: 'New preset' }).waitFor();
    await page.getByLabel('Preview on').selectOption({ label: 'rocket.jpg' });
    await page.getByRole('spinbutton', { name: 'Width' }).fill('1000');
    await page.getByTestId('result-dimensions').getByText('640 × 427').waitFor();
    const enlarge = page.getByRole('combobox', { name: 'Enlarge' });
    assert.deepEqual(await enlarge.locator('option').allTextContents(), ['Not set', 'allow', 'never']);
    await enlarge.selectOption('allow');
    await page.getByTestId('result-dimensions').getByText('1000 × 667').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('big');
    await page.getByRole('button', { name: 'Create preset' }).click();
    await page.getByRole('heading', { name: 'Preset big' }).waitFor();
    const presets = await t.request('GET', `/api/images/projects/${projectId}/presets`);
    assert.deepEqual(presets.body[0].transforms, { width: 1000, enlarge: 'allow' });
  });

  it('shows a viewer the setting without a form to change it', async () => {
    const viewer = await addPasswordMember(t, t.owner.workspaceId, t.owner.key, 'viewer');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    await signIn(page, t.url, viewer);
    await page.goto(projectPage('settings'));
    await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
    await page.locator('dt', { hasText: 'Enlargement' }).waitFor();
    assert.equal(await page.locator('dd', { hasText: /^never$/ }).count(), 1);
    assert.equal(await page.getByRole('form', { name: 'Enlargement' }).count(), 0);
  });
});
