import type { ErrorBody } from '@loupe/contract';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * Codes of refusals the MCP layer makes itself, never answered by the API (so not in its
 * catalogue): the maxCredits guard, a workspace tool called with no workspace while the caller
 * is in several, and a call that never got an answer from Loupe.
 */
export const mcpOnlyErrorCodes = ['max_credits_exceeded', 'workspace_required', 'request_failed'] as const;
export type McpOnlyErrorCode = (typeof mcpOnlyErrorCodes)[number];

export type ToolErrorBody = ErrorBody | { error: string; code: McpOnlyErrorCode; [extra: string]: unknown };

/** A structured answer, also serialized as text for clients that read only text content. */
export function toolSuccess(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

export function toolText(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/** An image answer (a page's screenshot), as MCP's image content. */
export function toolImage(bytes: Uint8Array, mimeType: string): CallToolResult {
  return { content: [{ type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType }] };
}

/**
 * A tool error whose text is the error body (the API's own `{ error, code, details?, … }`).
 * It carries no structuredContent: clients check structuredContent against the tool's output
 * schema even on errors, and an error body would never match it.
 */
export function toolError(body: ToolErrorBody): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}
