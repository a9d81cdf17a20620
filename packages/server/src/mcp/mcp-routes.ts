import { type OperationDefinition, operations } from '@loupe/contract';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkBeforeBody } from '../http/check-before-body.ts';
import type { Authenticator } from '../identity/authenticator.ts';
import { bearerSecret } from '../identity/bearer-secret.ts';
import { injectFetch } from './inject-fetch.ts';
import { createMcpServer } from './mcp-server.ts';
import { servedTools } from './served-tools.ts';
import { chosenToolsets } from './toolsets.ts';

/** Any valid key may list its own workspaces: authenticating for it checks the key and nothing else. */
const keyCheck = operations.find((operation) => operation.id === 'listTeams') as OperationDefinition;

/** Room for JSON-RPC around an upload's file, which travels as base64 (4 characters per 3 bytes). */
const ENVELOPE_BYTES = 1024 * 1024;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * MCP over Streamable HTTP at /mcp (DESIGN.md §4), stateless: each POST gets its own server
 * and transport, so any process behind a load balancer can answer any message. The caller's
 * key and the `?toolsets=` chosen are checked at the door, before the body is read (401 with `WWW-Authenticate: Bearer`,
 * 400 for an unknown toolset); the tools then call the API in-process as that key.
 */
export function registerMcpRoutes(app: FastifyInstance, options: { authenticator: Authenticator; maxUploadBytes: number }): void {
  const toolsFor = new Map<string, ReturnType<typeof servedTools>>();
  /** The tools of the toolsets a request names in `?toolsets=`, built once per choice. */
  const tools = (query: unknown) => {
    const named = (query as { toolsets?: unknown }).toolsets;
    const chosen = chosenToolsets(typeof named === 'string' ? named : Array.isArray(named) ? named.join(',') : undefined);
    const key = chosen.join(',');
    let listed = toolsFor.get(key);
    if (!listed) {
      listed = servedTools({ maxUploadBytes: options.maxUploadBytes }, chosen);
      toolsFor.set(key, listed);
    }
    return listed;
  };
  const fetch = injectFetch(app);

  const route = {
    bodyLimit: Math.ceil(options.maxUploadBytes / 3) * 4 + ENVELOPE_BYTES,
    // The key is checked from the headers, before a message of up to ~70 MB is read.
    onRequest: checkBeforeBody(async (request) => {
      await options.authenticator.authenticate({ authorization: header(request, 'authorization') }, keyCheck);
      tools(request.query);
    }),
  };
  app.post('/mcp', route, async (request, reply) => {
    const apiKey = bearerSecret(header(request, 'authorization')) as string;
    const server = createMcpServer(tools(request.query), {
      baseUrl: 'http://loupe.invalid',
      apiKey,
      workspaceId: header(request, 'x-service-team'),
      fetch,
      // The API's log lines of each tool call carry the id of the /mcp request that made it.
      headers: { 'x-request-id': request.id },
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  // Stateless: there is no stream to resume (GET) and no session to end (DELETE).
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      handler: (_request, reply) =>
        reply
          .code(405)
          .header('allow', 'POST')
          .send({
            jsonrpc: '2.0',
            error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; POST each message.' },
            id: null,
          }),
    });
  }
}
