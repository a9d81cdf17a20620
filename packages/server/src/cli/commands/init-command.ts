import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { announceKey } from './serve-command.ts';

/** `loupe init`: what the first start does, without starting the server. */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('Create the database, the "Default" workspace, its owner and an API key (printed once).')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const config = loadConfig();
      const { openDatabase } = await import('../../database/open-database.ts');
      const { migrateToLatest } = await import('../../database/migrate.ts');
      const { bootstrapInstance } = await import('../../provisioning/bootstrap.ts');
      const { Plans } = await import('../../plans/plans.ts');
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
          announceKey(bootstrapped, config.publicUrl, (line) => process.stdout.write(`${line}\n`));
        } else {
          process.stdout.write('Already initialized: nothing to do.\n');
        }
      } finally {
        await database.close();
      }
    });
}
