import { cdnUrlTool } from './cdn-url-tool.ts';
import { listToolsetsTool } from './list-toolsets-tool.ts';
import { type McpToolOptions, mcpTools, type ServedTool } from './mcp-tools.ts';
import { CORE_TOOLSET } from './toolsets.ts';

/** The tools a connection lists: those of the chosen toolsets and the core ones, list_toolsets included. */
export function servedTools(options: McpToolOptions, chosen: readonly string[]): ServedTool[] {
  const all: ServedTool[] = [...mcpTools(options), cdnUrlTool()];
  const listed = all.filter((tool) => tool.toolset === CORE_TOOLSET || chosen.includes(tool.toolset));
  return [...listed, listToolsetsTool(all, chosen)];
}
