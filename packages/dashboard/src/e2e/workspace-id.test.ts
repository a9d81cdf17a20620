import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addPasswordMember, setUpOwner, TEST_PASSWORD } from '@loupe/server/src/sessions/test-session.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';

const OWNER_EMAIL = 'olga@example.test';

async function signIn(page: Page, url: string, email: string): Promise<void> {
  await page.goto(`${url}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/w\/[^/]+\/images$/);
}

/** The workspace id with a copy button beside the API keys and in the settings (issue #27, point 8). */
describe('the workspace id in a browser', () => {
  let t: TestServer;
  let browser: Chromium;
  let page: Page;

  before(async () => {
    await ensureDashboardBuilt();
    t = await startTestServer('sqlite');
    await setUpOwner(t, OWNER_EMAIL);
    browser = await launchChromium();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    page = await browser.context.newPage();
    await signIn(page, t.url, OWNER_EMAIL);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const open = async (target: Page, path: string, heading: string) => {
    await target.goto(`${t.url}/w/${t.owner.workspaceId}/${path}`);
    await target.getByRole('heading', { name: heading, exact: true }).waitFor();
    await target.locator('.loading-state').first().waitFor({ state: 'detached' });
  };

  for (const [path, heading] of [
    ['settings/keys', 'API keys'],
    ['settings', 'General'],
  ] as const) {
    it(`shows the id on ${heading} and copies it, the id a key's API calls name`, async () => {
      await open(page, path, heading);
      const main = page.getByRole('main');
      assert.equal(await main.getByTestId('workspace-id').textContent(), t.owner.workspaceId);
      await main.getByRole('button', { name: 'Copy workspace id' }).click();
      await main.getByText('Copied', { exact: true }).waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      assert.equal(copied, t.owner.workspaceId);
      // What the id is for: a key of this workspace reads the team with it.
      const key = (await t.request('POST', '/api/v1/keys', { body: { name: `copied on ${heading}` } })).body.key as string;
      assert.equal((await t.request('GET', '/api/v1/team', { key, team: copied })).status, 200);
    });
  }

  it("shows a viewer the id beside the note that keys are an admin's", async () => {
    // A browser of its own: its cookies are the viewer's.
    const viewer = await launchChromium();
    try {
      const other = await viewer.context.newPage();
      await signIn(other, t.url, await addPasswordMember(t, t.owner.workspaceId, t.owner.key, 'viewer'));
      await open(other, 'settings/keys', 'API keys');
      await other.getByText('Keys are managed by admins').waitFor();
      assert.equal(await other.getByRole('main').getByTestId('workspace-id').textContent(), t.owner.workspaceId);
    } finally {
      await viewer.close();
    }
  });
});
