import { LoupeError } from '@loupe/contract';
import type { Command } from 'commander';
import { type Config, loadConfig } from '../../config.ts';
import type { Database } from '../../database/database.ts';
import type { WorkspaceAdmin, WorkspaceListing } from '../../provisioning/workspace-admin.ts';
import type { ResetLink } from '../../sessions/password-reset-service.ts';
import { formatTable } from '../table.ts';
import { terminalJson, terminalText, terminalValue } from '../terminal-text.ts';

/**
 * Runs one `loupe admin` command on the configured database and prints its result, as text or
 * with --json as JSON. Exit codes: 0 done, 2 bad input (WorkspaceAdmin's validation_failed,
 * or a usage error caught by commander), 1 anything else (unknown workspace, database down).
 */
async function runAdmin<T>(
  options: { json?: boolean },
  work: (admin: WorkspaceAdmin, context: { database: Database; config: Config }) => Promise<T>,
  describe: (result: T) => string,
): Promise<void> {
  const config = loadConfig();
  const { openDatabase } = await import('../../database/open-database.ts');
  const { migrateToLatest } = await import('../../database/migrate.ts');
  const { WorkspaceAdmin } = await import('../../provisioning/workspace-admin.ts');
  const { Plans } = await import('../../plans/plans.ts');
  const plans = Plans.load(config.plansFile);
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    const result = await work(new WorkspaceAdmin(database, plans), { database, config });
    // Workspace names stored before names refused control characters are printed safely too.
    process.stdout.write(`${options.json ? terminalJson(JSON.stringify(result)) : describe(terminalValue(result))}\n`);
  } catch (error) {
    process.stderr.write(`loupe admin: ${terminalText(error instanceof Error ? error.message : String(error), { multiline: true })}\n`);
    process.exitCode = error instanceof LoupeError && error.code === 'validation_failed' ? 2 : 1;
  } finally {
    await database.close();
  }
}

function workspaceTable(workspaces: WorkspaceListing[]): string {
  if (workspaces.length === 0) return 'No workspaces yet: run `loupe init`.';
  return formatTable(
    ['id', 'name', 'plan', 'balance'],
    workspaces.map((w) => [w.id, w.name, w.plan, String(w.balance)]),
  );
}

/**
 * A password reset link made here rather than mailed, for instances without SMTP (issue #22,
 * point 1): the operator checks who asks, then hands the link to them alone.
 */
async function issueResetLink(database: Database, config: Config, email: string): Promise<ResetLink> {
  const { PasswordResetService } = await import('../../sessions/password-reset-service.ts');
  // No mailer, and no key is cached in this process: only the link is made here.
  const resets = new PasswordResetService({ database, publicUrl: config.publicUrl, mailer: null, keysChanged: () => {} });
  return resets.issueLink(email);
}

/** `loupe admin`: operator tasks straight on the database, no server or key needed. */
export function registerAdminCommand(program: Command): void {
  const admin = program
    .command('admin')
    .description("Operator tasks on this instance's database: workspaces, plans, credits, password resets.");

  admin
    .command('workspaces')
    .description('List every workspace: id, name, plan and credit balance.')
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) => runAdmin(options, (a) => a.listWorkspaces(), workspaceTable));

  admin
    .command('grant-credits')
    .description("Add credits to a workspace's balance (recorded in its ledger).")
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--amount <n>', 'credits to add, a whole number')
    .option('--note <text>', 'why, shown in the ledger')
    .option('--json', 'print the result as JSON')
    .action((options: { workspace: string; amount: string; note?: string; json?: boolean }) =>
      runAdmin(
        options,
        (a) => a.grantCredits(options),
        (r) => `Granted ${r.granted} credits to workspace ${r.workspaceId}; the balance is now ${r.balance}.`,
      ),
    );

  admin
    .command('set-plan')
    .description("Change a workspace's plan (one of the plan table's).")
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--plan <name>', 'free, pro, business (or a plan of LOUPE_PLANS_FILE)')
    .option('--json', 'print the result as JSON')
    .action((options: { workspace: string; plan: string; json?: boolean }) =>
      runAdmin(
        options,
        (a) => a.setPlan(options),
        (r) => `Workspace ${r.workspaceId} is now on the ${r.plan} plan (was ${r.previousPlan}).`,
      ),
    );

  admin
    .command('reset-password')
    .description("Print a one-time link that sets the account's password and ends its sessions and API keys (valid for an hour).")
    .argument('<email>', "the account's email")
    .option('--json', 'print the result as JSON')
    .action((email: string, options: { json?: boolean }) =>
      runAdmin(
        options,
        (_admin, { database, config }) => issueResetLink(database, config, email),
        (link) =>
          [
            `Password reset link for ${link.email}, valid once until ${link.expiresAt}:`,
            link.url,
            'Give it to that person only. Using it signs the account out everywhere and revokes all its API keys.',
          ].join('\n'),
      ),
    );
}
