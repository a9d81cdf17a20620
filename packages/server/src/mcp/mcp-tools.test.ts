import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { errorCodes, type LoupeError, MAX_CONDITION_DEPTH, type OperationDefinition, operations, querySchema } from '@loupe/contract';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { z } from 'zod';
import { exampleRules } from '../rule-packs/example-rules.ts';
import { inAgentWords, restOnlyWords } from './agent-wording.ts';
import { answerViews } from './answer-views.ts';
import { estimatedOperations } from './credit-guard.ts';
import { createMcpServer } from './mcp-server.ts';
import { mcpTools, type ServedTool, toolName } from './mcp-tools.ts';
import { servedTools } from './served-tools.ts';
import { mcpOnlyErrorCodes } from './tool-result.ts';
import { CORE_TOOLSET, chosenToolsets, DEFAULT_TOOLSETS, toolsets } from './toolsets.ts';

const registry = operations as readonly OperationDefinition[];

/** The tools as an MCP client sees them (listing needs no Loupe server: nothing is called). */
async function listTools(served: readonly ServedTool[] = mcpTools({ maxUploadBytes: 1024 })): Promise<Tool[]> {
  const server = createMcpServer(served, { baseUrl: 'http://loupe.invalid', apiKey: 'loupe_unused' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'parity-test', version: '1.0.0' });
  await client.connect(clientSide);
  const { tools, nextCursor } = await client.listTools();
  assert.equal(nextCursor, undefined);
  await client.close();
  return tools;
}

function toolFor(tools: Tool[], operation: OperationDefinition): Tool {
  const tool = tools.find((candidate) => candidate.name === toolName(operation.id));
  assert.ok(tool, `no tool for ${operation.id}`);
  return tool;
}

