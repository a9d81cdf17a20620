import { TEST_PASSWORD } from '@loupe/server/src/sessions/test-session.ts';
import type { Page } from 'playwright-core';

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
