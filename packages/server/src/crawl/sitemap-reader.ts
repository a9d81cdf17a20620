import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { normalizeUrl } from '../page-facts/url-normalizer.ts';

/** GETs a URL (following redirects); null when there was no HTTP answer. */
export type FetchBytes = (url: string) => Promise<{ status: number; body: Buffer; contentType?: string } | null>;

export interface SitemapLimits {
  /** URLs kept in `urls`; once reached, no further file is fetched. */
  maxUrls: number;
  /** Entries in `files`, so fetches (a start URL that is not http(s) takes one too). */
  maxFiles: number;
  /** Bytes of one file, as received and again once decompressed (sitemaps.org: 50 MB). */
  maxBytesPerFile: number;
}

export interface SitemapUrl {
  loc: string;
  /** The `<lastmod>` text as written, trimmed; not checked for a valid date. */
  lastmod?: string;
  /** The sitemap file that listed it. */
  sitemap: string;
}

export interface SitemapFile {
  url: string;
  /** HTTP status; 0 when there was no answer or the URL was refused before fetching. */
  status: number;
  /** `text`: a plain list of URLs, one per line (sitemaps.org "Text file"). */
  kind: 'urlset' | 'index' | 'text' | 'invalid';
  error?: string;
  /** Usable `<loc>` entries the file lists: page URLs, or child sitemaps for an index. */
  urlCount: number;
  /** Entries whose `<loc>` (or line) is missing, relative or not http(s). */
  invalidLocs: number;
  /** The namespace URI the root element declares, when it declares one. */
  namespace?: string;
}

export interface SitemapReadResult {
  urls: SitemapUrl[];
  files: SitemapFile[];
  /** Some URLs were dropped, or files left unread, because `maxUrls` was reached. */
  urlsCapped: boolean;
  /** Some files were left unread because `maxFiles` was reached. */
  filesCapped: boolean;
}

/** The namespace sitemaps.org requires on `<urlset>` and `<sitemapindex>`. */
export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const gunzipAsync = promisify(gunzip);

interface FileContents {
  record: SitemapFile;
  entries: { loc: string; lastmod?: string }[];
  children: string[];
}

/**
 * Reads sitemaps breadth-first from `startUrls` (robots.txt `Sitemap:` lines, or
 * `/sitemap.xml`), following `<sitemapindex>` files into their children. Each file is
 * fetched at most once (compared after normalizeUrl), within the limits. A file is gzip
 * when its first bytes are 1f 8b, whatever its name or Content-Type; it is decompressed off
 * the main thread with zlib's `maxOutputLength`, so a zip bomb stops at `maxBytesPerFile`.
 * XML is parsed with fast-xml-parser with entity processing off, so a DOCTYPE's entities
 * are never expanded; we decode only the five predefined entities and character references.
 * Namespace prefixes are ignored. Anything that does not start with `<` is read as a text
 * sitemap when its first line is an absolute http(s) URL.
 *
 * Every `<loc>` must be an absolute http(s) URL (as sitemaps.org and Google require); it is
 * trimmed and normalized, never resolved against the sitemap's address. URLs on other hosts
 * are kept, with the file that listed them, for the audit to judge; `urls` holds each
 * normalized URL once (the first listing wins).
 */
export async function readSitemaps(
  startUrls: readonly string[],
  fetchBytes: FetchBytes,
  limits: SitemapLimits,
): Promise<SitemapReadResult> {
  const result: SitemapReadResult = { urls: [], files: [], urlsCapped: false, filesCapped: false };
  const queued = new Set<string>();
  const queue: string[] = [];
  const enqueue = (url: string) => {
    if (queued.has(url)) return;
    queued.add(url);
    queue.push(url);
  };
  for (const start of startUrls) {
    const url = normalizeUrl(start.trim());
    if (url !== null) enqueue(url);
    else if (result.files.length < limits.maxFiles) result.files.push(invalid(start, 0, 'Not an absolute http(s) URL.'));
    else result.filesCapped = true;
  }

  const listed = new Set<string>();
  for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
    if (result.urls.length >= limits.maxUrls) {
      result.urlsCapped = true;
      break;
    }
    if (result.files.length >= limits.maxFiles) {
      result.filesCapped = true;
      break;
    }
    const contents = await readFile(url, fetchBytes, limits.maxBytesPerFile);
    result.files.push(contents.record);
    for (const child of contents.children) enqueue(child);
    for (const entry of contents.entries) {
      if (listed.has(entry.loc)) continue;
      if (result.urls.length >= limits.maxUrls) {
        result.urlsCapped = true;
        break;
      }
      listed.add(entry.loc);
      result.urls.push({ ...entry, sitemap: url });
    }
  }
  return result;
}

