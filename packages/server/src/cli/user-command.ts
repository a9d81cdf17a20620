import { LoupeError } from '@loupe/contract';
import { type Command, InvalidArgumentError } from 'commander';
import type { ClientConfigFlags } from './client-config.ts';
import { ClientSession } from './client-session.ts';
import { type ExitCode, exitCodeFor, exitCodes } from './exit-codes.ts';
import { withFixHint } from './fix-hints.ts';
import { Output } from './output.ts';

/** The flags every user command takes. */
export interface UserFlags extends ClientConfigFlags {
  json?: boolean;
}

/** What a user command works with: the server (through the SDK) and where to write. */
export interface CommandContext {
  session: ClientSession;
  output: Output;
}

/** Adds the connection and output flags to a user command (so each one's --help lists them). */
export function withClientFlags(command: Command): Command {
  return command
    .option('--url <url>', 'the Loupe server (env LOUPE_URL; default http://localhost:8080)')
    .option('--key <key>', 'API key, loupe_… (env LOUPE_API_KEY)')
    .option('--workspace <id>', 'workspace for workspace API calls (env LOUPE_WORKSPACE; default: your only one)')
    .option('--config <file>', 'config file (env LOUPE_CONFIG; default ~/.config/loupe/config.json)')
    .option('--json', 'print exactly one JSON document on stdout, for scripts');
}

/**
 * A commander action running one user command: `work` gets the context, the positional
 * arguments and the options; a thrown error is reported (as the API's error body with
 * --json) and becomes the exit status of exit-codes.ts. `work` may return another status.
 */
export function userAction<O extends object>(
  // biome-ignore lint/suspicious/noConfusingVoidType: most commands return nothing, a few an exit status.
  work: (context: CommandContext, args: unknown[], options: O & UserFlags) => Promise<ExitCode | void>,
): (...params: unknown[]) => Promise<void> {
  return async (...params: unknown[]) => {
    const command = params.at(-1) as Command;
    const options = command.opts<O & UserFlags>();
    const output = new Output(options);
    try {
      const session = new ClientSession(options, {
        onRetry: (retry) => output.note(`The server answered ${retry.status}: trying again in ${Math.ceil(retry.delayMs / 1000)} s…`),
      });
      process.exitCode = (await work({ session, output }, params.slice(0, -2), options)) ?? exitCodes.ok;
    } catch (error) {
      output.error(withFixHint(error));
      process.exitCode = exitCodeFor(error);
    }
  };
}

/** An option parser for a whole number within bounds; anything else is a usage error. */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || number < min || number > max) {
      throw new InvalidArgumentError(`Must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}.`);
    }
    return number;
  };
}

/** An option parser collecting a repeatable option's values. */
export function repeatable(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `name=value` pairs (from a repeatable option) as an object; a pair without `=` is a usage error. */
export function keyValues(pairs: readonly string[] | undefined, option: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const at = pair.indexOf('=');
    if (at < 1) throw usageError(option, `--${option} takes name=value, not "${pair}".`);
    result[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return result;
}

/** Bad input found by the CLI itself: the same `validation_failed` error (exit 2) the server would answer. */
export function usageError(field: string, message: string): LoupeError {
  return new LoupeError('validation_failed', { message, details: { fieldErrors: { [field]: [message] }, formErrors: [] } });
}
