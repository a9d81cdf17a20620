import { randomUUID } from 'node:crypto';
import { freeTextFields, querySchema, type OperationDefinition } from '@loupe/contract';
import type { FuzzWorkspace } from './fuzz-fixtures.ts';
import { realParam } from './fuzz-fixtures.ts';
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

const deep = (levels: number, open: string, close: string, inner = '') => open.repeat(levels) + inner + close.repeat(levels);
const nested = (levels: number): unknown => JSON.parse(deep(levels, '[', ']'));

/** Path segments as sent (already percent-encoded where they need it). */
const oddSegments = [
  '0',
  '-1',
  '99999999999999999999999999',
  '1e309',
  'NaN',
  '%C3%BC%F0%9F%98%80',
  '%E0',
  '%E0%A4%A',
  '%',
  '..',
  '%2e%2e',
  '.',
  '%00',
  'null',
  '__proto__',
  'constructor',
  'x'.repeat(300),
  '%2F..%2F..%2Fetc%2Fpasswd',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];

const alwaysInPaths = ['%E0', '..', '99999999999999999999999999'];
const DRAWN_SEGMENTS = 5;

/** Query values as sent. */
const oddQueryValues = ['', '-1', '0', '1e309', '99999999999999999999', '%C3%BC%F0%9F%98%80', '..', 'x'.repeat(8000), 'null', 'true', '%5B%5D'];
const alwaysInQueries = ['%00', '%E0'];
const DRAWN_QUERY_VALUES = 4;
const DRAWN_QUERY_KEYS = 3;
const DRAWN_BODIES = 8;

/** What a field of a body is replaced with: wrong types, huge, NUL, deep, prototype keys. */
const fieldValues: readonly unknown[] = [
  0,
  -1,
  1e308,
  2 ** 53 + 1,
  true,
  '',
  'a\u0000b',
  [],
  {},
  '\ud800',
  '%E0',
  '../../etc/passwd',
  '\u202e',
  JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
];
/** Sent in every field; the others are drawn. */
const alwaysInFields: readonly unknown[] = [null, 'x'.repeat(100_000), '\u0000', nested(2000)];
const DRAWN_FIELD_VALUES = 2;

/** Drawn per field: contract's free-text.test.ts tries every kind on every field without HTTP. */
const DRAWN_UNSAFE_CHARACTERS = 4;
/** The characters names refuse, one of each kind (contract's free-text.test.ts has them named). */
const unsafeCharacters = ['\u0000', '\u001b', '\r', '\u007f', '\u0085', '\u009b', '\u202e', '\u202a', '\u2066', '\u2069', '\u200f', '\u061c', '\u200b', '\ufeff', '\u2028', '\ud800'];

function pick<T>(list: readonly T[], count: number, random: () => number): T[] {
  const pool = [...list];
  const picked: T[] = [];
  while (picked.length < count && pool.length > 0) picked.push(...pool.splice(Math.floor(random() * pool.length), 1));
  return picked;
}

