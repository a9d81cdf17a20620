import { z } from 'zod';
import type { LocalTool, ServedTool } from './mcp-tools.ts';
import { toolSuccess } from './tool-result.ts';
import { toJsonObjectSchema } from './tool-schemas.ts';
import { CORE_TOOLSET, toolsets } from './toolsets.ts';

const Output = z.object({
  toolsets: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      tools: z.array(z.string()).describe('Its tools, by name.'),
      listed: z.boolean().describe('Whether this connection lists its tools.'),
    }),
  ),
  howToChoose: z.string(),
});

/**
 * `list_toolsets`: every toolset with its tools, and which ones this connection lists, so an
 * agent can tell its user how to configure the others.
 */
export function listToolsetsTool(all: readonly ServedTool[], chosen: readonly string[]): LocalTool {
  const input = z.strictObject({});
  const answer = {
    toolsets: toolsets.map((toolset) => ({
      name: toolset.name,
      description: toolset.description,
      tools: all.filter((tool) => tool.toolset === toolset.name).map((tool) => tool.name),
      listed: chosen.includes(toolset.name),
    })),
    howToChoose:
      'The toolsets are chosen when the client connects: `loupe mcp --toolsets images,crawls,reports` (or all), or /mcp?toolsets=images,crawls,reports on the HTTP endpoint. Tools not listed cannot be called on this connection.',
  };
  return {
    name: 'list_toolsets',
    title: 'List toolsets',
    description:
      'Lists the groups of Loupe tools (images, crawls, reports, audits, rules, team…) with their tools and which this connection offers, and how to offer others. Spends no credits.',
    input,
    inputSchema: toJsonObjectSchema(input, 'input'),
    outputSchema: toJsonObjectSchema(Output, 'output'),
    annotations: { title: 'List toolsets', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    toolset: CORE_TOOLSET,
    run: async () => toolSuccess(answer),
  };
}
