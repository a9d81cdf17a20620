import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildOpenApiDocument } from '../openapi.ts';
import { errorCatalogue, errorCodes, LoupeError } from './errors.ts';

describe('error catalogue', () => {
  it('gives every code a 4xx or 5xx status and a message', () => {
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      assert.ok(entry.status >= 400 && entry.status < 600, code);
      assert.ok(entry.message.length > 0, code);
    }
  });

  it('uses each code once, in snake_case', () => {
    assert.equal(new Set(errorCodes).size, errorCodes.length);
    for (const code of errorCodes) assert.match(code, /^[a-z]+(_[a-z]+)*$/);
  });

  it('lists every code in the OpenAPI document', () => {
    const document = buildOpenApiDocument({ version: 'test' }) as {
      components: { schemas: { Error: { properties: { code: { enum: string[] } } } } };
    };
    assert.deepEqual([...document.components.schemas.Error.properties.code.enum].sort(), [...errorCodes].sort());
  });

  it('puts extra fields in the body but never over error and code', () => {
    const error = new LoupeError('plan_limit_reached', { extra: { limit: 3, current: 3, code: 'spoofed' } });
    assert.deepEqual(error.toBody(), { limit: 3, current: 3, code: 'plan_limit_reached', error: error.message });
  });
});
