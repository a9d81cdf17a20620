import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addPasswordMember, setUpOwner, TEST_PASSWORD } from '@loupe/server/src/sessions/test-session.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { screenshot } from './screenshots.ts';
import { signIn } from './sign-in.ts';

const OWNER_EMAIL = 'olga@example.test';

/** Where signing in lands: the workspace's image projects. */
const IMAGES_LANDING = /\/w\/[^/]+\/images$/;

/** The rows of a table that hold this text in a cell. */
const rowWith = (page: Page, text: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: text, exact: true }) });

/** Team, invites, settings, API keys and billing in Debian's Chromium against the real server (issue #7, point 4). */
describe('team and settings in a browser', () => {
  let t: TestServer;
  let browser: Chromium;
  let page: Page;
  /** A second browser with its own cookies: the invitee, then a viewer and an admin. */
  let invitee: Chromium;
  let other: Page;
  let workspaceId: string;
  let inviteLink: string;

  before(async () => {
    await ensureDashboardBuilt();
    t = await startTestServer('sqlite');
    workspaceId = t.owner.workspaceId;
    await setUpOwner(t, OWNER_EMAIL);
    browser = await launchChromium();
    page = await browser.context.newPage();
    await signIn(page, t.url, OWNER_EMAIL, IMAGES_LANDING);
  });
  after(async () => {
    await invitee?.close();
    await browser?.close();
    await t?.close();
  });

  const open = async (target: Page, path: string, heading: string) => {
    await target.goto(`${t.url}/w/${workspaceId}/${path}`);
    await target.getByRole('heading', { name: heading, exact: true }).waitFor();
    await target.locator('.loading-state').first().waitFor({ state: 'detached' });
  };

  it('lists the members with their roles, telling the last owner why they cannot step down or leave', async () => {
    await open(page, 'team', 'Members');
    await rowWith(page, OWNER_EMAIL).waitFor();
    // The controls it takes away, and their return with a second owner: last-owner.test.ts.
    await page.getByText('You are the only owner, and a workspace keeps one').waitFor();
  });

  let secret: string;

  it('creates an API key, shows its secret once, and lists it without the secret', async () => {
    await open(page, 'settings/keys', 'API keys');
    await page.getByRole('button', { name: 'Create key' }).first().click();
    const form = page.getByRole('dialog', { name: 'Create an API key' });
    await form.getByLabel('Name').fill('CI deploys');
    await form.getByRole('checkbox', { name: /team:admin/ }).uncheck();
    await form.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('dialog', { name: 'Copy your new API key' });
    await shown.getByText("Copy it now: you won't see it again.").waitFor();
    await shown.getByRole('button', { name: 'Copy key' }).waitFor();
    secret = await shown.getByLabel('Secret of “CI deploys”').inputValue();
    assert.match(secret, /^loupe_/);
    await screenshot(page, 'settings-keys-secret');
    await shown.getByRole('button', { name: 'I have copied it' }).click();

    const row = page.getByRole('row', { name: /CI deploys/ });
    await row.waitFor();
    const prefix = ((await row.locator('code').textContent()) ?? '').replace('…', '');
    assert.ok(prefix.length > 0 && secret.startsWith(prefix), `${prefix} is not the start of the secret`);
    assert.ok(!(await page.content()).includes(secret), 'the secret is still on the page');
    await screenshot(page, 'settings-keys');
  });

  it('makes a key that works against the API with a bearer header, within the scopes chosen', async () => {
    assert.equal((await t.request('GET', '/api/images/projects', { key: secret })).status, 200);
    assert.equal((await t.request('GET', '/api/v1/team', { key: secret })).status, 200);
    const keys = await t.request('GET', '/api/v1/keys', { key: secret });
    assert.equal(keys.status, 403, 'team:admin was left out');
  });

  it('revokes the key after a confirmation, and the API refuses it from then on', async () => {
    await page.getByRole('button', { name: 'Revoke CI deploys' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke “CI deploys”?' });
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('row', { name: /CI deploys/ }).waitFor({ state: 'detached' });
    assert.equal((await t.request('GET', '/api/v1/team', { key: secret })).status, 401);
  });

  const invite = async (email: string, role: string): Promise<string> => {
    await page.getByRole('button', { name: 'Invite someone' }).click();
    const form = page.getByRole('dialog', { name: 'Invite someone' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Role').selectOption(role);
    await form.getByLabel('Expires after (days)').fill('3');
    await form.getByRole('button', { name: 'Create invite' }).click();
    const shown = page.getByRole('dialog', { name: 'Send the invite link' });
    await shown.getByRole('button', { name: 'Copy link' }).waitFor();
    const link = await shown.getByLabel('Invite link').inputValue();
    await shown.getByRole('button', { name: 'Done' }).click();
    await rowWith(page, email).waitFor();
    return link;
  };

  it('invites someone with a role: the link is shown once with a copy button, and the invite waits in the list', async () => {
    await open(page, 'team', 'Members');
    await page.getByText('No pending invites').waitFor();
    inviteLink = await invite('mia@example.test', 'member');
    assert.match(inviteLink, /\/invites\/[\w-]{16,}$/);
    assert.ok(!(await page.content()).includes(new URL(inviteLink).pathname), 'the link is still on the page');
    await screenshot(page, 'team-members');
  });

  it('revokes an invite after a confirmation, and its link stops working', async () => {
    const link = await invite('ned@example.test', 'viewer');
    await page.getByRole('button', { name: 'Revoke the invite of ned@example.test' }).click();
    await page.getByRole('dialog', { name: 'Revoke this invite?' }).getByRole('button', { name: 'Revoke invite' }).click();
    await rowWith(page, 'ned@example.test').waitFor({ state: 'detached' });
    const accepted = await t.request('POST', `/api/v1${new URL(link).pathname}/accept`, {
      key: null,
      team: null,
      body: { password: TEST_PASSWORD },
    });
    assert.equal(accepted.status, 404);
  });

  it('lets the invitee, in a fresh browser, choose a password and land in the workspace with the invited role', async () => {
    invitee = await launchChromium();
    other = await invitee.context.newPage();
    await other.goto(`${t.url}${new URL(inviteLink).pathname}`);
    await other.getByRole('heading', { name: 'Join a workspace' }).waitFor();
    await screenshot(other, 'invite-accept');
    await other.getByLabel('Your name').fill('Mia Member');
    await other.getByLabel('Choose a password').fill(TEST_PASSWORD);
    await other.getByRole('button', { name: 'Create my account and join' }).click();
    await other.waitForURL(`${t.url}/w/${workspaceId}/images`);
    assert.equal(await other.getByLabel('Workspace').locator('option:checked').textContent(), 'Default (member)');
    await open(other, 'team', 'Members');
    await rowWith(other, 'mia@example.test').waitFor();
    assert.equal(await other.getByRole('button', { name: 'Invite someone' }).count(), 0);
  });

  it('says a used invite link no longer works', async () => {
    await other.goto(`${t.url}${new URL(inviteLink).pathname}`);
    await other.getByRole('button', { name: 'Accept the invite' }).click();
    await other.getByRole('heading', { name: 'This invite link does not work' }).waitFor();
    await other.getByText('This invite does not exist, was revoked, or was already used.').waitFor();
  });

  const switchUser = async (email: string) => {
    await other.goto(`${t.url}/w/${workspaceId}/images`);
    await other.getByRole('button', { name: 'Sign out' }).click();
    await other.waitForURL(/\/sign-in$/);
    await signIn(other, t.url, email, IMAGES_LANDING);
  };

  it('shows a viewer no write action on the team and settings pages, only leaving', async () => {
    await switchUser(await addPasswordMember(t, workspaceId, t.owner.key, 'viewer'));
    const main = other.getByRole('main');
    await open(other, 'team', 'Members');
    await rowWith(other, OWNER_EMAIL).waitFor();
    assert.equal(await main.getByRole('combobox').count(), 0, 'no role select');
    assert.deepEqual(await main.getByRole('button').allTextContents(), ['Leave']);
    assert.equal(await other.getByRole('heading', { name: 'Pending invites' }).count(), 0);

    await open(other, 'settings', 'General');
    assert.equal(await main.getByRole('textbox').count(), 0);
    assert.deepEqual(await main.getByRole('button').allTextContents(), ['Copy workspace id']);
    await open(other, 'settings/keys', 'API keys');
    await other.getByText('Keys are managed by admins').waitFor();
    assert.deepEqual(await main.getByRole('button').allTextContents(), ['Copy workspace id']);
    await open(other, 'settings/billing', 'Credit ledger');
    await main.getByText('Only an owner can change the plan.').waitFor();
    await main.getByText('Monthly allowance of the free plan').waitFor();
    assert.equal(await main.getByRole('button').count(), 0);
  });

  it('lets an admin change the settings and manage keys, but not the plan', async () => {
    await switchUser(await addPasswordMember(t, workspaceId, t.owner.key, 'admin'));
    const main = other.getByRole('main');
    await open(other, 'settings', 'General');
    await main.getByRole('button', { name: 'Save settings' }).waitFor();
    await open(other, 'settings/keys', 'API keys');
    await main.getByRole('button', { name: 'Create key' }).first().waitFor();
    await open(other, 'settings/billing', 'Credit ledger');
    await main.getByText('Only an owner can change the plan.').waitFor();
    assert.equal(await main.getByLabel('Plan name').count(), 0);
    assert.equal(await main.getByRole('button', { name: 'Change plan' }).count(), 0);
    await open(other, 'team', 'Members');
    await main.getByText('Only an owner can change or remove an owner.').waitFor();
    assert.equal(await main.getByRole('button', { name: 'Remove Olga Owner' }).count(), 0);
  });

  it('tells someone with an account who accepts signed out to sign in, and brings them back to accept as themself', async () => {
    const email = await addPasswordMember(t, workspaceId, t.owner.key, 'member');
    const elsewhere = await t.createWorkspace();
    const created = await t.request('POST', '/api/v1/team/invites', {
      key: elsewhere.key,
      team: elsewhere.workspaceId,
      body: { email, role: 'viewer' },
    });
    assert.equal(created.status, 201);
    await other.goto(`${t.url}/w/${workspaceId}/images`);
    await other.getByRole('button', { name: 'Sign out' }).click();
    await other.waitForURL(/\/sign-in$/);

    const link = `${t.url}/invites/${created.body.token}`;
    await other.goto(link);
    await other.getByLabel('Choose a password').fill('not the password of that account');
    await other.getByRole('button', { name: 'Create my account and join' }).click();
    await other.getByRole('heading', { name: 'Sign in to accept' }).waitFor();
    await other.getByText(email).waitFor();
    await screenshot(other, 'invite-sign-in-to-accept');
    await other.getByRole('link', { name: 'Sign in to accept' }).click();
    await other.waitForURL(/\/sign-in$/);
    assert.equal(await other.getByLabel('Email').inputValue(), email);
    await other.getByLabel('Password').fill(TEST_PASSWORD);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.waitForURL(link);
    await other.getByRole('button', { name: 'Accept the invite' }).click();
    await other.waitForURL(`${t.url}/w/${elsewhere.workspaceId}/images`);
    assert.equal(await other.getByLabel('Workspace').locator('option:checked').textContent(), 'Other (viewer)');
  });

  it('tells a signed-in user that an invite sent to another email is not theirs, and adds no one', async () => {
    const invitedEmail = `someone-else-${Date.now()}@example.test`;
    const created = await t.request('POST', '/api/v1/team/invites', { body: { email: invitedEmail, role: 'viewer' } });
    assert.equal(created.status, 201);
    await other.goto(`${t.url}/invites/${created.body.token}`);
    await other.getByRole('button', { name: 'Accept the invite' }).click();
    await other.getByRole('alert').getByText(`This invite is for ${invitedEmail}`).waitFor();
    const members = await t.request('GET', '/api/v1/team/members?limit=100');
    assert.equal(
      members.body.some((m: { email: string }) => m.email === invitedEmail),
      false,
    );
    await invitee.close();
  });

  it('shows the plan, credits, limits, usage and the ledger with the monthly grant', async () => {
    await open(page, 'settings/billing', 'Credit ledger');
    const grant = page.getByRole('row', { name: /Monthly allowance of the free plan/ });
    await grant.getByText('grant', { exact: true }).waitFor();
    assert.match((await grant.textContent()) ?? '', /\+1,000/);
    await page.getByRole('heading', { name: 'Limits of the free plan' }).waitFor();
    await screenshot(page, 'settings-billing');
  });

  it("moves the workspace to another of the server's plans as its owner", async () => {
    const choices = await page
      .getByLabel('Plan', { exact: true })
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    assert.deepEqual(choices, ['free', 'pro', 'business', 'self-hosted']);
    await page.getByLabel('Plan', { exact: true }).selectOption('pro');
    await page.getByRole('button', { name: 'Change plan' }).click();
    await page.getByText('Now on the pro plan.').waitFor();
    await page.getByRole('heading', { name: 'Limits of the pro plan' }).waitFor();
  });

  it("saves the workspace's name, time zone and notification email, with the API's message beside a wrong field", async () => {
    await open(page, 'settings', 'General');
    const email = page.getByLabel('Notification email');
    await email.fill('not an email');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('.field-error').first().waitFor();
    assert.equal(await email.getAttribute('aria-invalid'), 'true');

    await page.getByLabel('Name', { exact: true }).fill('Acme');
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await email.fill('ops@example.test');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved.').waitFor();
    const team = await t.request('GET', '/api/v1/team');
    assert.deepEqual([team.body.name, team.body.settings], ['Acme', { timezone: 'Europe/Berlin', notificationEmail: 'ops@example.test' }]);
    await page.getByLabel('Workspace').locator('option', { hasText: 'Acme (owner)' }).waitFor({ state: 'attached' });
    await screenshot(page, 'settings-general');
  });

  it("shows a readable message and a reload when a screen's code cannot be loaded", async () => {
    const fresh = await browser.context.newPage();
    await fresh.route(/\/assets\/billing-page-[\w-]+\.js$/, (route) => route.abort());
    await fresh.goto(`${t.url}/w/${workspaceId}/settings/billing`);
    await fresh.getByRole('heading', { name: 'This screen could not be shown' }).waitFor();
    await fresh.getByRole('alert').waitFor();
    await fresh.getByRole('button', { name: 'Reload the page' }).waitFor();
    await fresh.close();
  });

  it('after a failed "show more", Try again reads the list again and every key can still be shown', async () => {
    for (let n = 1; n <= 55; n++) {
      assert.equal((await t.request('POST', '/api/v1/keys', { body: { name: `Batch key ${n}` } })).status, 201);
    }
    const listed = await t.request('GET', '/api/v1/keys?limit=100');
    const total = (listed.body as unknown[]).length;
    const fresh = await browser.context.newPage();
    await open(fresh, 'settings/keys', 'API keys');
    let refused = 0;
    await fresh.route(/\/api\/v1\/keys\?.*cursor=/, (route) => (refused++ === 0 ? route.abort() : route.continue()));
    await fresh.getByRole('button', { name: 'Show more' }).click();
    await fresh.getByRole('alert').waitFor();
    await fresh.getByRole('button', { name: 'Try again' }).click();
    await fresh.getByRole('alert').waitFor({ state: 'detached' });
    await fresh.getByRole('button', { name: 'Show more' }).click();
    // While the page loads, the button reads "Loading…": wait for the rows, not for "Show more" to go.
    await fresh.getByRole('row').nth(total).waitFor();
    // Every key's row, and the header row, and nothing more to show.
    assert.equal(await fresh.getByRole('row').count(), total + 1);
    assert.equal(await fresh.getByRole('button', { name: /Show more|Loading/ }).count(), 0);
    await fresh.close();
  });

  it('fits a phone: the team and settings screens are no wider than a 390 px screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, heading] of [
      ['team', 'Members'],
      ['settings/keys', 'API keys'],
      ['settings/billing', 'Credit ledger'],
      ['settings', 'General'],
    ] as const) {
      await open(page, path, heading);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path);
    }
    await open(page, 'team', 'Members');
    await screenshot(page, 'phone-team');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
