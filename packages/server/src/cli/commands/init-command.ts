import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { announceFirstStart } from '../first-start-notice.ts';

/** `loupe init`: what the first start does, without starting the server. */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('Create the database, the "Default" workspace, its owner and an API key (printed once, on stderr).')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const config = loadConfig();
      const { openDatabase } = await import('../../database/open-database.ts');
      const { migrateToLatest } = await import('../../database/migrate.ts');
      const { bootstrapInstance } = await import('../../provisioning/bootstrap.ts');
      const { Plans } = await import('../../plans/plans.ts');
      const plans = Plans.load(config.plansFile);
      const plan = plans.defaultPlan(config.defaultPlan);
      const database = openDatabase(config);
      try {
        await migrateToLatest(database);
        const bootstrapped = await bootstrapInstance(database, { plans, plan, bootstrapKey: config.bootstrapKey });
        if (options.json) {
          // A script asked for the key on stdout; it is there once, as the notice would show it.
          const key = bootstrapped?.generated ? bootstrapped.key : undefined;
          const result = bootstrapped
            ? { initialized: true, workspaceId: bootstrapped.workspaceId, plan: bootstrapped.plan, key }
            : { initialized: false };
          process.stdout.write(`${JSON.stringify(result)}\n`);
        } else if (bootstrapped) {
          const notice = { plans, publicUrl: config.publicUrl, keyFile: config.bootstrapKeyFile };
          announceFirstStart(bootstrapped, notice, (line) => process.stderr.write(`${line}\n`));
        } else {
          process.stdout.write('Already initialized: nothing to do. `loupe admin mint-key` makes a new key.\n');
        }
      } finally {
        await database.close();
      }
    });
}
