import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PASSWORD_RESET_PAGE } from '@loupe/contract';
import { startTestSmtpServer, type TestSmtpServer } from '@loupe/server/src/alerts/test-smtp-server.ts';
import { addPasswordMember, setUpOwner } from '@loupe/server/src/sessions/test-session.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { screenshot } from './screenshots.ts';

const NEW_PASSWORD = 'my own new password';

/** A forgotten password, reset through the mailed link, in Debian's Chromium against the real server (issue #22, point 1). */
describe('password reset in a browser', () => {
  let t: TestServer;
  let smtp: TestSmtpServer;
  let browser: Chromium;
  let page: Page;
  let email: string;
  /** The path and fragment of the link mailed last, on this test server. */
  let linkPath: string;

  before(async () => {
    await ensureDashboardBuilt();
    smtp = await startTestSmtpServer();
    t = await startTestServer('sqlite', { smtpUrl: smtp.url });
    await setUpOwner(t, 'olga@example.test');
    email = await addPasswordMember(t, t.owner.workspaceId, t.owner.key, 'member');
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  it('asks for a link from the sign-in page and says to check the mail, without saying whether the account exists', async () => {
    await page.goto(`${t.url}/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
    assert.match((await page.getByRole('status').textContent()) ?? '', new RegExp(`If an account has the email ${email}`));
    await screenshot(page, 'password-reset-requested');

    const [mail] = await smtp.waitForMails(1);
    assert.ok(mail);
    assert.deepEqual(mail.recipients, [email]);
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)?.[0] ?? '');
    assert.equal(link.pathname, PASSWORD_RESET_PAGE);
    linkPath = `${link.pathname}${link.hash}`;
  });

  it("shows the API's password rule at the field, then sets the password and offers sign-in with the email filled in", async () => {
    await page.goto(`${t.url}${linkPath}`);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.locator('.field-error').waitFor();
    assert.equal(await page.getByLabel('New password').getAttribute('aria-invalid'), 'true');

    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByRole('heading', { name: 'Your password is set' }).waitFor();
    await screenshot(page, 'password-reset-done');
    await page.getByRole('link', { name: 'Sign in' }).click();
    assert.equal(await page.getByLabel('Email').inputValue(), email);
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(new RegExp(`/w/${t.owner.workspaceId}/images$`));
  });

  it('says a used link does not work, and offers a new one', async () => {
    await page.goto(`${t.url}${linkPath}`);
    await page.getByLabel('New password').fill('someone replays the link');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByRole('heading', { name: 'This reset link does not work' }).waitFor();
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    const old = await t.request('POST', '/api/session', { key: null, body: { email, password: 'someone replays the link' } });
    assert.equal(old.status, 401, 'the replayed link set nothing');
  });
});
