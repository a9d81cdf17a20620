import { randomUUID } from 'node:crypto';
import { badBodies, badFieldValues, deep, pick, replaced, show } from './fuzz-inputs.ts';
import { errorBodyProblem } from './fuzz-run.ts';
import type { RawAnswer } from './raw-request.ts';
import type { RouteCase } from './route-fuzz-cases.ts';

/** A tool as tools/list gives it. */
export interface ListedTool {
  name: string;
  inputSchema: { properties?: Record<string, { type?: string | string[] }>; required?: string[] };
}

/** Who calls /mcp: a key and the workspace its `x-service-team` names. */
export interface McpCaller {
  key: string;
  workspaceId: string;
}

const ACCEPT = 'application/json, text/event-stream';
/** JSON-RPC's "internal error": the MCP answer to an exception nobody caught, as a 500 is over HTTP. */
const INTERNAL_ERROR = -32603;

function headersOf(caller: McpCaller, changes: Record<string, string | null> = {}): Record<string, string> {
  const headers: Record<string, string | null> = {
    authorization: `Bearer ${caller.key}`,
    'x-service-team': caller.workspaceId,
    'content-type': 'application/json',
    accept: ACCEPT,
    ...changes,
  };
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== null));
}

/** /mcp listing every toolset: the tool cases call every tool. */
export const ALL_TOOLS_PATH = '/mcp?toolsets=all';

