import { randomUUID } from 'node:crypto';
import { freeTextFields, type OperationDefinition, querySchema } from '@loupe/contract';
import type { FuzzWorkspace } from './fuzz-fixtures.ts';
import { realParam } from './fuzz-fixtures.ts';
import {
  badBodies,
  badFields,
  oddPathSegments,
  oddQueryPairsFor,
  oddQueryValuesFor,
  pick,
  replaced,
  show,
  unsafeNameCharacters,
} from './fuzz-inputs.ts';
import type { RawRequest } from './raw-request.ts';

/** One request of the fuzz pass, and what its answer must be beyond "not a 5xx, 4xx in the §4 shape". */
export interface FuzzCase {
  label: string;
  request: RawRequest;
  /** A field the answer must name in validation_failed's fieldErrors. */
  refusesField?: string;
}

export interface FuzzTarget {
  operation: OperationDefinition;
  own: FuzzWorkspace;
  /** Another workspace: its ids must be as unknown to `own` as random ones. */
  foreign: FuzzWorkspace;
  /** An input the server should accept, or as close as the fixtures and the schema give. */
  body: unknown;
  query: Record<string, string>;
  random: () => number;
}

/** The request of `target` with parts replaced. */
function build(
  target: FuzzTarget,
  changes: {
    params?: Record<string, string>;
    query?: string;
    body?: unknown;
    rawBody?: string | Buffer;
    contentType?: string | null;
    key?: string | null;
    team?: string | null;
  } = {},
): RawRequest {
  const { operation, own } = target;
  const path = operation.path.replace(
    /\{(\w+)\}/g,
    (_, name: string) => changes.params?.[name] ?? encodeURIComponent(realParam(operation, name, own)),
  );
  const query = changes.query ?? new URLSearchParams(target.query).toString();
  const headers: Record<string, string> = {};
  const key = changes.key === undefined ? own.key : changes.key;
  if (key !== null && !operation.public) headers.authorization = `Bearer ${key}`;
  const team = changes.team === undefined ? own.workspaceId : changes.team;
  if (operation.api === 'workspace' && operation.teamHeader !== false && team !== null) headers['x-service-team'] = team;
  let body: string | Buffer | undefined;
  if (operation.method !== 'GET') {
    body =
      changes.rawBody ??
      (changes.body !== undefined ? JSON.stringify(changes.body) : target.body !== undefined ? JSON.stringify(target.body) : undefined);
    const contentType = changes.contentType === undefined ? 'application/json' : changes.contentType;
    if (body !== undefined && contentType !== null) headers['content-type'] = contentType;
  }
  return { method: operation.method, path: query ? `${path}?${query}` : path, headers, body };
}

function authCases(target: FuzzTarget): FuzzCase[] {
  const { own, foreign } = target;
  return [
    { label: 'the input as it should be', request: build(target) },
    { label: 'no key', request: build(target, { key: null }) },
    { label: "a viewer's key", request: build(target, { key: own.viewerKey }) },
    { label: "another workspace's key on this workspace's ids", request: build(target, { key: foreign.key, team: foreign.workspaceId }) },
    { label: "another workspace's key naming this workspace", request: build(target, { key: foreign.key }) },
    { label: 'a team header that is not an id', request: build(target, { team: '../%E0' }) },
    { label: 'a key that is not one', request: build(target, { key: `loupe_${'A'.repeat(32)}` }) },
  ];
}

function pathCases(target: FuzzTarget): FuzzCase[] {
  const { operation, own, foreign } = target;
  const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const otherKinds = [own.ids.reportId!, own.ids.imageId!, own.ids.keyId!];
  return names.flatMap((name) => {
    const real = realParam(operation, name, own);
    const values = [
      ...oddPathSegments(target.random),
      pick([randomUUID(), real.toUpperCase(), `${real}%20`], 1, target.random)[0]!,
      encodeURIComponent(realParam(operation, name, foreign)),
      ...pick(
        otherKinds.filter((id) => id !== real),
        1,
        target.random,
      ),
    ];
    return values.map((value) => ({ label: `path ${name}=${show(value)}`, request: build(target, { params: { [name]: value } }) }));
  });
}

