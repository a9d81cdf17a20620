import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { text } from 'node:stream/consumers';
import { type OperationDefinition, operations } from '@loupe/contract';
import type { Command } from 'commander';
import type { ClientSession } from '../client-session.ts';
import { terminalJson } from '../terminal-text.ts';
import { keyValues, repeatable, usageError, userAction, withClientFlags } from '../user-command.ts';

const registry = operations as readonly OperationDefinition[];

type DynamicMethod = (request: Record<string, unknown>) => unknown;

interface CallFlags {
  param?: string[];
  body?: string;
  file?: string;
  all?: boolean;
}

/** The help's list of operations, by tag, from the registry. */
function operationList(): string {
  const byTag = new Map<string, OperationDefinition[]>();
  for (const operation of registry) byTag.set(operation.tag, [...(byTag.get(operation.tag) ?? []), operation]);
  const width = Math.max(...registry.map((operation) => operation.id.length));
  const sections = [...byTag].map(
    ([tag, list]) =>
      `${tag}:\n${list.map((operation) => `  ${operation.id.padEnd(width)}  ${operation.method} ${operation.path}`).join('\n')}`,
  );
  return `\nOperations (the REST API's operationIds; /api/openapi.json describes their inputs and answers):\n\n${sections.join('\n\n')}`;
}

/** The names --param may set: path parameters, query fields, paging, and an upload's fields. */
function paramNames(operation: OperationDefinition): Set<string> {
  return new Set([
    ...Object.keys(operation.params?.shape ?? {}),
    ...Object.keys(operation.query?.shape ?? {}),
    ...(operation.paged ? ['limit', 'cursor'] : []),
    ...Object.keys(operation.upload?.fields.shape ?? {}),
  ]);
}

async function readBody(body: string): Promise<unknown> {
  const source = body === '-' ? await text(process.stdin) : body.startsWith('@') ? await readFile(body.slice(1), 'utf8') : body;
  try {
    return JSON.parse(source);
  } catch {
    throw usageError('body', '--body is not valid JSON (give JSON, @file or - for stdin).');
  }
}

async function buildRequest(operation: OperationDefinition, options: CallFlags): Promise<Record<string, unknown>> {
  const params = keyValues(options.param, 'param');
  const allowed = paramNames(operation);
  for (const name of Object.keys(params)) {
    if (!allowed.has(name)) {
      throw usageError('param', `${operation.id} takes no parameter "${name}"; it takes: ${[...allowed].join(', ') || 'none'}.`);
    }
  }
  const request: Record<string, unknown> = { ...params };
  if (options.file !== undefined) {
    if (!operation.upload) throw usageError('file', `${operation.id} takes no file (--file).`);
    const fields = Object.fromEntries(
      Object.keys(operation.upload.fields.shape)
        .filter((name) => name in params)
        .map((name) => [name, params[name]]),
    );
    request.upload = { file: await readFile(options.file), filename: basename(options.file), fields };
  } else if (operation.body) {
    request.body = options.body === undefined ? {} : await readBody(options.body);
  } else if (options.body !== undefined) {
    throw usageError('body', `${operation.id} takes no body (--body).`);
  }
  return request;
}

async function methodOf(session: ClientSession, operation: OperationDefinition, all: boolean): Promise<DynamicMethod> {
  const client = operation.api === 'workspace' && operation.teamHeader !== false ? await session.workspaceClient() : session.client();
  const methods = (all ? client.all : client) as unknown as Record<string, DynamicMethod>;
  return methods[operation.id]!.bind(all ? client.all : client);
}

/** `loupe call`: any operation of the registry, so everything the API can do the CLI can. */
export function registerCallCommand(program: Command): void {
  withClientFlags(program.command('call').description('Call any API operation by its id (every one the API has).'))
    .argument('<operationId>', 'e.g. listAuditRules, createSchedule (the list is below)')
    .option('-p, --param <name=value>', 'a path parameter or query field (repeatable)', repeatable)
    .option('--body <json>', 'the JSON body; @file reads a file, - reads stdin')
    .option('--file <path>', 'the file of an upload operation (uploadImage)')
    .option('--all', 'a list operation: every page, not only the first')
    .addHelpText(
      'after',
      () => `\nExample:\n  loupe call createSchedule -p projectId=… --body '{"cron":"0 3 * * 1","timezone":"UTC"}'\n${operationList()}`,
    )
    .action(
      userAction<CallFlags>(async ({ session, output }, [operationId], options) => {
        const operation = registry.find((candidate) => candidate.id === operationId);
        if (!operation) throw usageError('operationId', `No operation "${String(operationId)}": loupe call --help lists them.`);
        if (options.all && !operation.paged) throw usageError('all', `${operation.id} is not a list: drop --all.`);
        const request = await buildRequest(operation, options);
        const method = await methodOf(session, operation, options.all === true);
        // Results print as JSON either way: `call` is for scripts and for what has no command of its own.
        if (options.all) {
          const items: unknown[] = [];
          for await (const item of method(request) as AsyncIterable<unknown>) items.push(item);
          output.jsonResult(items);
        } else if (operation.stream) {
          const events: unknown[] = [];
          for await (const event of (await method(request)) as AsyncIterable<unknown>) {
            events.push(event);
            output.say(terminalJson(JSON.stringify(event)));
          }
          if (output.json) output.jsonResult(events);
        } else {
          const answer = await method(request);
          if (typeof answer === 'string' && !output.json) output.file(answer);
          else output.jsonResult(answer);
        }
      }),
    );
}
