import { type OperationDefinition, operations } from '@loupe/contract';
import type { ClientOptions } from '@loupe/sdk';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { inAgentWords } from './agent-wording.ts';
import { type AnswerView, answerViews } from './answer-views.ts';
import { DEFAULT_WAIT_SECONDS, type JsonObjectSchema, toJsonObjectSchema, toolInputSchema, toolOutputSchema } from './tool-schemas.ts';
import { toolsetOf } from './toolsets.ts';

/** One MCP tool, derived from one registry operation. */
export interface McpTool {
  name: string;
  operation: OperationDefinition;
  title: string;
  description: string;
  /** The arguments as zod (the contract's schemas plus the MCP-only fields). */
  input: z.ZodObject;
  inputSchema: JsonObjectSchema;
  outputSchema?: JsonObjectSchema;
  annotations: ToolAnnotations;
  toolset: string;
  /** Answers part of the operation's answer, with arguments of its own. */
  view?: AnswerView;
}

/** A tool of the MCP layer's own, with no operation behind it (listing toolsets, building a CDN URL). */
export interface LocalTool extends Omit<McpTool, 'operation'> {
  /** Called with the arguments once `input` accepted them. */
  run(args: Record<string, unknown>, context: { connection: ClientOptions; signal: AbortSignal }): Promise<CallToolResult>;
}

export type ServedTool = McpTool | LocalTool;

export interface McpToolOptions {
  /** The largest file `upload_image` takes, as the server's LOUPE_MAX_UPLOAD_BYTES. */
  maxUploadBytes: number;
}

/** Tools named in an agent's words where the operation's name is the API's (a team is a workspace). */
const renamed: Record<string, string> = { listTeams: 'list_workspaces' };

/** `startProjectCrawl` → `start_project_crawl` */
export function toolName(operationId: string): string {
  return renamed[operationId] ?? operationId.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

const toolNames = new Map<string, string>(operations.map((operation) => [operation.id, toolName(operation.id)]));

/** Operation ids named in a description (`Next: getCrawl`) become the tool names an agent calls. */
function withToolNames(text: string): string {
  return text.replace(/\b[a-z]+(?:[A-Z][a-z]*)+\b/g, (word) => toolNames.get(word) ?? word);
}

/**
 * What the operation's own description does not say about calling it as a tool: what it costs
 * when the description is silent (only `spendsCredits` operations spend credits), and how the
 * answer differs from the REST one (pages, the bounded event wait, files as text or base64).
 */
function toolNotes(operation: OperationDefinition, options: McpToolOptions): string[] {
  const notes: string[] = [];
  if (!operation.spendsCredits && !/\b(credits?|free|costs?)\b/i.test(operation.description)) notes.push('Spends no credits.');
  if (operation.spendsCredits) {
    notes.push(
      'Pass maxCredits to refuse a crawl that could reserve more than that: nothing starts, and the tool error max_credits_exceeded carries the estimate.',
    );
  }
  if (operation.paged)
    notes.push('Answers one page as { items, nextCursor }: pass nextCursor as cursor for the next page (null on the last).');
  if (operation.stream) {
    notes.push(
      `Answers { events, ended } with the events received until the crawl ends or waitSeconds (default ${DEFAULT_WAIT_SECONDS}) pass; when ended is false, call it again or poll get_crawl.`,
    );
  }
  if (operation.download) {
    notes.push(
      operation.download.contentTypes.every((type) => type.startsWith('image/')) ? 'Answers the image.' : "Answers the file's text.",
    );
  }
  if (operation.upload) {
    notes.push(
      `Over MCP, send the file as upload { file (base64, at most ${options.maxUploadBytes} bytes decoded), filename, contentType?, fields? }, or body { url, path? } to import it.`,
    );
  }
  return notes;
}

function annotations(operation: OperationDefinition): ToolAnnotations {
  return {
    title: operation.summary,
    readOnlyHint: operation.method === 'GET',
    destructiveHint: operation.method === 'DELETE' || operation.method === 'PUT',
    idempotentHint: operation.method !== 'POST' && operation.method !== 'PATCH',
    // Only crawls and URL imports reach outside Loupe.
    openWorldHint: operation.spendsCredits === true || operation.upload !== undefined,
  };
}

function toolFor(operation: OperationDefinition, options: McpToolOptions, view?: AnswerView): McpTool {
  const input = view
    ? toolInputSchema(operation, options.maxUploadBytes).extend(view.fields)
    : toolInputSchema(operation, options.maxUploadBytes);
  const output = view ? view.output : toolOutputSchema(operation);
  const [title, description] = view ? [view.title, view.description] : [operation.summary, operation.description];
  return {
    name: view?.name ?? toolName(operation.id),
    operation,
    title,
    description: withToolNames(inAgentWords([`${title}.`, description, ...toolNotes(operation, options)].join(' '))),
    input,
    inputSchema: toJsonObjectSchema(input, 'input'),
    ...(output ? { outputSchema: toJsonObjectSchema(output, 'output') } : {}),
    annotations: { ...annotations(operation), title },
    toolset: toolsetOf(operation),
    ...(view ? { view } : {}),
  };
}

/**
 * One tool per registry operation, in the registry's order: the operation's answer, or the view
 * named after it (get_report answers a summary); then the views beside their operation's tool.
 */
export function mcpTools(options: McpToolOptions): McpTool[] {
  const tools = (operations as readonly OperationDefinition[]).map((operation) =>
    toolFor(
      operation,
      options,
      answerViews.find((view) => view.operationId === operation.id && view.name === toolName(operation.id)),
    ),
  );
  const beside = answerViews.filter((view) => !tools.some((tool) => tool.name === view.name));
  return [
    ...tools,
    ...beside.map((view) =>
      toolFor(operations.find((operation) => operation.id === view.operationId) as OperationDefinition, options, view),
    ),
  ];
}