/** Every path to a value inside `value` (`['pack', 'rules', 0, 'title']`), containers too. */
function leafPaths(value: unknown, prefix: (string | number)[] = [], depth = 0): (string | number)[][] {
  if (depth > 6 || value === null || typeof value !== 'object') return prefix.length > 0 ? [prefix] : [];
  const own = prefix.length > 0 ? [prefix] : [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.slice(0, 1).map((item, index) => [index, item]) : Object.entries(value);
  return [...own, ...entries.flatMap(([key, item]) => leafPaths(item, [...prefix, key], depth + 1))];
}

function replaced(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(value) ? [...value] : value === undefined && typeof head === 'number' ? [] : { ...(value as object) };
  Object.defineProperty(copy, head!, { value: replaced(copy[head!], rest, replacement), enumerable: true, writable: true, configurable: true });
  return copy;
}

const show = (value: unknown) => {
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…(${text.length} chars)` : text;
};

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
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => changes.params?.[name] ?? encodeURIComponent(realParam(operation, name, own)));
  const query = changes.query ?? new URLSearchParams(target.query).toString();
  const headers: Record<string, string> = {};
  const key = changes.key === undefined ? own.key : changes.key;
  if (key !== null && !operation.public) headers.authorization = `Bearer ${key}`;
  const team = changes.team === undefined ? own.workspaceId : changes.team;
  if (operation.api === 'workspace' && operation.teamHeader !== false && team !== null) headers['x-service-team'] = team;
  let body: string | Buffer | undefined;
  if (operation.method !== 'GET') {
    body = changes.rawBody ?? (changes.body !== undefined ? JSON.stringify(changes.body) : target.body !== undefined ? JSON.stringify(target.body) : undefined);
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
      ...alwaysInPaths,
      ...pick(oddSegments, DRAWN_SEGMENTS, target.random),
      pick([randomUUID(), real.toUpperCase(), `${real}%20`], 1, target.random)[0]!,
      encodeURIComponent(realParam(operation, name, foreign)),
      ...pick(otherKinds.filter((id) => id !== real), 1, target.random),
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
    const values = [...alwaysInQueries, ...pick([...oddQueryValues, own.ids.reportId!, foreign.ids.reportId!, randomUUID()], DRAWN_QUERY_VALUES, random)];
    for (const value of values) {
      cases.push({ label: `query ${key}=${show(value)}`, request: build(target, { query: [rest, `${encodeURIComponent(key)}=${value}`].filter(Boolean).join('&') }) });
    }
    cases.push({ label: `query ${key} twice`, request: build(target, { query: [base, `${key}=a&${key}=b`].filter(Boolean).join('&') }) });
  }
  const oddKeys = ['__proto__=1', '__proto__[polluted]=1', 'constructor[prototype][polluted]=1', '%E0=1', 'a%00=1', `${'k'.repeat(2000)}=1`, 'limit=-1', 'limit=1e999', 'cursor=%00', 'cursor=../../x'];
  for (const odd of pick(oddKeys, DRAWN_QUERY_KEYS, random)) {
    cases.push({ label: `query ${show(odd)}`, request: build(target, { query: [base, odd].filter(Boolean).join('&') }) });
  }
  return cases;
}

function wholeBodyCases(target: FuzzTarget): FuzzCase[] {
  if (target.operation.method === 'GET') return [];
  const json = JSON.stringify(target.body ?? {});
  const objectBody = json.startsWith('{') && json !== '{}' ? json.slice(1) : '}';
  const glue = objectBody === '}' ? '' : ',';
  const raw = (label: string, rawBody: string | Buffer, contentType: string | null = 'application/json'): FuzzCase => ({
    label,
    request: build(target, { rawBody, contentType }),
  });
  const always = [
    raw('malformed JSON', '{"name":'),
    raw('2,000-deep arrays', deep(2000, '[', ']')),
    raw('a __proto__ key', `{"__proto__":{"polluted":true,"role":"owner","scopes":["team:admin"]}${glue}${objectBody}`),
    raw('text/plain', json, 'text/plain'),
  ];
  const drawn = [
    raw('a lone brace', '{'),
    raw('a trailing comma', '{"a":1,}'),
    raw('JSON and garbage after it', `${json}garbage`),
    raw('a NUL byte', '\u0000'),
    raw('an empty body', ''),
    raw('null', 'null'),
    raw('an array', '[]'),
    raw('a string', '"x"'),
    raw('a number', '0'),
    raw('true', 'true'),
    raw('2,000-deep objects', deep(2000, '{"a":', '}', '1')),
    raw('100,000-deep arrays', deep(100_000, '[', ']')),
    raw('a constructor.prototype key', `{"constructor":{"prototype":{"polluted":true}}${glue}${objectBody}`),
    raw('an unknown field', `{"zzUnknown":1${glue}${objectBody}`),
    raw('a 900 KB string', JSON.stringify({ name: 'x'.repeat(900_000) })),
    raw('1.1 MB', JSON.stringify({ name: 'x'.repeat(1_100_000) })),
    raw('a form', 'name=x&__proto__[polluted]=1', 'application/x-www-form-urlencoded'),
    raw('multipart with a broken boundary', '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc', 'multipart/form-data; boundary=x'),
    raw('multipart without a boundary', 'abc', 'multipart/form-data'),
    raw('JSON declared as UTF-16', Buffer.from(json, 'utf16le'), 'application/json; charset=utf-16'),
    raw('XML', '<a/>', 'application/xml'),
    raw('no content type', json, null),
    raw('a content type with odd parameters', json, 'application/json; charset=%E0; x="'),
    raw('an unknown media type', json, 'application/x-loupe-fuzz'),
  ];
  return [...always, ...pick(drawn, DRAWN_BODIES, target.random)];
}

function fieldCases(target: FuzzTarget): FuzzCase[] {
  if (target.operation.method === 'GET' || target.body === undefined) return [];
  return leafPaths(target.body).flatMap((path) =>
    [...alwaysInFields, ...pick(fieldValues, DRAWN_FIELD_VALUES, target.random)].map((value) => ({
      label: `body ${path.join('.')}=${show(value)}`,
      request: build(target, { body: replaced(target.body, path, value) }),
    })),
  );
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
      pick(unsafeCharacters, DRAWN_UNSAFE_CHARACTERS, target.random).map((character) => {
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