async function readFile(url: string, fetchBytes: FetchBytes, maxBytes: number): Promise<FileContents> {
  let answer: Awaited<ReturnType<FetchBytes>>;
  try {
    answer = await fetchBytes(url);
  } catch (error) {
    return empty(invalid(url, 0, `Fetch failed: ${(error as Error).message}`));
  }
  if (answer === null) return empty(invalid(url, 0, 'No response.'));
  const { status, body, contentType } = answer;
  if (status < 200 || status > 299) return empty(invalid(url, status, `HTTP ${status}.`));
  if (body.length > maxBytes) return empty(invalid(url, status, `Larger than ${maxBytes} bytes.`));

  let bytes: Buffer;
  try {
    bytes = await gunzipCapped(body, maxBytes);
  } catch (error) {
    const tooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
    const reason = tooLarge ? `Larger than ${maxBytes} bytes once decompressed.` : `Bad gzip data: ${(error as Error).message}`;
    return empty(invalid(url, status, reason));
  }

  // TextDecoder drops a UTF-8 byte-order mark; sitemaps must be UTF-8.
  const text = new TextDecoder().decode(bytes);
  if (text.trimStart().startsWith('<')) return readXml(url, status, text);
  const firstLine = text.trimStart().split(/\r\n|\r|\n/, 1)[0] as string;
  if (normalizeUrl(firstLine.trim()) !== null) return readText(url, status, text);
  const served = contentType ? ` (served as ${contentType})` : '';
  return empty(invalid(url, status, `Neither XML nor a list of URLs${served}.`));
}

/** Up to two gzip layers: a `.xml.gz` file that the server also sent with Content-Encoding: gzip. */
async function gunzipCapped(body: Buffer, maxBytes: number): Promise<Buffer> {
  let bytes = body;
  for (let layer = 0; layer < 2 && bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b; layer++) {
    bytes = await gunzipAsync(bytes, { maxOutputLength: Math.max(1, maxBytes) });
  }
  return bytes;
}

const xmlParser = new XMLParser({
  removeNSPrefix: true,
  parseTagValue: false,
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  tagValueProcessor: (_name, value) => decodeXmlText(value),
});

function readXml(url: string, status: number, text: string): FileContents {
  let document: Record<string, unknown>;
  try {
    const valid = XMLValidator.validate(text);
    if (valid !== true) throw new Error(valid.err.msg);
    document = xmlParser.parse(text) as Record<string, unknown>;
  } catch (error) {
    return empty(invalid(url, status, `XML does not parse: ${(error as Error).message}`));
  }
  const rootName = Object.keys(document)[0];
  const root = document[rootName ?? ''];
  const namespace = rootNamespace(text);
  const base = { url, status, invalidLocs: 0, ...(namespace === undefined ? {} : { namespace }) };

  if (rootName === 'urlset') {
    const entries: FileContents['entries'] = [];
    let invalidLocs = 0;
    for (const entry of asArray(child(root, 'url'))) {
      const loc = normalizeUrl(textOf(child(entry, 'loc')) ?? '');
      if (loc === null) {
        invalidLocs++;
        continue;
      }
      const lastmod = textOf(child(entry, 'lastmod'));
      entries.push(lastmod ? { loc, lastmod } : { loc });
    }
    return { record: { ...base, kind: 'urlset', urlCount: entries.length, invalidLocs }, entries, children: [] };
  }
  if (rootName === 'sitemapindex') {
    const children: string[] = [];
    let invalidLocs = 0;
    for (const entry of asArray(child(root, 'sitemap'))) {
      const loc = normalizeUrl(textOf(child(entry, 'loc')) ?? '');
      if (loc === null) invalidLocs++;
      else children.push(loc);
    }
    return { record: { ...base, kind: 'index', urlCount: children.length, invalidLocs }, entries: [], children };
  }
  const found = rootName === undefined ? 'no root element' : `root element <${rootName}>`;
  return empty({ ...invalid(url, status, `Not a sitemap: ${found}.`), ...base, kind: 'invalid' });
}

function readText(url: string, status: number, text: string): FileContents {
  const entries: FileContents['entries'] = [];
  let invalidLocs = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.trim() === '') continue;
    const loc = normalizeUrl(line.trim());
    if (loc === null) invalidLocs++;
    else entries.push({ loc });
  }
  return { record: { url, status, kind: 'text', urlCount: entries.length, invalidLocs }, entries, children: [] };
}

/** The namespace declared on the first `<urlset>` or `<sitemapindex>` start tag, prefix honoured. */
function rootNamespace(text: string): string | undefined {
  const tag = /<(?:([A-Za-z_][\w.-]*):)?(?:urlset|sitemapindex)\b([^>]*)>/.exec(text);
  if (tag === null) return undefined;
  const attribute = tag[1] === undefined ? 'xmlns' : `xmlns:${tag[1]}`;
  const declaration = new RegExp(`\\s${attribute}\\s*=\\s*(["'])(.*?)\\1`).exec(tag[2] ?? '');
  return declaration?.[2];
}

const PREDEFINED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML's five predefined entities and character references; anything else stays as written. */
function decodeXmlText(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g, (whole, dec, hex, name) => {
    if (name !== undefined) return PREDEFINED_ENTITIES[name as string] as string;
    const code = dec !== undefined ? Number.parseInt(dec as string, 10) : Number.parseInt(hex as string, 16);
    const isScalar = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return isScalar ? String.fromCodePoint(code) : whole;
  });
}

function child(node: unknown, name: string): unknown {
  return typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[name] : undefined;
}

function asArray(value: unknown): unknown[] {
  if (value === undefined || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

function textOf(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim() : undefined;
}

function invalid(url: string, status: number, error: string): SitemapFile {
  return { url, status, kind: 'invalid', error, urlCount: 0, invalidLocs: 0 };
}

function empty(record: SitemapFile): FileContents {
  return { record, entries: [], children: [] };
}
