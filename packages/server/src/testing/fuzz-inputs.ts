/**
 * The bad input of the fuzz passes, apart from any route: odd path segments and query values,
 * malformed bodies, and values to put in a body's fields. fuzz-cases.ts places them in the
 * registry's operations, route-fuzz-cases.ts and mcp-fuzz-cases.ts in the routes written by hand.
 * Each draw takes a seeded `random`, so a run is replayed from its seed.
 */

export const deep = (levels: number, open: string, close: string, inner = '') => open.repeat(levels) + inner + close.repeat(levels);
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
const oddQueryValues = [
  '',
  '-1',
  '0',
  '1e309',
  '99999999999999999999',
  '%C3%BC%F0%9F%98%80',
  '..',
  'x'.repeat(8000),
  'null',
  'true',
  '%5B%5D',
];
const alwaysInQueries = ['%00', '%E0'];
const DRAWN_QUERY_VALUES = 4;
/** Whole `key=value` pairs as sent. */
const oddQueryPairs = [
  '__proto__=1',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  '%E0=1',
  'a%00=1',
  `${'k'.repeat(2000)}=1`,
  'limit=-1',
  'limit=1e999',
  'cursor=%00',
  'cursor=../../x',
];
const DRAWN_QUERY_PAIRS = 3;
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
const unsafeCharacters = [
  '\u0000',
  '\u001b',
  '\r',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u202e',
  '\u202a',
  '\u2066',
  '\u2069',
  '\u200f',
  '\u061c',
  '\u200b',
  '\ufeff',
  '\u2028',
  '\ud800',
];

export function pick<T>(list: readonly T[], count: number, random: () => number): T[] {
  const pool = [...list];
  const picked: T[] = [];
  while (picked.length < count && pool.length > 0) picked.push(...pool.splice(Math.floor(random() * pool.length), 1));
  return picked;
}

/** A value for a case's label, cut short. */
export const show = (value: unknown) => {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 60)}…(${text.length} chars)` : text;
};

/** Every path to a value inside `value` (`['pack', 'rules', 0, 'title']`), containers too. */
export function leafPaths(value: unknown, prefix: (string | number)[] = [], depth = 0): (string | number)[][] {
  if (depth > 6 || value === null || typeof value !== 'object') return prefix.length > 0 ? [prefix] : [];
  const own = prefix.length > 0 ? [prefix] : [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.slice(0, 1).map((item, index) => [index, item])
    : Object.entries(value);
  return [...own, ...entries.flatMap(([key, item]) => leafPaths(item, [...prefix, key], depth + 1))];
}

/** A copy of `value` with the value at `path` replaced (a `__proto__` key stays an own key). */
export function replaced(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(value) ? [...value] : value === undefined && typeof head === 'number' ? [] : { ...(value as object) };
  Object.defineProperty(copy, head!, {
    value: replaced(copy[head!], rest, replacement),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

/** Path segments to put in place of a real one: the usual suspects and a few drawn. */
export function oddPathSegments(random: () => number): string[] {
  return [...alwaysInPaths, ...pick(oddSegments, DRAWN_SEGMENTS, random)];
}

/** Query values to put in place of a real one; `more` joins the drawn ones (ids of the wrong kind, say). */
export function oddQueryValuesFor(random: () => number, more: readonly string[] = []): string[] {
  return [...alwaysInQueries, ...pick([...oddQueryValues, ...more], DRAWN_QUERY_VALUES, random)];
}

/** Whole `key=value` pairs to add to a query. */
export function oddQueryPairsFor(random: () => number): string[] {
  return pick(oddQueryPairs, DRAWN_QUERY_PAIRS, random);
}

/** A body as sent, in place of a good one. */
export interface RawBody {
  label: string;
  body: string | Buffer;
  /** null sends no Content-Type. */
  contentType: string | null;
}

/** Malformed, odd or mistyped bodies, made around `json`, a good body's JSON text. */
export function badBodies(json: string, random: () => number): RawBody[] {
  const objectBody = json.startsWith('{') && json !== '{}' ? json.slice(1) : '}';
  const glue = objectBody === '}' ? '' : ',';
  const raw = (label: string, body: string | Buffer, contentType: string | null = 'application/json'): RawBody => ({
    label,
    body,
    contentType,
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
    raw(
      'multipart with a broken boundary',
      '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc',
      'multipart/form-data; boundary=x',
    ),
    raw('multipart without a boundary', 'abc', 'multipart/form-data'),
    raw('JSON declared as UTF-16', Buffer.from(json, 'utf16le'), 'application/json; charset=utf-16'),
    raw('XML', '<a/>', 'application/xml'),
    raw('no content type', json, null),
    raw('a content type with odd parameters', json, 'application/json; charset=%E0; x="'),
    raw('an unknown media type', json, 'application/x-loupe-fuzz'),
  ];
  return [...always, ...pick(drawn, DRAWN_BODIES, random)];
}

/** Values to put in a field: null, 100 KB, NUL, 2,000-deep, and a few drawn. */
export function badFieldValues(random: () => number): unknown[] {
  return [...alwaysInFields, ...pick(fieldValues, DRAWN_FIELD_VALUES, random)];
}

/** Copies of `body` with one field (at any depth) replaced by a bad value. */
export function badFields(body: unknown, random: () => number): { label: string; body: unknown }[] {
  return leafPaths(body).flatMap((path) =>
    badFieldValues(random).map((value) => ({ label: `body ${path.join('.')}=${show(value)}`, body: replaced(body, path, value) })),
  );
}

/** Characters a name must refuse, a few drawn. */
export function unsafeNameCharacters(random: () => number): string[] {
  return pick(unsafeCharacters, DRAWN_UNSAFE_CHARACTERS, random);
}
