import { randomUUID } from 'node:crypto';
import { type OperationDefinition, querySchema } from '@loupe/contract';
import type { FuzzWorkspace, KnownBodies } from './fuzz-fixtures.ts';
import { type SampleValues, schemaSample } from './schema-sample.ts';

/** Real ids of `own` by field name, a random id for a field it has none for. */
export function sampleValues(own: FuzzWorkspace, siteUrl: string): SampleValues {
  const byField: Record<string, string | undefined> = {
    old: own.ids.reportId,
    new: own.ids.reportId,
    projectId: own.ids.auditProjectId,
    rulePackIds: own.ids.packId,
  };
  return { id: (field: string) => byField[field] ?? own.ids[field] ?? randomUUID(), url: siteUrl };
}

/** A body the server accepted while the fixtures were made, else one made from the schema's shape. */
export function baseBody(operation: OperationDefinition, known: KnownBodies, own: FuzzWorkspace, siteUrl: string): unknown {
  if (!operation.body) return undefined;
  return known.has(operation.body) ? known.get(operation.body) : schemaSample(operation.body, sampleValues(own, siteUrl));
}

export function baseQuery(operation: OperationDefinition, own: FuzzWorkspace, siteUrl: string): Record<string, string> {
  const schema = querySchema(operation);
  if (!schema) return {};
  const sample = schemaSample(schema, sampleValues(own, siteUrl)) as Record<string, unknown>;
  // A made-up cursor would make every other query case a cursor error.
  delete sample.cursor;
  return Object.fromEntries(Object.entries(sample).map(([key, value]) => [key, String(value)]));
}
