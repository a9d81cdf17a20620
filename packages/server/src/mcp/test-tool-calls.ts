import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

function textOf(result: CallToolResult): string {
  const [first] = result.content;
  assert.equal(first?.type, 'text');
  return first.text;
}

/** Calls a tool that must succeed; answers its structured content (checked by the client against the tool's output schema). */
export async function callOk(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.notEqual(result.isError, true, `${name} failed: ${result.isError ? textOf(result) : ''}`);
  assert.ok(result.structuredContent, `${name} answered no structured content`);
  assert.deepEqual(JSON.parse(textOf(result)), result.structuredContent);
  return result.structuredContent;
}

/** Calls a tool that must answer a tool error; answers the error body its text carries. */
export async function callError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.equal(result.isError, true, `${name} succeeded: ${JSON.stringify(result.structuredContent)}`);
  return JSON.parse(textOf(result));
}

/** Calls a tool answering a file (a download); answers its text. */
export async function callText(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.notEqual(result.isError, true, `${name} failed: ${result.isError ? textOf(result) : ''}`);
  return textOf(result);
}
