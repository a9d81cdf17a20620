import { TEST_PASSWORD, type TestSession } from '@loupe/server/src/sessions/test-session.ts';
import type { BrowserContext, Page } from 'playwright-core';

/**
 * Signs in on the dashboard at `url` with the test password, and waits to leave the sign-in
 * page, or to reach `landing` when given.
 */
export async function signIn(page: Page, url: string, email: string, landing?: RegExp): Promise<void> {
  await page.goto(`${url}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(landing ?? ((address) => address.pathname !== '/sign-in'));
}

/** Signs the browser in as an API-made session (setUpOwner's): its cookie, for the dashboard at `url`, replaces any other. */
export async function useSession(context: BrowserContext, url: string, session: Pick<TestSession, 'cookie'>): Promise<void> {
  const [name, value] = session.cookie.split('=') as [string, string];
  await context.clearCookies();
  await context.addCookies([{ name, value, url }]);
}
