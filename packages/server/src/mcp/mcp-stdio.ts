import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig } from '../config.ts';
import { createMcpServer } from './mcp-server.ts';
import { servedTools } from './served-tools.ts';
import { chosenToolsets } from './toolsets.ts';

/** The server's default upload limit, as the tools describe it; a server with a lower one answers 413 itself. */
const { maxUploadBytes } = loadConfig({});

/**
 * Serves MCP over stdin/stdout (`loupe mcp`), calling the Loupe server at `baseUrl` through
 * the SDK with the key (and workspace, for the workspace API) given, until stdin closes. It
 * lists the tools of the toolsets named (comma-separated; the default ones when none).
 * Nothing else may write to stdout: it carries the protocol.
 */
export async function runMcpStdio(
  config: { baseUrl: string; apiKey: string; workspaceId?: string },
  options: { toolsets?: string } = {},
): Promise<void> {
  const server = createMcpServer(servedTools({ maxUploadBytes }, chosenToolsets(options.toolsets)), config);
  const transport = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await server.connect(transport);
  await ended;
  await server.close();
}
