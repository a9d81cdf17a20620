import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { DASHBOARD_DIST } from '../dashboard/dashboard-routes.ts';
import { pick } from './fuzz-inputs.ts';

/** A line of a file outside the served folders, which no file inside them holds: seeing it in an answer is a leak. */
export interface Fingerprint {
  file: string;
  text: string;
}

/** The folder Swagger UI's files are served from at /api/docs/static. */
export const SWAGGER_UI_STATIC = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');

const REPO = join(DASHBOARD_DIST, '../../..');
/** Files a traversal could aim at: the system's, the repo's sources and manifests next to the dashboard's build. */
const TARGETS = [
  '/etc/passwd',
  join(REPO, 'packages/dashboard/index.html'),
  join(REPO, 'packages/dashboard/package.json'),
  join(REPO, 'packages/server/src/app.ts'),
  join(REPO, 'package.json'),
];

/**
 * Ways to write `../` (and the `/` between the names after it) in a URL that a careless
 * decoder, normaliser or file server turns into a parent folder.
 */
const spellings: readonly { up: string; slash: string }[] = [
  { up: '..%2f', slash: '%2f' },
  { up: '%2e%2e/', slash: '/' },
  { up: '..%2F', slash: '%2F' },
  { up: '%2e%2e%2f', slash: '%2f' },
  { up: '..%5c', slash: '%5c' },
  { up: '..%252f', slash: '%252f' },
  { up: '..%c0%af', slash: '%c0%af' },
  { up: '../', slash: '/' },
  { up: '....//', slash: '/' },
  { up: '..;/', slash: '/' },
  { up: '.%2e/', slash: '/' },
  { up: '..%00/', slash: '/' },
];
const ALWAYS = 2;
const DRAWN = 3;

function textsOf(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'latin1'));
}

let fingerprints: Fingerprint[] | undefined;

/** Each target's longest line that no served file holds (the dashboard's own index.html shares its head with its source). */
export function targetFingerprints(): Fingerprint[] {
  if (fingerprints) return fingerprints;
  const served = [...textsOf(DASHBOARD_DIST), ...textsOf(SWAGGER_UI_STATIC)];
  fingerprints = TARGETS.filter((file) => existsSync(file)).flatMap((file) => {
    const lines = readFileSync(file, 'latin1')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length >= 12);
    const text = lines.sort((a, b) => b.length - a.length).find((line) => !served.some((content) => content.includes(line)));
    return text === undefined ? [] : [{ file, text }];
  });
  return fingerprints;
}

/**
 * Paths that climb from `folder` (the one a route serves, as `urlPrefix` reaches it) to each
 * target, in a few spellings drawn per target, with the target's fingerprint.
 */
export function traversalPaths(
  urlPrefix: string,
  folder: string,
  random: () => number,
): { label: string; path: string; leaks: Fingerprint[] }[] {
  return targetFingerprints().flatMap((fingerprint) => {
    const steps = relative(folder, fingerprint.file).split(sep);
    const ups = steps.filter((step) => step === '..').length;
    // Up to the root, a few more: a server that stops at its root must still not get out of it.
    const climbs = fingerprint.file.startsWith(REPO) ? ups : ups + 3;
    const names = steps.slice(ups).map(encodeURIComponent);
    return [...spellings.slice(0, ALWAYS), ...pick(spellings.slice(ALWAYS), DRAWN, random)].map(({ up, slash }) => ({
      label: `${urlPrefix} then ${climbs} × ${up} to ${fingerprint.file}`,
      path: `${urlPrefix}${up.repeat(climbs)}${names.join(slash)}`,
      leaks: [fingerprint],
    }));
  });
}
