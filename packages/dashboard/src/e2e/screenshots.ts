import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/** Screenshots of the main screens, kept as artefacts of a test run (gitignored). */
export const SCREENSHOTS = fileURLToPath(new URL('../../../../artifacts/screenshots/', import.meta.url));

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