function queryCases(target: FuzzTarget): FuzzCase[] {
  const { operation, own, foreign, random } = target;
  const keys = Object.keys(querySchema(operation)?.shape ?? {});
  const base = new URLSearchParams(target.query).toString();
  const cases: FuzzCase[] = [];
  for (const key of keys) {
    const others = Object.entries(target.query).filter(([name]) => name !== key);
    const rest = new URLSearchParams(others).toString();
    const values = oddQueryValuesFor(random, [own.ids.reportId!, foreign.ids.reportId!, randomUUID()]);
    for (const value of values) {
      cases.push({
        label: `query ${key}=${show(value)}`,
        request: build(target, { query: [rest, `${encodeURIComponent(key)}=${value}`].filter(Boolean).join('&') }),
      });
    }
    cases.push({ label: `query ${key} twice`, request: build(target, { query: [base, `${key}=a&${key}=b`].filter(Boolean).join('&') }) });
  }
  for (const odd of oddQueryPairsFor(random)) {
    cases.push({ label: `query ${show(odd)}`, request: build(target, { query: [base, odd].filter(Boolean).join('&') }) });
  }
  return cases;
}

function wholeBodyCases(target: FuzzTarget): FuzzCase[] {
  if (target.operation.method === 'GET') return [];
  return badBodies(JSON.stringify(target.body ?? {}), target.random).map(({ label, body, contentType }) => ({
    label,
    request: build(target, { rawBody: body, contentType }),
  }));
}

function fieldCases(target: FuzzTarget): FuzzCase[] {
  if (target.operation.method === 'GET' || target.body === undefined) return [];
  return badFields(target.body, target.random).map(({ label, body }) => ({ label, request: build(target, { body }) }));
}

function uploadCases(target: FuzzTarget): FuzzCase[] {
  if (!target.operation.upload) return [];
  const boundary = 'fuzzboundary';
  const part = (name: string, content: string, filename?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n\r\n${content}\r\n`;
  const multipart = (label: string, parts: string[]): FuzzCase => ({
    label: `multipart ${label}`,
    request: build(target, { rawBody: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` }),
  });
  return [
    multipart('with a file that is not an image', [part('file', 'not an image', 'x.png')]),
    multipart('with no file', [part('path', 'x.png')]),
    multipart('with two files', [part('file', 'a', 'a.png'), part('file', 'b', 'b.png')]),
    multipart('with a NUL in the path', [part('path', 'a\u0000b.png'), part('file', 'x', 'x.png')]),
    multipart('with a path of ..', [part('path', '../../etc/passwd'), part('file', 'x', 'x.png')]),
    multipart('with an unknown field', [part('__proto__', 'x'), part('file', 'x', 'x.png')]),
    multipart('with a 100 KB file name', [part('file', 'x', 'x'.repeat(100_000))]),
    multipart('cut short', [`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\n\r\nabc`]),
  ];
}

function nameCases(target: FuzzTarget): FuzzCase[] {
  if (target.operation.method === 'GET') return [];
  return freeTextFields(target.operation)
    .filter((field) => field.part === 'body')
    .flatMap((field) =>
      unsafeNameCharacters(target.random).map((character) => {
        const path = field.path.split('.').map((step) => (/^\d+$/.test(step) ? Number(step) : step));
        const body = target.body !== undefined ? replaced(target.body, path, `ab${character}cd`) : field.place(`ab${character}cd`);
        return { label: `name ${field.path} with ${show(character)}`, request: build(target, { body }), refusesField: field.path };
      }),
    );
}

/** Every case the fuzz pass sends to one operation. */
export function fuzzCases(target: FuzzTarget): FuzzCase[] {
  return [
    ...authCases(target),
    ...pathCases(target),
    ...queryCases(target),
    ...wholeBodyCases(target),
    ...fieldCases(target),
    ...uploadCases(target),
    ...nameCases(target),
  ];
}
