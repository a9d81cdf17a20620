import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { exitOnSignals } from '../../shutdown.ts';
import { announceFirstStart } from '../first-start-notice.ts';

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
      if (server.bootstrapped) {
        const notice = { plans: server.plans, publicUrl: config.publicUrl, keyFile: config.bootstrapKeyFile };
        announceFirstStart(server.bootstrapped, notice, (line) => process.stderr.write(`${line}\n`));
      }
      server.app.log.info(`Loupe listening on ${server.url} (database: ${server.database.kind})`);
      exitOnSignals(server, config.shutdownSeconds, server.app.log);
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
      exitOnSignals(worker, config.shutdownSeconds, log);
    });
}
