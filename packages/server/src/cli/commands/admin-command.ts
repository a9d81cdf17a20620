import { LoupeError } from '@loupe/contract';
import type { Command } from 'commander';
import { type Config, loadConfig } from '../../config.ts';
import type { Database } from '../../database/database.ts';
import type { UserListing, WorkspaceAdmin, WorkspaceListing } from '../../provisioning/workspace-admin.ts';
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
    const admin = new WorkspaceAdmin(database, plans, { defaultPlan: config.defaultPlan });
    const result = await work(admin, { database, config });
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

function userTable(users: UserListing[]): string {
  if (users.length === 0) return 'No users.';
  return formatTable(
    ['id', 'email', 'password', 'workspaces'],
    users.map((u) => [u.id, u.email, u.hasPassword ? 'yes' : 'no', u.workspaces.map((w) => `${w.id} (${w.role})`).join(', ')]),
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
    .description("Operator tasks on this instance's database: workspaces, users, keys, plans, credits, password resets.");

  admin
    .command('workspaces')
    .description('List every workspace: id, name, plan and credit balance.')
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) => runAdmin(options, (a) => a.listWorkspaces(), workspaceTable));

  admin
    .command('create-workspace')
    .description('Create a workspace, its owner (a new account, or the existing one of that email) and an owner API key, printed once.')
    .requiredOption('--name <name>', "the workspace's name")
    .requiredOption('--owner <email>', "the owner's email")
    .option('--plan <name>', 'a plan of the plan table (default: LOUPE_DEFAULT_PLAN, else self-hosted)')
    .option('--json', 'print the result as JSON')
    .action((options: { name: string; owner: string; plan?: string; json?: boolean }) =>
      runAdmin(
        options,
        (a) => a.createWorkspace({ name: options.name, ownerEmail: options.owner, plan: options.plan }),
        (r) =>
          [
            `Created the workspace "${r.name}" (${r.workspaceId}) on the ${r.plan} plan, owned by ${r.owner.email}${r.owner.created ? ' (a new account)' : ''}.`,
            `  owner API key (shown once, store it now): ${r.key.secret}`,
            r.owner.created ? `  to sign in to the dashboard: loupe admin reset-password ${r.owner.email}` : '',
          ]
            .filter(Boolean)
            .join('\n'),
      ),
    );

  admin
    .command('mint-key')
    .description("Make a new API key of a workspace's member (its owner unless --email names another), printed once.")
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--email <email>', 'the member whose key it is, with their role (default: the first owner)')
    .option('--name <text>', "the key's name, as key listings show it")
    .option('--json', 'print the result as JSON')
    .action((options: { workspace: string; email?: string; name?: string; json?: boolean }) =>
      runAdmin(
        options,
        (a) => a.mintKey(options),
        (r) =>
          [
            `New ${r.role} key "${r.key.name}" of ${r.user.email} in workspace ${r.workspaceId}.`,
            `  API key (shown once, store it now): ${r.key.secret}`,
          ].join('\n'),
      ),
    );

  admin
    .command('users')
    .alias('list-users')
    .description('List every account: id, email, whether it has a password, and its workspaces with roles.')
    .option('--workspace <id>', "only this workspace's members")
    .option('--json', 'print the result as JSON')
    .action((options: { workspace?: string; json?: boolean }) => runAdmin(options, (a) => a.listUsers(options), userTable));

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
    .requiredOption('--plan <name>', 'free, pro, business, self-hosted (or a plan of LOUPE_PLANS_FILE)')
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
