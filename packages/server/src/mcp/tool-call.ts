import { LoupeError, parseOrThrow } from '@loupe/contract';
import { type ClientOptions, createClient, type LoupeClient } from '@loupe/sdk';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { refuseOverBudget } from './credit-guard.ts';
import type { McpTool } from './mcp-tools.ts';
import { toolError, toolImage, toolSuccess, toolText } from './tool-result.ts';
import { answersArray, DEFAULT_WAIT_SECONDS, mcpOnlyFieldNames } from './tool-schemas.ts';
import { chooseWorkspace, needsWorkspace } from './workspace-choice.ts';

/** A fetch that threw before any answer: Loupe was not reached (refused, unresolvable, reset). */
class RequestFailed extends Error {}

interface Call {
  client: LoupeClient;
  signal: AbortSignal;
}

/**
 * An SDK client for one tool call, aborted with it (`signal`), telling a fetch that never
 * reached Loupe from a refusal by Loupe.
 */
function openCall(connection: ClientOptions, signal: AbortSignal): Call {
  const base = connection.fetch ?? globalThis.fetch.bind(globalThis);
  const fetch: typeof globalThis.fetch = async (input, init) => {
    try {
      return await base(input, init);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new RequestFailed(error instanceof Error ? `${error.message}${causeOf(error)}` : String(error), { cause: error });
    }
  };
  return { client: createClient({ ...connection, fetch }), signal };
}

/** An SDK client for a tool of the MCP layer's own; its failures are answered by `failureResult`. */
export function openClient(connection: ClientOptions, signal: AbortSignal): LoupeClient {
  return openCall(connection, signal).client;
}

/** A tool error for what a call to Loupe threw (its refusal, or Loupe not reached); undefined for a bug. */
export function failureResult(error: unknown, connection: ClientOptions): CallToolResult | undefined {
  if (error instanceof LoupeError) return toolError(error.toBody());
  const failed = findCause(error, RequestFailed);
  if (failed) return toolError({ error: `Loupe could not be reached at ${connection.baseUrl}: ${failed.message}`, code: 'request_failed' });
  return undefined;
}

function causeOf(error: Error): string {
  return error.cause instanceof Error ? ` (${error.cause.message})` : '';
}

interface ToolArguments {
  /** In the SDK's request shape: path parameters and query flattened, the JSON body under `body`. */
  request: Record<string, unknown>;
  workspaceId?: string;
  maxCredits?: number;
  waitSeconds: number;
  upload?: { file: string; filename: string; contentType?: string; fields?: Record<string, unknown> };
  /** The arguments of the tool's answer view. */
  viewArguments: Record<string, unknown>;
}

/**
 * Checks here only what the API cannot: unknown arguments (the SDK would drop them silently),
 * path parameters (there is no URL without them) and the MCP-only fields; everything else is
 * the API's to validate, so its error body comes back as it is.
 */
function readArguments(tool: McpTool, args: Record<string, unknown>): ToolArguments {
  const { operation } = tool;
  const mcpOnly = [...mcpOnlyFieldNames(operation), ...Object.keys(tool.view?.fields ?? {})];
  const checked = new Set([...Object.keys(operation.params?.shape ?? {}), ...mcpOnly]);
  const shape = Object.fromEntries(
    Object.entries(tool.input.shape).map(([name, field]) => [name, checked.has(name) ? field : z.unknown().optional()]),
  );
  const parsed = parseOrThrow(z.strictObject(shape), args) as Record<string, unknown>;
  if (operation.upload && (parsed.upload === undefined) === (parsed.body === undefined)) {
    throw new LoupeError('validation_failed', {
      details: { fieldErrors: {}, formErrors: ['Send either upload (a file, base64) or body (a URL to import), not both.'] },
    });
  }
  const request = Object.fromEntries(Object.entries(parsed).filter(([name]) => !mcpOnly.includes(name)));
  return {
    request,
    workspaceId: parsed.workspaceId as string | undefined,
    maxCredits: parsed.maxCredits as number | undefined,
    waitSeconds: (parsed.waitSeconds as number | undefined) ?? DEFAULT_WAIT_SECONDS,
    upload: parsed.upload as ToolArguments['upload'],
    viewArguments: Object.fromEntries(Object.keys(tool.view?.fields ?? {}).map((name) => [name, parsed[name]])),
  };
}

