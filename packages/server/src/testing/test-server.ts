import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role } from '@loupe/contract';
import { pino } from 'pino';
import { type Config, loadConfig } from '../config.ts';
import type { PlanLimits } from '../plans/plans.ts';
import { addMember, issueKey, provisionWorkspace } from '../provisioning/provisioning.ts';
import { type RunningServer, startServer } from '../server.ts';
import { createServerSchema } from './test-database.ts';
import type { Dialect } from './test-dialects.ts';

export interface HttpAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Defaults to the bootstrap owner's key; null sends no Authorization header. */
  key?: string | null;
  /** The x-service-team header; defaults to the bootstrap workspace on /api/v1 paths. */
  team?: string | null;
  headers?: Record<string, string>;
}

export interface TestWorkspace {
  workspaceId: string;
  userId: string;
  /** An owner key of this workspace. */
  key: string;
}

/** A real Loupe server on a loopback port, on a fresh database, for one test suite. */
export interface TestServer {
  url: string;
  /** The server's LOUPE_DATA_DIR (a temporary folder). */
  dataDir: string;
  server: RunningServer;
  /** The bootstrap workspace and its owner key. */
  owner: TestWorkspace;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<HttpAnswer<T>>;
  /** Another workspace with its own owner (for isolation tests). */
  createWorkspace(options?: { plan?: string }): Promise<TestWorkspace>;
  /** A new member of a workspace with this role, and a key of theirs. */
  createMemberKey(workspaceId: string, role: Role, options?: { expiresAt?: string }): Promise<string>;
  close(): Promise<void>;
}

/**
 * The path and query of an answer's `Link: <…>; rel="next"` header (absolute, on the public
 * URL, whatever port the test server has), or undefined on the last page.
 */
export function nextPage(answer: HttpAnswer): string | undefined {
  const link = answer.headers.get('link');
  if (link === null) return undefined;
  const match = /^<(https?:\/\/[^>]+)>; rel="next"$/.exec(link);
  if (!match) throw new Error(`unexpected Link header (not an absolute URL?): ${link}`);
  const url = new URL(match[1] as string);
  return `${url.pathname}${url.search}`;
}

/** Configuration for a test server; `plans` replaces the plan table (written into its data dir, removed with it). */
export type TestServerOptions = Partial<Config> & { plans?: Record<string, PlanLimits> };

export async function startTestServer(dialect: Dialect, options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'loupe-test-'));
  const { plans, ...overrides } = options;
  if (plans) {
    overrides.plansFile = join(dataDir, 'plans.json');
    await writeFile(overrides.plansFile, JSON.stringify(plans));
  }
  const postgres = dialect === 'postgres' ? await createServerSchema(process.env.TEST_DATABASE_URL as string) : undefined;
  const bootstrapKey = `loupe_${randomBytes(24).toString('base64url')}`;
  const config: Config = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: postgres ? process.env.TEST_DATABASE_URL : undefined,
    databaseSchema: postgres?.schema,
    bootstrapKey,
    // Tests check the URLs answered against this, whatever port the server got.
    publicUrl: 'http://localhost:8080',
    // The plan whose limits and 402s most tests exercise; tests of the self-hosted plan ask for it.
    defaultPlan: 'free',
    logLevel: 'silent',
    validateResponses: true,
    ...overrides,
  };
  const server = await startServer(config, pino({ level: process.env.LOUPE_TEST_LOG ?? 'silent' }));
  if (!server.bootstrapped) throw new Error('a fresh test database was not bootstrapped');
  const owner = { workspaceId: server.bootstrapped.workspaceId, userId: server.bootstrapped.userId, key: bootstrapKey };
  let members = 0;

  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<HttpAnswer> => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? owner.key : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    const team = options.team === undefined && path.startsWith('/api/v1/') ? owner.workspaceId : options.team;
    if (team) headers['x-service-team'] = team;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(server.url + path, { method, headers, body });
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.includes('json');
    return { status: response.status, headers: response.headers, body: isJson && text ? JSON.parse(text) : text };
  };

  return {
    url: server.url,
    dataDir,
    server,
    owner,
    request,
    async createWorkspace(options = {}) {
      const email = `owner-${randomBytes(4).toString('hex')}@example.test`;
      const { workspaceId, userId } = await provisionWorkspace(server.database, server.plans, {
        name: 'Other',
        plan: options.plan ?? 'free',
        ownerEmail: email,
      });
      const { secret } = await issueKey(server.database, { workspaceId, userId, role: 'owner', name: 'test' });
      return { workspaceId, userId, key: secret };
    },
    async createMemberKey(workspaceId, role, options = {}) {
      const email = `${role}-${++members}-${randomBytes(3).toString('hex')}@example.test`;
      const userId = await addMember(server.database, { workspaceId, email, role });
      const { secret } = await issueKey(server.database, {
        workspaceId,
        userId,
        role,
        name: `${role} key`,
        expiresAt: options.expiresAt,
      });
      return secret;
    },
    async close() {
      await server.close();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
