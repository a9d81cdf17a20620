#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { loadConfig } from './config.ts';
import { migrateToLatest } from './database/migrate.ts';
import { openDatabase } from './database/open-database.ts';
import { bootstrapInstance, type Bootstrapped } from './identity/bootstrap.ts';
import { startServer } from './server.ts';

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
  .command('init')
  .description('Create the database, the "Default" workspace, its owner and an API key (printed once).')
  .option('--json', 'print the result as JSON')
  .action(async (options: { json?: boolean }) => {
    const config = loadConfig();
    const database = openDatabase(config);
    try {
      await migrateToLatest(database);
      const bootstrapped = await bootstrapInstance(database, { bootstrapKey: config.bootstrapKey });
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

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Configuration and start-up problems are the operator's to fix: say what, without a stack.
  process.stderr.write(`loupe: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
