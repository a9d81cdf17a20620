import { chmodSync, writeFileSync } from 'node:fs';
import type { PlanLimits, Plans } from '../plans/plans.ts';
import type { Bootstrapped } from '../provisioning/bootstrap.ts';

/** What a plan allows, in a line: the first start says what the workspace can do. */
export function describeLimits(limits: PlanLimits): string {
  const count = (value: number | null, noun: string) => (value === null ? `unlimited ${noun}` : `${value.toLocaleString('en')} ${noun}`);
  return [
    `${limits.pagesPerCrawl.toLocaleString('en')} pages a crawl`,
    limits.monthlyCredits === null ? 'no credits needed' : `${limits.monthlyCredits.toLocaleString('en')} credits a month`,
    count(limits.imageProjects, 'image projects'),
    count(limits.imagesPerProject, 'images a project'),
    limits.scheduledCrawls ? 'schedules' : 'no schedules',
    limits.customRulePacks ? 'custom rule packs' : 'no custom rule packs',
  ].join(', ');
}

/**
 * Writes the key alone to `file`, readable by its owner only (0600, also when the file was
 * there before); answers whether it could.
 */
function writeKeyFile(file: string, key: string): boolean {
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first start's notice (DESIGN.md §3), written once by `loupe serve` and `loupe init` to
 * the terminal (`out` is stderr: never the JSON log stream on stdout). The generated key goes
 * to LOUPE_BOOTSTRAP_KEY_FILE when set, else into the notice.
 */
export function announceFirstStart(
  bootstrapped: Bootstrapped,
  options: { plans: Plans; publicUrl: string; keyFile?: string },
  out: (line: string) => void,
): void {
  out('Created the workspace "Default" and its owner.');
  out(`  workspace id: ${bootstrapped.workspaceId}`);
  out(`  plan: ${bootstrapped.plan} (${describeLimits(options.plans.limits(bootstrapped.plan))})`);
  out('        change it with `loupe admin set-plan`, or name another for new workspaces with LOUPE_DEFAULT_PLAN');
  if (!bootstrapped.generated) {
    out('  API key: the value of LOUPE_BOOTSTRAP_KEY');
  } else if (options.keyFile && writeKeyFile(options.keyFile, bootstrapped.key)) {
    out(`  API key: written to ${options.keyFile} (readable by you only); store it elsewhere and delete the file`);
  } else {
    if (options.keyFile) out(`  could not write ${options.keyFile}; the key is shown here instead`);
    out(`  API key (shown once, store it now): ${bootstrapped.key}`);
  }
  out(`  dashboard: open ${new URL('/', options.publicUrl).href} to give the owner an email and a password`);
}
