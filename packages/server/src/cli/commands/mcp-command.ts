import type { Command } from 'commander';
import { resolveClientConfig } from '../client-config.ts';
import { exitCodeFor } from '../exit-codes.ts';
import { errorBody } from '../output.ts';

/**
 * `loupe mcp`: an MCP server on stdin/stdout for agents that start tools as processes,
 * calling a Loupe server through the SDK. Stdout carries the protocol and nothing else, so
 * problems go to stderr.
 */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Serve MCP over stdin/stdout for agents, until stdin closes.')
    .option('--url <url>', 'the Loupe server (env LOUPE_URL; default http://localhost:8080)')
    .option('--key <key>', 'API key, loupe_… (env LOUPE_API_KEY)')
    .option(
      '--workspace <id>',
      "the workspace tools act in when none is passed; needed only when the key's user is in several (env LOUPE_WORKSPACE)",
    )
    .option('--toolsets <names>', 'toolsets to list, comma-separated, or all (env LOUPE_MCP_TOOLSETS; default images,crawls,reports)')
    .option('--config <file>', 'config file (env LOUPE_CONFIG; default ~/.config/loupe/config.json)')
    .action(async (options: { url?: string; key?: string; workspace?: string; toolsets?: string; config?: string }) => {
      try {
        const { toolsets = process.env.LOUPE_MCP_TOOLSETS, ...connection } = options;
        const config = resolveClientConfig(connection);
        // Loaded here so the other commands do not load the MCP SDK.
        const { runMcpStdio } = await import('../../mcp/mcp-stdio.ts');
        await runMcpStdio(config, { toolsets });
      } catch (error) {
        process.stderr.write(`loupe mcp: ${errorBody(error).error}\n`);
        process.exitCode = exitCodeFor(error);
      }
    });
}
