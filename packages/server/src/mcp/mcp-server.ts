import { readFileSync } from 'node:fs';
import { parseOrThrow } from '@loupe/contract';
import type { ClientOptions } from '@loupe/sdk';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { LocalTool, ServedTool } from './mcp-tools.ts';
import { callTool, failureResult } from './tool-call.ts';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const instructions = [
  'Loupe stores images and delivers them through named transform presets on a CDN path (the image tools act in the workspace of the API key),',
  'and crawls and audits web sites in a workspace: the only one you are in, else the one the connection names, else the workspaceId you pass (list_workspaces lists yours).',
  'Crawls cost one credit per page crawled (get_credits shows the balance): start_crawl and start_project_crawl take maxCredits as a guard;',
  'poll get_crawl until the crawl ends, then read get_report with its reportId.',
  'This connection lists some toolsets only: list_toolsets names the others and how to choose them.',
  "A failed call is a tool error whose text is the API's JSON error body: { error, code, details? }.",
].join(' ');

function listing(tool: ServedTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    annotations: tool.annotations,
  };
}

/** Runs a tool of the MCP layer's own, its arguments checked as the API checks an operation's. */
async function runLocal(
  tool: LocalTool,
  args: Record<string, unknown>,
  connection: ClientOptions,
  signal: AbortSignal,
): Promise<CallToolResult> {
  try {
    return await tool.run(parseOrThrow(tool.input, args) as Record<string, unknown>, { connection, signal });
  } catch (error) {
    const result = failureResult(error, connection);
    if (result) return result;
    throw error;
  }
}

/**
 * The SDK's Server, except that a request whose params its method's schema refuses is answered
 * -32602 Invalid params, as JSON-RPC has it, not -32603 Internal error (the SDK parses them
 * before any handler and lets the failure through as an exception: typescript-sdk#2284). Each
 * handler, the SDK's own (initialize) too, is registered under a schema of its method alone,
 * and checks the method's schema itself.
 */
class ParamsCheckingServer extends Server {
  override setRequestHandler(...[schema, handler]: Parameters<Server['setRequestHandler']>): void {
    const method = (schema as unknown as z.ZodObject<{ method: z.ZodLiteral<string> }>).shape.method;
    super.setRequestHandler(z.looseObject({ method }), (request, extra) => {
      const checked = (schema as unknown as z.ZodType).safeParse(request);
      if (!checked.success)
        throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method.value}: ${z.prettifyError(checked.error)}`);
      return handler(checked.data as never, extra);
    });
  }
}

/**
 * An MCP server offering the tools, each calling the API through the SDK client made from
 * `connection`. It is the SDK's low-level `Server` rather than `McpServer` because McpServer
 * validates arguments itself, with its own messages: here the API validates them, so a caller
 * gets the API's error body, and the tools are listed with the contract's JSON Schemas as is.
 */
export function createMcpServer(tools: readonly ServedTool[], connection: ClientOptions): Server {
  const server = new ParamsCheckingServer({ name: 'loupe', title: 'Loupe', version }, { capabilities: { tools: {} }, instructions });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = tools.map(listing);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `There is no tool ${request.params.name} on this connection; tools/list names them, list_toolsets names the toolsets that hold the others.`,
      );
    }
    const args = request.params.arguments ?? {};
    return 'run' in tool ? runLocal(tool, args, connection, extra.signal) : callTool(tool, args, connection, extra.signal);
  });
  return server;
}
