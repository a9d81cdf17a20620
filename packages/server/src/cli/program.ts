import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerAdminCommand } from './commands/admin-command.ts';
import { registerAlertsCommand } from './commands/alerts-command.ts';
import { registerAuditProjectsCommand } from './commands/audit-projects-command.ts';
import { registerCallCommand } from './commands/call-command.ts';
import { registerCrawlCommand } from './commands/crawl-command.ts';
import { registerDiffCommand } from './commands/diff-command.ts';
import { registerImagesCommand } from './commands/images-command.ts';
import { registerInitCommand } from './commands/init-command.ts';
import { registerKeysCommand } from './commands/keys-command.ts';
import { registerMcpCommand } from './commands/mcp-command.ts';
import { registerPresetsCommand } from './commands/presets-command.ts';
import { registerProjectsCommand } from './commands/projects-command.ts';
import { registerReportsCommand } from './commands/reports-command.ts';
import { registerRulePacksCommand } from './commands/rule-packs-command.ts';
import { registerSchedulesCommand } from './commands/schedules-command.ts';
import { registerSearchCommand } from './commands/search-command.ts';
import { registerServeCommands } from './commands/serve-command.ts';
import { registerTeamCommand } from './commands/team-command.ts';
import { registerUrlCommand } from './commands/url-command.ts';
import { exitCodesHelp } from './exit-codes.ts';

const configHelp = `
User commands call a Loupe server with an API key. Each setting is taken from its flag, else
the environment, else the config file (JSON: {"url": …, "key": …, "workspace": …}):
  --url        LOUPE_URL        default http://localhost:8080
  --key        LOUPE_API_KEY
  --workspace  LOUPE_WORKSPACE  default: the key's user's only workspace
  --config     LOUPE_CONFIG     default ~/.config/loupe/config.json
Operator commands read the server's own environment (DESIGN.md §3, README), and a .env file.`;

/**
 * A usage error (unknown option, missing argument) as the API's error body when --json was
 * asked for, so a script reads every failure the same way.
 */
function writeUsageError(message: string, write: (text: string) => void): void {
  if (!process.argv.includes('--json')) return write(message);
  const text = message.split('\n')[0]!.replace(/^error: /, '');
  write(`${JSON.stringify({ error: text, code: 'validation_failed' })}\n`);
}

/** The server package's version, as `loupe --version` prints it. */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

/** The whole `loupe` command tree; cli.ts parses the process's arguments with it. */
export function createProgram(): Command {
  const program = new Command('loupe')
    .description('Loupe: image CDN with transform presets, and site audits.')
    .version(packageVersion(), '-V, --version', 'print the version of Loupe')
    // Usage errors throw instead of exiting, so cli.ts can give them exit code 2.
    .exitOverride()
    .configureOutput({ outputError: writeUsageError })
    .showSuggestionAfterError()
    .addHelpText('after', `${configHelp}\n${exitCodesHelp}`);

  program.commandsGroup('Run an instance:');
  registerServeCommands(program);
  registerInitCommand(program);
  registerAdminCommand(program);
  registerMcpCommand(program);

  program.commandsGroup('Images:');
  registerProjectsCommand(program);
  registerPresetsCommand(program);
  registerImagesCommand(program);
  registerUrlCommand(program);

  program.commandsGroup('Audits:');
  registerAuditProjectsCommand(program);
  registerCrawlCommand(program);
  registerReportsCommand(program);
  registerDiffCommand(program);
  registerSearchCommand(program);
  registerSchedulesCommand(program);
  registerAlertsCommand(program);
  registerRulePacksCommand(program);

  program.commandsGroup('Workspace:');
  registerTeamCommand(program);
  registerKeysCommand(program);

  program.commandsGroup('Anything else:');
  registerCallCommand(program);
  return program;
}