describe('MCP tools', () => {
  let tools: Tool[];
  before(async () => {
    tools = await listTools();
  });

  it('lists one tool for every registry operation, named after it in snake_case, and the answer views beside them', () => {
    const beside = answerViews.filter((view) => view.name !== toolName(view.operationId)).map((view) => view.name);
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [...registry.map((operation) => toolName(operation.id)), ...beside].sort());
    assert.equal(toolName('startProjectCrawl'), 'start_project_crawl');
  });

  it('lists no tool without an operation, and no name twice', () => {
    const names = new Set([...registry.map((operation) => toolName(operation.id)), ...answerViews.map((view) => view.name)]);
    assert.deepEqual(
      tools.filter((tool) => !names.has(tool.name)).map((tool) => tool.name),
      [],
    );
    assert.equal(new Set(tools.map((tool) => tool.name)).size, tools.length);
  });

  it("takes each operation's path parameters, query, paging and body as arguments", () => {
    for (const operation of registry) {
      const schema = toolFor(tools, operation).inputSchema as {
        properties?: Record<string, unknown>;
        required?: string[];
        additionalProperties?: unknown;
      };
      const properties = Object.keys(schema.properties ?? {});
      const expected = [
        ...Object.keys(operation.params?.shape ?? {}),
        ...Object.keys(querySchema(operation)?.shape ?? {}),
        ...(operation.body ? ['body'] : []),
      ];
      for (const name of expected) assert.ok(properties.includes(name), `${operation.id} lacks ${name}`);
      if (operation.paged) assert.ok(properties.includes('limit') && properties.includes('cursor'), `${operation.id} lacks paging`);
      for (const name of Object.keys(operation.params?.shape ?? {}))
        assert.ok(schema.required?.includes(name), `${operation.id}: ${name} optional`);
      assert.equal(operation.body !== undefined && !operation.upload, schema.required?.includes('body') ?? false, `${operation.id}: body`);
      assert.equal(schema.additionalProperties, false, `${operation.id} takes unknown arguments`);
    }
  });

  it("uses the contract's own schemas for each argument, not copies", () => {
    for (const tool of mcpTools({ maxUploadBytes: 1024 })) {
      const { operation, input } = tool;
      for (const [name, field] of Object.entries(operation.params?.shape ?? {})) assert.equal(input.shape[name], field);
      for (const [name, field] of Object.entries(querySchema(operation)?.shape ?? {})) {
        // The cursor says where a tool answers it: the same schema under another description.
        if (name === 'cursor') assert.equal((input.shape[name] as z.ZodOptional).unwrap(), (field as z.ZodOptional).unwrap());
        else assert.equal(input.shape[name], field);
      }
      if (operation.body) {
        const body = input.shape.body as z.ZodType;
        assert.equal(operation.upload ? (body as z.ZodOptional).unwrap() : body, operation.body, operation.id);
      }
    }
  });

  it('gives credit-spending tools a maxCredits guard the server can estimate, and no other tool one', () => {
    for (const operation of registry) {
      const properties = Object.keys((toolFor(tools, operation).inputSchema.properties ?? {}) as object);
      assert.equal(properties.includes('maxCredits'), operation.spendsCredits === true, operation.id);
      if (operation.spendsCredits) assert.ok(estimatedOperations.includes(operation.id), `no credit estimate for ${operation.id}`);
    }
    assert.deepEqual(
      registry
        .filter((operation) => operation.spendsCredits)
        .map((operation) => operation.id)
        .sort(),
      ['startCrawl', 'startProjectCrawl'],
    );
  });

  it('describes every structured answer as an object, and the file of a download as text', () => {
    for (const operation of registry) {
      const tool = toolFor(tools, operation);
      if (operation.download) assert.equal(tool.outputSchema, undefined);
      else assert.equal(tool.outputSchema?.type, 'object', operation.id);
      if (operation.paged) assert.deepEqual(Object.keys(tool.outputSchema?.properties ?? {}), ['items', 'nextCursor']);
    }
  });

  it('lists schemas a JSON Schema validator compiles', () => {
    const validator = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      assert.doesNotThrow(() => validator.getValidator(tool.inputSchema), `${tool.name} input`);
      if (tool.outputSchema) assert.doesNotThrow(() => validator.getValidator(tool.outputSchema!), `${tool.name} output`);
    }
  });

  it("lists a rule condition's nesting levels as one recursive schema, which checks what the levels check but the depth", () => {
    const tool = tools.find((candidate) => candidate.name === 'create_rule_pack')!;
    const defs = Object.keys((tool.inputSchema.$defs ?? {}) as object);
    assert.ok(defs.includes('RuleCondition'));
    assert.deepEqual(
      defs.filter((name) => /Level/.test(name)),
      [],
    );
    assert.doesNotMatch(JSON.stringify(tools), /Level\d|x-nesting/);
    assert.match(JSON.stringify(tool.inputSchema), new RegExp(`nested at most ${MAX_CONDITION_DEPTH} levels deep`));
    const validate = new AjvJsonSchemaValidator().getValidator(tool.inputSchema);
    const input = mcpTools({ maxUploadBytes: 1024 }).find((candidate) => candidate.name === 'create_rule_pack')!.input;
    const withWhen = (when: unknown) => ({
      body: { name: 'Nested', pack: { schema: 'loupe.rules/v1', name: 'Nested', rules: [{ ...exampleRules[0], when }] } },
    });
    const nested = (depth: number, leaf: unknown): unknown => (depth === 1 ? leaf : { not: nested(depth - 1, leaf) });
    const metric = { type: 'metric', metric: 'wordCount', cmp: { op: 'gte', value: 20 } };
    for (const depth of [1, 3, MAX_CONDITION_DEPTH]) {
      assert.equal(validate(withWhen(nested(depth, metric))).valid, true, `depth ${depth}`);
      assert.equal(input.safeParse(withWhen(nested(depth, metric))).success, true, `depth ${depth}`);
      const wrong = withWhen(nested(depth, { ...metric, type: 'pixels' }));
      assert.equal(validate(wrong).valid, false, `depth ${depth}`);
      assert.equal(input.safeParse(wrong).success, false, `depth ${depth}`);
    }
    assert.equal(validate(withWhen(nested(MAX_CONDITION_DEPTH + 1, metric))).valid, true, 'the listing leaves the depth to its words');
    assert.equal(input.safeParse(withWhen(nested(MAX_CONDITION_DEPTH + 1, metric))).success, false);
    assert.ok(
      JSON.stringify(tool.inputSchema).length < 12_000,
      `create_rule_pack's schema is ${JSON.stringify(tool.inputSchema).length} characters`,
    );
  });

  it('writes descriptions for agents: what it costs, and other tools by their tool names', () => {
    const operationIds = registry.map((operation) => operation.id);
    for (const tool of tools) {
      assert.match(tool.description ?? '', /\b(credits?|free|costs?)\b/i, `${tool.name} does not say what it costs`);
      const named = (tool.description ?? '').match(/\b[a-z]+(?:[A-Z][a-z]*)+\b/g) ?? [];
      assert.deepEqual(
        named.filter((word) => operationIds.includes(word)),
        [],
        `${tool.name} names operation ids`,
      );
    }
    assert.match(toolFor(tools, registry.find((o) => o.id === 'startCrawl')!).description ?? '', /get_crawl/);
  });

  it('describes tools in tool terms: no headers, multipart bodies or links to follow', () => {
    for (const tool of servedTools({ maxUploadBytes: 1024 }, chosenToolsets('all'))) {
      assert.doesNotMatch(tool.description, restOnlyWords, tool.name);
      assert.doesNotMatch(JSON.stringify(tool.inputSchema), /rel=\\"next|x-service-team|multipart/i, tool.name);
    }
    const upload = tools.find((tool) => tool.name === 'upload_image')!;
    assert.match(upload.description ?? '', /a file sent as `upload`/);
    assert.equal(inAgentWords('Needs no x-service-team header.'), 'Acts in no workspace.');
  });

  it('marks reads read-only and deletions destructive', () => {
    for (const operation of registry) {
      const { annotations } = toolFor(tools, operation);
      assert.equal(annotations?.readOnlyHint, operation.method === 'GET', operation.id);
      if (operation.method === 'DELETE') assert.equal(annotations?.destructiveHint, true, operation.id);
    }
  });

  it("keeps the MCP layer's own error codes out of the API's catalogue", () => {
    assert.deepEqual(
      mcpOnlyErrorCodes.filter((code) => (errorCodes as string[]).includes(code)),
      [],
    );
  });

  it('puts every tool in one toolset, and keeps the default listing small enough for common clients', async () => {
    const all = servedTools({ maxUploadBytes: 1024 }, chosenToolsets('all'));
    for (const tool of all)
      assert.ok(tool.toolset === CORE_TOOLSET || toolsets.some((toolset) => toolset.name === tool.toolset), tool.name);
    assert.deepEqual(chosenToolsets(undefined), [...DEFAULT_TOOLSETS]);
    assert.deepEqual(chosenToolsets(' Images, crawls ,images'), ['images', 'crawls']);
    assert.throws(
      () => chosenToolsets('images,nope'),
      (error: LoupeError) => error.code === 'validation_failed' && /nope/.test(error.message),
    );
    const listed = await listTools(servedTools({ maxUploadBytes: 1024 }, chosenToolsets(undefined)));
    assert.ok(listed.length <= 32, `the default listing has ${listed.length} tools`);
    const bytes = JSON.stringify({ tools: listed }).length;
    // 90,000 until issue #28: the lab reading of get_report_page and the lab distribution of get_report added 5.5 KB.
    assert.ok(bytes < 100_000, `the default listing is ${bytes} bytes`);
  });
});
