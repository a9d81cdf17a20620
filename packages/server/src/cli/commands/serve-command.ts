import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import type { Bootstrapped } from '../../provisioning/bootstrap.ts';

/** The first start's key, printed once (DESIGN.md §3), and where the owner signs in; `loupe init` prints the same. */
export function announceKey(bootstrapped: Bootstrapped, publicUrl: string, out: (line: string) => void): void {
  out('Created the workspace "Default" and its owner.');
  out(`  workspace id: ${bootstrapped.workspaceId}`);
  if (bootstrapped.generated) {
    out(`  API key (shown once, store it now): ${bootstrapped.key}`);
  } else {
    out('  API key: the value of LOUPE_BOOTSTRAP_KEY');
  }
  out(`  dashboard: open ${new URL('/', publicUrl).href} to give the owner an email and a password`);
}

/** `loupe serve` and `loupe worker`: the long-running processes of an instance. */
export function registerServeCommands(program: Command): void {
  program
    .command('serve')
    .description('Run the service (HTTP API, CDN, dashboard).')
    .action(async () => {
      const config = loadConfig();
      // Loaded here so other commands start without the image pipeline and face model.
      const { startServer } = await import('../../server.ts');
      const server = await startServer(config);
      if (server.bootstrapped) announceKey(server.bootstrapped, config.publicUrl, (line) => process.stdout.write(`${line}\n`));
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
      const { startJobWorker } = await import('../../job-worker.ts');
      const { createJobHandlers } = await import('../../job-wiring.ts');
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
}
