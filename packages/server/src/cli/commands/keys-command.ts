import { Id, LoupeError, Scope } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';
import { type Command, InvalidArgumentError } from 'commander';
import { type ListFlags, listAll, withListFlags } from '../list-all.ts';
import { formatFields, formatTable } from '../table.ts';
import { userAction, withClientFlags } from '../user-command.ts';

/** A key given by id or by name; a name two keys share is refused with their ids. */
async function keyId(client: LoupeClient, reference: string): Promise<string> {
  if (Id.safeParse(reference).success) return reference;
  const matches: string[] = [];
  for await (const key of client.all.listApiKeys({ limit: 100 })) if (key.name === reference) matches.push(key.id);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw new LoupeError('not_found', { message: `No API key with the id or name "${reference}": loupe keys list shows them.` });
  }
  const message = `${matches.length} keys are named "${reference}": name one by its id (${matches.join(', ')}).`;
  throw new LoupeError('validation_failed', { message, details: { fieldErrors: { key: [message] }, formErrors: [] } });
}

/** A repeatable --scope, each one checked against the scopes there are. */
function scopeList(value: string, previous: Scope[] | undefined): Scope[] {
  const scope = Scope.safeParse(value);
  if (!scope.success) throw new InvalidArgumentError(`Not a scope. Scopes: ${Scope.options.join(', ')}.`);
  return [...(previous ?? []), scope.data];
}

/** `loupe keys`: the workspace's API keys (an admin's or owner's business). */
export function registerKeysCommand(program: Command): void {
  const keys = program.command('keys').description("The workspace's API keys: list, create (its secret shown once), revoke.");

  withListFlags(withClientFlags(keys.command('list').description('List the API keys, without their secrets.'))).action(
    userAction<ListFlags>(async ({ session, output }, _args, options) => {
      const client = await session.workspaceClient();
      const list = await listAll(options, (page) => client.all.listApiKeys(page));
      output.result(list, (rows) =>
        formatTable(
          ['id', 'name', 'key', 'scopes', 'expires', 'last used'],
          rows.map((k) => [k.id, k.name, `${k.prefix}…`, k.scopes.join(' '), k.expiresAt, k.lastUsedAt]),
        ),
      );
    }),
  );

  withClientFlags(keys.command('create').description('Create an API key; its secret is printed once, never again.'))
    .argument('<name>', 'what the key is for, 1–100 characters')
    .option('--scope <scope>', `a scope, repeatable: ${Scope.options.join(', ')} (default: every scope of your key)`, scopeList)
    .option('--expires-at <time>', 'when the key stops working, ISO 8601 (default: never)')
    .action(
      userAction<{ scope?: Scope[]; expiresAt?: string }>(async ({ session, output }, [name], options) => {
        const client = await session.workspaceClient();
        const created = await client.createApiKey({ body: { name: name as string, scopes: options.scope, expiresAt: options.expiresAt } });
        output.result(
          created,
          (k) =>
            `Created key ${k.name}. Copy the secret now: it is not shown again.\n${formatFields([
              ['secret', k.key],
              ['id', k.id],
              ['scopes', k.scopes.join(' ')],
              ['expires', k.expiresAt],
            ])}`,
        );
      }),
    );

  withClientFlags(keys.command('revoke').description('Revoke an API key: the API refuses it from then on.'))
    .argument('<key>', 'key id or name')
    .action(
      userAction(async ({ session, output }, [reference]) => {
        const client = await session.workspaceClient();
        const answer = await client.deleteApiKey({ keyId: await keyId(client, reference as string) });
        output.result(answer, () => `Revoked key ${String(reference)}.`);
      }),
    );
}
