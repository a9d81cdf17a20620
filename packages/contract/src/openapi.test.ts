import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cdnDeliveryPath } from './images/cdn-delivery-document.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { type OperationDefinition, successStatus } from './operation.ts';
import { operations } from './registry.ts';

type Document = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        responses: Record<string, { content?: Record<string, unknown> } | undefined>;
        parameters?: { name: string; in: string }[];
        security?: unknown[];
      }
    >
  >;
  components: { schemas: Record<string, unknown> };
};

const document = buildOpenApiDocument({ version: 'test' }) as Document;

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1', () => {
    assert.equal(document.openapi, '3.1.0');
  });

  it('has exactly one path item per registry operation, with its success status', () => {
    const documented = Object.entries(document.paths)
      .filter(([path]) => path !== cdnDeliveryPath)
      .flatMap(([path, items]) => Object.entries(items).map(([method, item]) => `${method.toUpperCase()} ${path} ${item.operationId}`));
    const registered = operations.map((o) => `${o.method} ${o.path} ${o.id}`);
    assert.deepEqual(documented.sort(), registered.sort());
    for (const operation of operations) {
      const item = document.paths[operation.path]?.[operation.method.toLowerCase()];
      assert.ok(item?.responses[String(successStatus(operation))], operation.id);
    }
  });

  it('resolves every $ref to a component schema', () => {
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    assert.ok(refs.length > 0);
    for (const ref of refs) {
      const name = /#\/components\/schemas\/([^"]+)/.exec(ref)?.[1];
      assert.ok(name && document.components.schemas[name], ref);
    }
  });

  it('asks for x-service-team on workspace API operations only, unless they opt out', () => {
    for (const operation of operations as readonly OperationDefinition[]) {
      const item = document.paths[operation.path]?.[operation.method.toLowerCase()];
      const hasHeader = item?.parameters?.some((p) => p.in === 'header' && p.name === 'x-service-team') ?? false;
      assert.equal(hasHeader, operation.api === 'workspace' && operation.teamHeader !== false, operation.id);
    }
  });

  it('marks public operations as needing no key, and only those', () => {
    for (const operation of operations as readonly OperationDefinition[]) {
      const item = document.paths[operation.path]?.[operation.method.toLowerCase()];
      assert.equal(Array.isArray(item?.security) && item.security.length === 0, operation.public === true, operation.id);
      assert.equal(item?.responses['401'] === undefined, operation.public === true, operation.id);
    }
  });

  it('marks accepting an invite as taking a key or none, and documents why it answers 401 and 403', () => {
    const accept = document.paths['/api/v1/invites/{token}/accept']?.post;
    assert.deepEqual(accept?.security, [{ bearer: [] }, {}]);
    assert.match(JSON.stringify(accept?.responses['401']), /sign_in_required/);
    assert.match(JSON.stringify(accept?.responses['403']), /invite_for_another_account/);
  });

  it('documents file answers in each of their media types', () => {
    const exportReport = document.paths['/api/v1/reports/{reportId}/export']?.get;
    assert.deepEqual(Object.keys(exportReport?.responses['200']?.content ?? {}).sort(), ['application/json', 'text/csv']);
  });

  it('documents 409 on preset creation', () => {
    assert.ok(document.paths['/api/images/projects/{projectId}/presets']?.post?.responses['409']);
  });

  it('refuses in its schemas an update that changes nothing and transforms that transform nothing', () => {
    const schemas = document.components.schemas as Record<string, { minProperties?: number }>;
    assert.equal(schemas.Transforms?.minProperties, 1);
    for (const operation of operations as readonly OperationDefinition[]) {
      if (operation.method !== 'PATCH') continue;
      const body = (
        document.paths[operation.path]?.patch as {
          requestBody?: { content: Record<string, { schema: { minProperties?: number; required?: string[] } }> };
        }
      )?.requestBody?.content['application/json']?.schema;
      assert.ok(body?.minProperties === 1 || (body?.required?.length ?? 0) > 0, operation.id);
    }
  });

  it('declares 404 wherever an operation names an id, and 413/415 wherever it takes a body', () => {
    assert.ok(document.paths['/api/v1/diff']?.get?.responses['404']);
    for (const operation of operations as readonly OperationDefinition[]) {
      const responses = document.paths[operation.path]?.[operation.method.toLowerCase()]?.responses ?? {};
      if (operation.params) assert.ok(responses['404'], operation.id);
      if (operation.method !== 'GET') assert.ok(responses['413'] && responses['415'], operation.id);
    }
  });

  it('describes CDN delivery: its parameters, signature, answers and their headers, with no key', () => {
    const deliver = document.paths[cdnDeliveryPath]?.get as unknown as {
      security: unknown[];
      parameters: { name: string; in: string }[];
      responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
    };
    assert.deepEqual(deliver.security, []);
    const names = deliver.parameters.map((p) => `${p.in} ${p.name}`);
    for (const name of [
      'path projectSlug',
      'path imagePath',
      'query t',
      'query width',
      'query w',
      'query s',
      'query exp',
      'header If-None-Match',
    ]) {
      assert.ok(names.includes(name), name);
    }
    assert.deepEqual(Object.keys(deliver.responses).sort(), ['200', '304', '400', '403', '404', '431', '500', '502', '503', '504', '507']);
    assert.ok(deliver.responses['200']?.content?.['image/*'] && deliver.responses['200']?.headers?.ETag);
    assert.match(JSON.stringify(deliver.responses['403']), /signature_required.*signature_invalid.*signature_expired/);
  });
});
