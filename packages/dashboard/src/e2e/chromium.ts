import { constants } from 'node:fs';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium, installed by `.ci/run` (never a browser a test tool downloads). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Flags for a machine without a network: without the background-networking ones Chromium's
 * own connections (updates, sync, QUIC probes) are refused here, many at a time.
 */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium on a fresh, empty profile (its own user-data-dir), removed on close. */
export async function launchChromium(): Promise<Chromium> {
  try {
    await access(CHROMIUM, constants.X_OK);
  } catch {
    throw new Error(
      `The dashboard's browser tests need Debian's Chromium at ${CHROMIUM}: run \`apt-get install -y chromium\` (.ci/run does).`,
    );
  }
  const profile = await mkdtemp(join(tmpdir(), 'loupe-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