const post = (label: string, body: string | Buffer, headers: Record<string, string>, path = '/mcp'): RouteCase => ({
  label,
  answers: 'mcp',
  request: { method: 'POST', path, headers, body },
});
const message = (fields: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', ...fields });

/** JSON-RPC and HTTP around it gone wrong: envelopes, ids, methods, params, batches, headers, keys. */
export function mcpProtocolCases(caller: McpCaller, others: { foreignKey: string; viewerKey: string }, random: () => number): RouteCase[] {
  const headers = headersOf(caller);
  const send = (label: string, fields: Record<string, unknown>) => post(label, message(fields), headers);
  const call = (label: string, params: unknown) => send(`tools/call with ${label}`, { method: 'tools/call', params });
  const values: unknown[] = [null, {}, [], -1, 1.5, 1e308, 'x'.repeat(100_000), true];
  const methods: unknown[] = [
    '',
    'x/y',
    'x'.repeat(100_000),
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'tools/list/',
    'TOOLS/LIST',
    'resources/list',
    'prompts/get',
    'logging/setLevel',
    'completion/complete',
    'sampling/createMessage',
    'notifications/initialized',
    123,
    null,
  ];
  const toolNames: unknown[] = [undefined, null, 1, '', 'x'.repeat(100_000), '__proto__', 'constructor', 'toString', 'no_such_tool'];
  const ping = message({ method: 'ping' });
  return [
    send('tools/list as it should be', {}),
    ...['1.0', 2, null, '', '2.0 ', undefined].map((version) => send(`jsonrpc ${show(version)}`, { jsonrpc: version })),
    ...[...values, undefined].map((id) => send(`id ${show(id)}`, { id })),
    ...methods.map((method) => send(`method ${show(method)}`, { method })),
    ...[null, [], 'x', 0, JSON.parse(deep(2000, '[', ']'))].map((params) => send(`params ${show(params)}`, { params })),
    ...[
      {},
      { protocolVersion: 'x' },
      { protocolVersion: '2025-06-18', capabilities: null, clientInfo: { name: 1 } },
      { protocolVersion: 'x'.repeat(100_000), capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    ].map((params) => send(`initialize ${show(params)}`, { method: 'initialize', params })),
    send('a notification the server does not know', { method: 'notifications/x', id: undefined }),
    send('a cancellation of nothing', { method: 'notifications/cancelled', id: undefined, params: { requestId: {} } }),
    ...toolNames.map((name) => call(`the name ${show(name)}`, { name, arguments: {} })),
    ...[null, 'x', [], 5, JSON.parse(deep(2000, '[', ']'))].map((args) =>
      call(`arguments ${show(args)}`, { name: 'list_workspaces', arguments: args }),
    ),
    call('_meta that is not an object', { name: 'list_workspaces', arguments: {}, _meta: 'x' }),
    call('a progress token that is an object', { name: 'list_workspaces', arguments: {}, _meta: { progressToken: {} } }),
    ...['[]', '[1]', '[null]', `[${ping},{}]`, `[${Array.from({ length: 50 }, () => ping).join(',')}]`, `[[${ping}]]`].map((batch) =>
      post(`the batch ${show(batch)}`, batch, headers),
    ),
    ...badBodies(ping, random).map(({ label, body, contentType }) => post(label, body, headersOf(caller, { 'content-type': contentType }))),
    ...[null, 'application/json', 'text/event-stream', '*/*', 'x'.repeat(8000)].map((accept) =>
      post(`Accept ${show(accept)}`, ping, headersOf(caller, { accept })),
    ),
    ...[null, 'not-a-uuid', '%E0', randomUUID(), ''].map((team) =>
      post(
        `x-service-team ${show(team)}`,
        message({ method: 'tools/call', params: { name: 'get_team', arguments: {} } }),
        headersOf(caller, { 'x-service-team': team }),
      ),
    ),
    ...['x', '1999-01-01', ''].map((version) =>
      post(`mcp-protocol-version ${show(version)}`, ping, headersOf(caller, { 'mcp-protocol-version': version })),
    ),
    ...['x', 'x'.repeat(8000)].map((session) =>
      post(`mcp-session-id ${show(session)}`, ping, headersOf(caller, { 'mcp-session-id': session })),
    ),
    ...[
      null,
      'Bearer',
      'Bearer ',
      'Basic eDp5',
      `Bearer ${'x'.repeat(8000)}`,
      `Bearer ${caller.key}, Bearer x`,
      `Bearer ${others.viewerKey}`,
      `Bearer ${others.foreignKey}`,
    ].map((authorization) => post(`Authorization ${show(authorization)}`, ping, headersOf(caller, { authorization }))),
    ...['/mcp/', '/mcp?x=%E0', '/MCP', '/mcp/..%2f', '/mcp%00'].map((path) => post(`the path ${path}`, ping, headers, path)),
    ...['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'].map(
      (method): RouteCase => ({
        label: method,
        answers: 'mcp',
        request: { method, path: '/mcp', headers: headersOf(caller, { 'content-type': null }) },
      }),
    ),
  ];
}

/** A value of the type a JSON Schema names, for the required arguments around the one being fuzzed. */
function sampleOf(schema: { type?: string | string[] } | undefined): unknown {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (type === 'object') return {};
  if (type === 'array') return [];
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return true;
  // Ids above all: a random one reaches the API and is not found there, so nothing real is changed.
  return randomUUID();
}

/** Arguments no tool has, one drawn per tool. */
const oddArguments = ['zzUnknown', '__proto__', 'constructor'];
/** Of the bad values for a field, how many each argument of each tool gets: 85 tools make this the largest group. */
const VALUES_PER_ARGUMENT = 2;

/** tools/call of every listed tool: an argument it does not have (`__proto__` among them), and bad values in each of its arguments. */
export function mcpToolCases(tools: readonly ListedTool[], caller: McpCaller, random: () => number): RouteCase[] {
  const headers = headersOf(caller);
  return tools.flatMap((tool) => {
    const properties = tool.inputSchema.properties ?? {};
    const base = Object.fromEntries((tool.inputSchema.required ?? []).map((name) => [name, sampleOf(properties[name])]));
    const call = (label: string, args: unknown) =>
      post(
        `${tool.name} ${label}`,
        message({ method: 'tools/call', params: { name: tool.name, arguments: args } }),
        headers,
        ALL_TOOLS_PATH,
      );
    return [
      ...pick(oddArguments, 1, random).map((name) => call(`with an argument named ${name}`, replaced(base, [name], { polluted: true }))),
      ...Object.keys(properties).flatMap((name) =>
        pick(badFieldValues(random), VALUES_PER_ARGUMENT, random).map((value) =>
          call(`${name}=${show(value)}`, { ...base, [name]: value }),
        ),
      ),
    ];
  });
}

/** What keeps one JSON-RPC response from being well formed, or an internal error. */
function responseProblem(response: any): string | undefined {
  if (response === null || typeof response !== 'object' || response.jsonrpc !== '2.0' || !('id' in response))
    return 'not a JSON-RPC 2.0 response';
  if ('result' in response === 'error' in response) return 'neither a result nor an error, or both';
  if ('error' in response) {
    const { code, message: text } = response.error ?? {};
    if (!Number.isInteger(code) || typeof text !== 'string') return 'an error without an integer code and a message';
    if (code === INTERNAL_ERROR) return `an internal error: ${text}`;
    return undefined;
  }
  if (response.result?.isError !== true) return undefined;
  const text = response.result.content?.[0]?.text;
  const problem = typeof text === 'string' ? errorBodyProblem({ status: 400, contentType: 'application/json', text }) : 'no text';
  return problem && `a tool error whose text is ${problem}`;
}

/**
 * What is wrong with an answer of /mcp: a 200 holds JSON-RPC responses, well formed, none an
 * internal error, each tool error carrying §4's body; a refusal over HTTP (4xx) is a JSON-RPC
 * error or §4's body; a notification is a 202 with nothing.
 */
export function mcpAnswerProblem(answer: RawAnswer, method: string): string | undefined {
  if (answer.status === 202 || method === 'HEAD') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `a ${answer.status} that is not JSON`;
  }
  if (answer.status >= 400 && answer.status < 500) {
    const asRpc = responseProblem(body);
    return asRpc === undefined || errorBodyProblem(answer) === undefined
      ? undefined
      : `a ${answer.status} that is neither a JSON-RPC error nor the §4 body`;
  }
  if (answer.status !== 200) return `answered ${answer.status}`;
  const responses = Array.isArray(body) ? body : [body];
  return responses.map(responseProblem).find((problem) => problem !== undefined);
}
