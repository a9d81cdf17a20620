import picomatch from 'picomatch';
import { normalizeUrl, sameSite } from '../page-facts/url-normalizer.ts';

export type ScopeVerdict = 'ok' | 'external' | 'excluded' | 'too-deep';

export interface ScopeOptions {
  /** The crawl's start URL or origin; only its scheme, host and port matter. */
  origin: string;
  /** Globs a URL must match one of to be crawled. Absent or empty: every internal URL. */
  include?: readonly string[];
  /** Globs that keep a URL out even when an include matches it. */
  exclude?: readonly string[];
  /** The deepest link depth crawled; the start page is depth 0. Absent: no limit. */
  maxDepth?: number;
}

/**
 * Decides whether a discovered URL belongs to the crawl (DESIGN.md §8 include/exclude and
 * maxDepth). Checked in this order, first answer wins: `external` (not http(s), or another
 * scheme, host or port than the origin; `www.` counts as another host), `excluded` (an
 * exclude glob matches, or include globs exist and none matches), `too-deep`
 * (`depth > maxDepth`), else `ok`.
 *
 * What a glob sees: the URL after normalizeUrl, so percent-encoded (`/caf%C3%A9`), case
 * kept, tracking parameters gone, no fragment. Each glob is tried against the path alone
 * (`/docs/intro`) and, when there is a query, against path and query together
 * (`/docs/intro?lang=en`); matching either counts. So `/docs/**` covers `/docs`,
 * `/docs/a/b` and `/docs/a?page=2`, and `/search?q=*` (the glob `?` matches the literal
 * `?`) covers `/search?q=shoes`. Picomatch syntax, with dotfiles matched: `*` stays within
 * one segment, `**` crosses segments, `{a,b}` and `[0-9]` work, matching is case-sensitive.
 * A glob not starting with `/` matches at any depth (a leading globstar segment is added,
 * so `*.pdf` matches `/a.pdf` and `/a/b/c.pdf`); negated globs (`!…`) are refused: use
 * exclude. Prefer `*.pdf` to the rooted globstar form, which in picomatch needs at least
 * one directory before the file name.
 */
export type ScopeFilter = (url: string, depth: number) => ScopeVerdict;

export function createScopeFilter(options: ScopeOptions): ScopeFilter {
  const origin = normalizeUrl(options.origin);
  if (origin === null) throw new TypeError(`The crawl origin is not an http(s) URL: ${options.origin}`);
  const include = compileGlobs(options.include ?? []);
  const exclude = compileGlobs(options.exclude ?? []);
  const maxDepth = options.maxDepth;

  return (url, depth) => {
    const normalized = normalizeUrl(url);
    if (normalized === null || !sameSite(normalized, origin)) return 'external';
    const targets = globTargets(new URL(normalized));
    if (exclude !== null && targets.some(exclude)) return 'excluded';
    if (include !== null && !targets.some(include)) return 'excluded';
    if (maxDepth !== undefined && depth > maxDepth) return 'too-deep';
    return 'ok';
  };
}

function globTargets(url: URL): string[] {
  return url.search === '' ? [url.pathname] : [url.pathname, url.pathname + url.search];
}

function compileGlobs(globs: readonly string[]): ((target: string) => boolean) | null {
  const patterns = globs.map((glob) => glob.trim()).filter((glob) => glob !== '');
  if (patterns.length === 0) return null;
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) throw new TypeError(`Negated glob "${pattern}": list it under exclude instead.`);
  }
  return picomatch(
    patterns.map((pattern) => (pattern.startsWith('/') ? pattern : `**/${pattern}`)),
    { dot: true },
  );
}
