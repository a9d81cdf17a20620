#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { LoupeError } from '@loupe/contract';
import { Command, CommanderError } from 'commander';
import { loadConfig } from './config.ts';
import { migrateToLatest } from './database/migrate.ts';
import { openDatabase } from './database/open-database.ts';
import { bootstrapInstance, type Bootstrapped } from './identity/bootstrap.ts';
import { WorkspaceAdmin, type WorkspaceListing } from './identity/workspace-admin.ts';
import { Plans } from './plans/plans.ts';

// A `.env` file in the working directory is read first (DESIGN.md §3); real environment variables win.
if (existsSync('.env')) process.loadEnvFile('.env');

function announceKey(bootstrapped: Bootstrapped, out: (line: string) => void): void {
  out('Created the workspace "Default" and its owner.');
  out(`  workspace id: ${bootstrapped.workspaceId}`);
  if (bootstrapped.generated) {
    out(`  API key (shown once, store it now): ${bootstrapped.key}`);
  } else {
    out('  API key: the value of LOUPE_BOOTSTRAP_KEY');
  }
}

const program = new Command('loupe').description('Loupe: image CDN with transform presets, and site audits.');

program
  .command('serve')
  .description('Run the service (HTTP API, CDN, dashboard).')
  .action(async () => {
    const config = loadConfig();
    // Loaded here so other commands start without the image pipeline and face model.
    const { startServer } = await import('./server.ts');
    const server = await startServer(config);
    if (server.bootstrapped) announceKey(server.bootstrapped, (line) => process.stdout.write(`${line}\n`));
    server.app.log.info(`Loupe listening on ${server.url} (database: ${server.database.kind})`);
    const stop = async (signal: string) => {
      server.app.log.info(`${signal}: shutting down`);
      await server.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });

program
  .command('worker')
  .description('Run background jobs (crawls, index builds, alert deliveries) from PostgreSQL, without the HTTP server.')
  .action(async () => {
    const config = loadConfig();
    const { startJobWorker } = await import('./jobs/job-worker.ts');
    const { createJobHandlers } = await import('./jobs/job-handlers.ts');
    const { pino } = await import('pino');
    const log = pino({ level: config.logLevel });
    const worker = await startJobWorker(config, createJobHandlers, log);
    log.info(`Loupe worker taking jobs (crawls at once: ${config.crawlConcurrency})`);
    const stop = async (signal: string) => {
      log.info(`${signal}: finishing running jobs, then stopping`);
      await worker.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });

program
  .command('init')
  .description('Create the database, the "Default" workspace, its owner and an API key (printed once).')
  .option('--json', 'print the result as JSON')
  .action(async (options: { json?: boolean }) => {
    const config = loadConfig();
    const database = openDatabase(config);
    try {
      await migrateToLatest(database);
      const bootstrapped = await bootstrapInstance(database, {
        plans: Plans.load(config.plansFile),
        bootstrapKey: config.bootstrapKey,
      });
      if (options.json) {
        process.stdout.write(
          `${JSON.stringify(bootstrapped ? { initialized: true, workspaceId: bootstrapped.workspaceId, key: bootstrapped.generated ? bootstrapped.key : undefined } : { initialized: false })}\n`,
        );
      } else if (bootstrapped) {
        announceKey(bootstrapped, (line) => process.stdout.write(`${line}\n`));
      } else {
        process.stdout.write('Already initialized: nothing to do.\n');
      }
    } finally {
      await database.close();
    }
  });

/**
 * Runs one `loupe admin` command on the configured database and prints its result, as text or
 * with --json as JSON. Exit codes: 0 done, 2 bad input (WorkspaceAdmin's validation_failed,
 * or a usage error caught by commander), 1 anything else (unknown workspace, database down).
 */
async function runAdmin<T>(
  options: { json?: boolean },
  work: (admin: WorkspaceAdmin) => Promise<T>,
  describe: (result: T) => string,
): Promise<void> {
  const config = loadConfig();
  const plans = Plans.load(config.plansFile);
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    const result = await work(new WorkspaceAdmin(database, plans));
    process.stdout.write(`${options.json ? JSON.stringify(result) : describe(result)}\n`);
  } catch (error) {
    process.stderr.write(`loupe admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof LoupeError && error.code === 'validation_failed' ? 2 : 1;
  } finally {
    await database.close();
  }
}

function workspaceTable(workspaces: WorkspaceListing[]): string {
  if (workspaces.length === 0) return 'No workspaces yet: run `loupe init`.';
  const rows = [['ID', 'NAME', 'PLAN', 'BALANCE'], ...workspaces.map((w) => [w.id, w.name, w.plan, String(w.balance)])];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}

const admin = program
  .command('admin')
  .description("Operator tasks on this instance's database: workspaces, plans, credits.")
  // A usage error (missing option, unknown command) exits 2 like any other bad input.
  .exitOverride();

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

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Commander has already printed what was wrong (or the help that was asked for).
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  // Configuration and start-up problems are the operator's to fix: say what, without a stack.
  process.stderr.write(`loupe: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
