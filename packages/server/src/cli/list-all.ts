import type { Command } from 'commander';
import { wholeNumber } from './user-command.ts';

export interface ListFlags {
  limit?: number;
}

/** Adds `--limit` to a list command; without it the command follows every page. */
export function withListFlags(command: Command): Command {
  return command.option('--limit <n>', 'list at most this many (default: all, page after page)', wholeNumber(1));
}

/**
 * Every item of a paged operation (the SDK's `client.all.*` follows the Link headers), or
 * the first `--limit` ones, asking for no bigger pages than needed.
 */
export async function listAll<T>(options: ListFlags, pages: (request: { limit: number }) => AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of pages({ limit: Math.min(options.limit ?? 100, 100) })) {
    items.push(item);
    if (options.limit !== undefined && items.length >= options.limit) break;
  }
  return items;
}
