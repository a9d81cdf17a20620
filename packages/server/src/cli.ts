#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { CommanderError } from 'commander';
import { exitCodes } from './cli/exit-codes.ts';
import { createProgram } from './cli/program.ts';

// A `.env` file in the working directory is read first (DESIGN.md §3); real environment variables win.
if (existsSync('.env')) process.loadEnvFile('.env');

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  // Commander has already printed what was wrong (or the help that was asked for).
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? exitCodes.ok : exitCodes.usage);
  // Configuration and start-up problems are the operator's to fix: say what, without a stack.
  process.stderr.write(`loupe: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(exitCodes.usage);
}
