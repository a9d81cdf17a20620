import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { LoupeError } from '@loupe/contract';
import { z } from 'zod';

/** The connection flags every user command (and `loupe mcp`) takes. */
export interface ClientConfigFlags {
  url?: string;
  key?: string;
  workspace?: string;
  config?: string;
}

/** Where and as whom the CLI calls a Loupe server. */
export interface ClientConfig {
  baseUrl: string;
  apiKey: string;
  workspaceId?: string;
}

export const DEFAULT_SERVER_URL = 'http://localhost:8080';

/** The config file: the same three settings as the flags, by the flags' names. */
const ConfigFile = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).optional(),
  key: z.string().min(1).optional(),
  workspace: z.string().min(1).optional(),
});
type ConfigFile = z.infer<typeof ConfigFile>;

type Env = Record<string, string | undefined>;

/** `--config`, then LOUPE_CONFIG, then `$XDG_CONFIG_HOME/loupe/config.json` (`~/.config/…`). */
export function configFilePath(flags: ClientConfigFlags, env: Env = process.env): { path: string; explicit: boolean } {
  const given = nonEmpty(flags.config) ?? nonEmpty(env.LOUPE_CONFIG);
  if (given) return { path: given, explicit: true };
  const configHome = nonEmpty(env.XDG_CONFIG_HOME) ?? join(nonEmpty(env.HOME) ?? homedir(), '.config');
  return { path: join(configHome, 'loupe', 'config.json'), explicit: false };
}

/**
 * The server, key and workspace from flags, then the environment (LOUPE_URL, LOUPE_API_KEY,
 * LOUPE_WORKSPACE), then the config file; the key may be missing (a CDN URL needs none).
 * A config file named explicitly must exist; the default one may not.
 */
export function resolveClientSettings(flags: ClientConfigFlags, env: Env = process.env): Partial<ClientConfig> & { baseUrl: string } {
  const file = readConfigFile(configFilePath(flags, env));
  const baseUrl = nonEmpty(flags.url) ?? nonEmpty(env.LOUPE_URL) ?? file.url ?? DEFAULT_SERVER_URL;
  if (!z.url({ protocol: /^https?$/ }).safeParse(baseUrl).success) {
    throw invalid('url', `Not an http(s) URL: ${baseUrl}`);
  }
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: nonEmpty(flags.key) ?? nonEmpty(env.LOUPE_API_KEY) ?? file.key,
    workspaceId: nonEmpty(flags.workspace) ?? nonEmpty(env.LOUPE_WORKSPACE) ?? file.workspace,
  };
}

/** As resolveClientSettings, for callers that need a key: without one, an `unauthorized` LoupeError. */
export function resolveClientConfig(flags: ClientConfigFlags, env: Env = process.env): ClientConfig {
  const settings = resolveClientSettings(flags, env);
  if (!settings.apiKey) {
    throw new LoupeError('unauthorized', {
      message: `No API key: pass --key, set LOUPE_API_KEY, or put "key" in ${configFilePath(flags, env).path}.`,
    });
  }
  return {
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    ...(settings.workspaceId ? { workspaceId: settings.workspaceId } : {}),
  };
}

function readConfigFile(file: { path: string; explicit: boolean }): ConfigFile {
  if (!file.explicit && !existsSync(file.path)) return {};
  let text: string;
  try {
    text = readFileSync(file.path, 'utf8');
  } catch (error) {
    throw invalid('config', `Cannot read the config file ${file.path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalid('config', `The config file ${file.path} is not valid JSON.`);
  }
  const parsed = ConfigFile.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`);
    throw invalid('config', `The config file ${file.path} is not valid: ${problems.join('; ')}`);
  }
  return parsed.data;
}

function invalid(field: string, message: string): LoupeError {
  return new LoupeError('validation_failed', { message, details: { fieldErrors: { [field]: [message] }, formErrors: [] } });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