type Method = (request: Record<string, unknown>, options: { signal: AbortSignal }) => Promise<unknown>;

/** Calls the operation's SDK method, by id: the tools are as generic as the registry. */
function send(call: Call, operationId: string, request: Record<string, unknown>): Promise<unknown> {
  return (call.client as unknown as Record<string, Method>)[operationId](request, { signal: call.signal });
}

/** One page of a paged operation and the cursor of the next. */
function sendForPage(call: Call, operationId: string, request: Record<string, unknown>): Promise<unknown> {
  return (call.client.page as unknown as Record<string, Method>)[operationId](request, { signal: call.signal });
}

/**
 * The events of a crawl until it ends or `waitSeconds` pass, whichever is first: a tool call
 * must answer, and a crawl can run for hours.
 */
async function collectEvents(tool: McpTool, connection: ClientOptions, args: ToolArguments, signal: AbortSignal): Promise<CallToolResult> {
  const wait = AbortSignal.timeout(args.waitSeconds * 1000);
  const call = openCall(connection, AbortSignal.any([signal, wait]));
  const events: unknown[] = [];
  try {
    const stream = (await send(call, tool.operation.id, args.request)) as AsyncIterable<unknown>;
    for await (const event of stream) events.push(event);
    return toolSuccess({ events, ended: true });
  } catch (error) {
    if (wait.aborted && !signal.aborted && !(error instanceof LoupeError)) return toolSuccess({ events, ended: false });
    throw error;
  }
}

async function invoke(tool: McpTool, connection: ClientOptions, args: ToolArguments, signal: AbortSignal): Promise<CallToolResult> {
  const { operation } = tool;
  if (operation.stream) return collectEvents(tool, connection, args, signal);
  const call = openCall(connection, signal);
  if (args.maxCredits !== undefined) {
    const refusal = await refuseOverBudget(operation, args.request, args.maxCredits, call.client);
    if (refusal) return toolError(refusal);
  }
  const request = args.upload
    ? {
        ...args.request,
        upload: {
          file: new Uint8Array(Buffer.from(args.upload.file, 'base64')),
          filename: args.upload.filename,
          contentType: args.upload.contentType,
          fields: args.upload.fields ?? {},
        },
      }
    : args.request;
  if (operation.paged) return toolSuccess((await sendForPage(call, operation.id, request)) as Record<string, unknown>);
  const answer = await send(call, operation.id, request);
  if (tool.view) return toolSuccess(tool.view.answer(answer, args.viewArguments));
  if (operation.download && answer instanceof Uint8Array) return toolImage(answer, operation.download.contentTypes[0] as string);
  if (operation.download) return toolText(typeof answer === 'string' ? answer : JSON.stringify(answer));
  if (answersArray(operation)) return toolSuccess({ items: answer });
  return toolSuccess(answer as Record<string, unknown>);
}

/**
 * Calls a tool's operation through the SDK client. The API's refusals come back as tool
 * errors carrying its error body; so do the MCP layer's own (`max_credits_exceeded`, and
 * `request_failed` when Loupe could not be reached).
 */
export async function callTool(
  tool: McpTool,
  args: Record<string, unknown>,
  connection: ClientOptions,
  signal: AbortSignal,
): Promise<CallToolResult> {
  try {
    const read = readArguments(tool, args);
    if (!needsWorkspace(tool.operation)) return await invoke(tool, connection, read, signal);
    const choice = await chooseWorkspace(read.workspaceId, connection.workspaceId, openCall(connection, signal).client, signal);
    if ('refusal' in choice) return toolError(choice.refusal);
    return await invoke(tool, { ...connection, workspaceId: choice.workspaceId }, read, signal);
  } catch (error) {
    const result = failureResult(error, connection);
    if (result) return result;
    throw error;
  }
}

function findCause<E extends Error>(error: unknown, type: new (...args: never[]) => E): E | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof type) return current;
  }
  return undefined;
}
