/**
 * A second Loupe process for the scheduler's race tests (run as a child): it opens the same
 * database and job queue as `loupe serve` would, answers `ready`, then for each line of
 * standard input (an ISO instant) ticks its scheduler at that instant and prints the result as
 * one line of JSON. It closes when standard input ends. Configured by the usual environment
 * variables, plus LOUPE_TEST_PG_SCHEMA for a PostgreSQL schema of the test's own.
 */
import { createInterface } from 'node:readline';
import { pino } from 'pino';
import { loadConfig } from '../config.ts';
import { openInfrastructure } from '../infrastructure.ts';
import { schedulerFor } from './scheduler.ts';

const config = { ...loadConfig(), databaseSchema: process.env.LOUPE_TEST_PG_SCHEMA || undefined, schedulerTickMs: 0 };
const infrastructure = await openInfrastructure(config, pino({ level: 'silent' }));
const scheduler = schedulerFor(infrastructure);
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const result = await scheduler.tick(new Date(line.trim()));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
await infrastructure.close();
