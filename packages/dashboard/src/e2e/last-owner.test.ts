import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addPasswordMember, setUpOwner } from '@loupe/server/src/sessions/test-session.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { signIn } from './sign-in.ts';

const OWNER_EMAIL = 'olga@example.test';
const NOTE = 'You are the only owner, and a workspace keeps one: make another member owner first, then change your role or leave.';

/** The last owner reads why they cannot step down or leave before trying (issue #27, point 8). */
describe('the last owner on the team page', () => {
  let t: TestServer;
  let browser: Chromium;
  let page: Page;

  before(async () => {
    await ensureDashboardBuilt();
    t = await startTestServer('sqlite');
    await setUpOwner(t, OWNER_EMAIL);
    browser = await launchChromium();
    page = await browser.context.newPage();
    await signIn(page, t.url, OWNER_EMAIL, /\/w\/[^/]+\/images$/);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const openTeam = async () => {
    await page.goto(`${t.url}/w/${t.owner.workspaceId}/team`);
    await page.getByRole('heading', { name: 'Members', exact: true }).waitFor();
    await page.locator('.loading-state').first().waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: OWNER_EMAIL }).waitFor();
  };

  it('says why at their row, with no role to pick and Leave disabled and described by the reason', async () => {
    await openTeam();
    const row = page.getByRole('row').filter({ hasText: OWNER_EMAIL });
    await row.getByText(NOTE).waitFor();
    assert.equal(await page.getByLabel('Role of Olga Owner').count(), 0, 'no role select to try');
    const leave = row.getByRole('button', { name: 'Leave' });
    assert.equal(await leave.isDisabled(), true);
    const describedBy = await leave.getAttribute('aria-describedby');
    assert.ok(describedBy);
    assert.equal(await page.locator(`[id="${describedBy}"]`).textContent(), NOTE);
  });

  it('gives the role select and Leave back once another member is an owner', async () => {
    await addPasswordMember(t, t.owner.workspaceId, t.owner.key, 'owner');
    await openTeam();
    await page.getByLabel('Role of Olga Owner').waitFor();
    assert.equal(await page.getByText(NOTE).count(), 0);
    const row = page.getByRole('row').filter({ hasText: OWNER_EMAIL });
    assert.equal(await row.getByRole('button', { name: 'Leave' }).isEnabled(), true);
  });
});
