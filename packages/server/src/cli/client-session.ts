import { LoupeError } from '@loupe/contract';
import { createClient, type LoupeClient, type RetryNotice } from '@loupe/sdk';
import { type ClientConfig, type ClientConfigFlags, resolveClientConfig, resolveClientSettings } from './client-config.ts';

/**
 * The SDK client of one user command, made on first use from the resolved configuration.
 * A workspace API call without a configured workspace uses the caller's only workspace
 * (GET /api/v1/teams needs no x-service-team header), so a single-workspace user never has
 * to look up its id.
 */
export class ClientSession {
  readonly #flags: ClientConfigFlags;
  readonly #onRetry: ((retry: RetryNotice) => void) | undefined;
  #config: ClientConfig | undefined;
  #client: LoupeClient | undefined;
  #workspaceClient: Promise<LoupeClient> | undefined;

  constructor(flags: ClientConfigFlags, options: { onRetry?: (retry: RetryNotice) => void } = {}) {
    this.#flags = flags;
    this.#onRetry = options.onRetry;
  }

  /** The server's origin, whether or not a key is configured. */
  get baseUrl(): string {
    return this.#config?.baseUrl ?? resolveClientSettings(this.#flags).baseUrl;
  }

  /** Settings that may lack a key (for commands that can work without one). */
  settings(): ReturnType<typeof resolveClientSettings> {
    return resolveClientSettings(this.#flags);
  }

  /** A client for the image API (the key's own workspace). */
  client(): LoupeClient {
    this.#config ??= resolveClientConfig(this.#flags);
    this.#client ??= this.#create(this.#config);
    return this.#client;
  }

  /** A client for the workspace API: with the configured workspace, or the caller's only one. */
  workspaceClient(): Promise<LoupeClient> {
    this.#workspaceClient ??= this.#findWorkspace();
    return this.#workspaceClient;
  }

  async #findWorkspace(): Promise<LoupeClient> {
    const client = this.client();
    const config = this.#config!;
    if (config.workspaceId) return client;
    const teams = await client.listTeams({ limit: 100 });
    if (teams.length !== 1) {
      const ids = teams.map((team) => `${team.id} (${team.name})`).join(', ');
      const message =
        teams.length === 0
          ? "This key's user belongs to no workspace."
          : `This key's user belongs to ${teams.length} workspaces: pass --workspace or set LOUPE_WORKSPACE to one of ${ids}.`;
      throw new LoupeError('team_header_required', { message });
    }
    return this.#create({ ...config, workspaceId: teams[0]!.id });
  }

  #create(config: ClientConfig): LoupeClient {
    return createClient({ ...config, fetch: reachable(config.baseUrl), onRetry: this.#onRetry });
  }
}

/** fetch, with "connection refused" and the like told as the server being unreachable. */
function reachable(baseUrl: string): typeof fetch {
  return async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (error) {
      if (error instanceof Error && error.name === 'AbortError') throw error;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new LoupeError('not_ready', {
        message: `Cannot reach the Loupe server at ${baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}. Is it running? (--url, LOUPE_URL)`,
      });
    }
  };
}
