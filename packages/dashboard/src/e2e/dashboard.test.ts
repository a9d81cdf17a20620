import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer, type TestWorkspace } from '@loupe/server/src/testing/test-server.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { screenshot } from './screenshots.ts';

const OWNER = { name: 'Olga Owner', email: 'olga@example.test', password: 'correct horse battery staple' };

/** The dashboard in Debian's Chromium against the real server (issue #7's shell). */
describe('dashboard in a browser', () => {
  let t: TestServer;
  let browser: Chromium;
  let page: Page;
  let other: TestWorkspace;

  before(async () => {
    await ensureDashboardBuilt();
    browser = await launchChromium();
    t = await startTestServer('sqlite');
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const workspaceUrl = (workspaceId: string, section: string) => new RegExp(`/w/${workspaceId}/${section}$`);

  it('opens the first-run screen on an empty instance', async () => {
    await page.goto(`${t.url}/`);
    await page.waitForURL(/\/setup$/);
    await page.getByRole('heading', { name: 'Welcome to Loupe' }).waitFor();
    await screenshot(page, 'first-run');
  });

  it("shows the API's field error beside its field", async () => {
    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create the owner and sign in' }).click();
    const password = page.getByLabel('Password');
    await page.locator('.field-error').waitFor();
    assert.equal(await password.getAttribute('aria-invalid'), 'true');
    const describedBy = (await password.getAttribute('aria-describedby')) ?? '';
    const message = await page.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent();
    assert.match(message ?? '', /8/);
  });

  it('creates the owner and signs in, landing on Images of the workspace', async () => {
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByLabel('Workspace name').fill('Acme');
    await page.getByRole('button', { name: 'Create the owner and sign in' }).click();
    await page.waitForURL(workspaceUrl(t.owner.workspaceId, 'images'));
    await page.getByRole('heading', { name: 'Images', level: 1 }).waitFor();
    await page.getByText('No image projects yet').waitFor();
  });

  it('creates an image project from the dialog', async () => {
    await page.getByRole('button', { name: 'New project' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New image project' });
    await dialog.getByLabel('Name').fill('Blog images');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Blog images' }).waitFor();
    assert.equal(await dialog.isVisible(), false);
    await screenshot(page, 'images');
  });

  it('navigates between the sections', async () => {
    const nav = page.getByRole('navigation', { name: 'Sections' });
    for (const [label, path] of [
      ['Audits', 'audits'],
      ['Team', 'team'],
      ['Settings', 'settings'],
    ] as const) {
      await nav.getByRole('link', { name: label }).click();
      await page.waitForURL(workspaceUrl(t.owner.workspaceId, path));
      await page.getByRole('heading', { name: label, level: 1 }).waitFor();
      await page.locator('.loading-state').first().waitFor({ state: 'detached' });
      await screenshot(page, path);
    }
  });

  it('lists every workspace of the user in the switcher, with the role in each', async () => {
    other = await t.createWorkspace();
    const invite = await t.request('POST', '/api/v1/team/invites', {
      key: other.key,
      team: other.workspaceId,
      body: { email: OWNER.email, role: 'viewer' },
    });
    assert.equal(invite.status, 201);
    // The owner's account exists: it accepts as itself, with its key.
    assert.equal(
      (await t.request('POST', `/api/v1/invites/${invite.body.token}/accept`, { key: t.owner.key, team: null, body: {} })).status,
      200,
    );
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const switcher = page.getByLabel('Workspace');
    const options = await switcher.locator('option').allTextContents();
    assert.deepEqual(options, ['Acme (owner)', 'Other (viewer)']);
  });

  it('switches workspace, and a viewer sees no button that would fail', async () => {
    await page.getByLabel('Workspace').selectOption({ label: 'Other (viewer)' });
    await page.waitForURL(workspaceUrl(other.workspaceId, 'settings'));
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Images' }).click();
    await page.getByText('No image projects yet').waitFor();
    assert.equal(await page.getByRole('button', { name: 'New project' }).count(), 0);
    await screenshot(page, 'images-viewer');
  });

  it('fits a phone: nothing wider than the screen at 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Workspace').selectOption({ label: 'Acme (owner)' });
    await page.getByRole('heading', { name: 'Blog images' }).waitFor();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    await screenshot(page, 'phone-images');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('is reachable by keyboard: the first Tab lands on the skip link', async () => {
    await page.reload();
    await page.getByRole('heading', { name: 'Images', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
  });

  it('signs out to the sign-in screen, and a signed-in page then asks to sign in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    await page.goto(`${t.url}/w/${t.owner.workspaceId}/team`);
    await page.waitForURL(/\/sign-in$/);
    await screenshot(page, 'sign-in');
  });

  it('refuses a wrong password with the API message', async () => {
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('The email or the password is not right.').waitFor();
  });

  it('signs in again and returns to the page that asked', async () => {
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(workspaceUrl(t.owner.workspaceId, 'team'));
    await page.getByRole('cell', { name: OWNER.email }).waitFor();
  });
});
