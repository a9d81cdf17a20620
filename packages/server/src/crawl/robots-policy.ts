import robotsParserModule from 'robots-parser';
import { normalizeUrl } from '../page-facts/url-normalizer.ts';
import { lintRobotsTxt, type RobotsProblems } from './robots-lint.ts';

/**
 * - `ok`: 2xx, the file was parsed.
 * - `missing`: 3xx (redirects not resolved by the fetcher) or 4xx other than 429: no
 *   rules, everything allowed.
 * - `error`: 5xx, 429 or any other status: everything disallowed.
 * - `unreachable`: no HTTP answer at all (the fetcher gave null or threw): everything
 *   disallowed.
 */
export type RobotsStatus = 'ok' | 'missing' | 'unreachable' | 'error';

/** GETs a URL (following redirects) and answers its status and text, or null without an answer. */
export type FetchText = (url: string) => Promise<{ status: number; body: string } | null>;

/** Google reads the first 500 KiB of a robots.txt and ignores the rest. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

/** An arbitrary path that no robots.txt names on purpose; see `blocksAll`. */
const PROBE_PATH = '/loupe-robots-probe/page.html';
const DISALLOW_ALL = 'User-agent: *\nDisallow: /\n';
/** The groups the catalog asks about when it says "disallowed in robots.txt" (audit-checks.md §1). */
const SEARCH_ENGINE_AGENTS = ['*', 'Googlebot'];

// robots-parser's types declare an ES default export, but the package is CommonJS
// (`module.exports = fn`), so under Node's interop the default import is the function.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;
type ParsedRobots = ReturnType<typeof robotsParser>;

/**
 * What one origin's robots.txt lets our crawler do. It speaks only for its own scheme, host
 * and port (RFC 9309 §2.3): URLs elsewhere are not governed by it and answer allowed.
 */
export class RobotsPolicy {
  /** The robots.txt URL asked for. */
  readonly url: string;
  readonly status: RobotsStatus;
  /** The final HTTP status, or null when there was no answer. */
  readonly httpStatus: number | null;
  /**
   * True when nothing can be crawled: the file could not be read (`error`, `unreachable`),
   * or both the root `/` and an arbitrary path are disallowed for our agent, which is what
   * `Disallow: /` without an `Allow` re-opening the root amounts to.
   */
  readonly blocksAll: boolean;
  /** The lines of a file read (`ok`) that crawlers cannot use (`robots/invalid`); none otherwise. */
  readonly problems: RobotsProblems;
  readonly #robots: ParsedRobots;
  readonly #agent: string;

  constructor(
    url: string,
    status: RobotsStatus,
    httpStatus: number | null,
    robots: ParsedRobots,
    agent: string,
    problems: RobotsProblems = { count: 0, samples: [] },
  ) {
    this.url = url;
    this.status = status;
    this.httpStatus = httpStatus;
    this.problems = problems;
    this.#robots = robots;
    this.#agent = agent;
    this.blocksAll = !this.isAllowed('/') && !this.isAllowed(PROBE_PATH);
  }

  /** Whether our agent may fetch `url` (absolute, or a path resolved against the origin). */
  isAllowed(url: string): boolean {
    const target = URL.parse(url, this.url);
    if (target === null) return false;
    return this.#robots.isAllowed(target.href, this.#agent) ?? true;
  }

  /**
   * The search engines' groups (`*` and Googlebot, each falling back to `*` as Google does)
   * whose rules disallow `url`. Only a file that was read has rules to tell: an unreadable
   * one blocks everything, but says nothing about what the site meant to hide.
   */
  disallowedForSearchEngines(url: string): string[] {
    if (this.status !== 'ok') return [];
    const target = URL.parse(url, this.url);
    if (target === null) return [];
    return SEARCH_ENGINE_AGENTS.filter((agent) => this.#robots.isAllowed(target.href, agent) === false);
  }

  /**
   * The Crawl-delay of the group that applies to us, in milliseconds (fractions of a second
   * allowed); undefined when absent, not a number or negative. Google ignores Crawl-delay;
   * we honour it, and capping a silly value is the crawler's call.
   */
  crawlDelayMs(): number | undefined {
    const seconds = this.#robots.getCrawlDelay(this.#agent);
    if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return undefined;
    return Math.round(seconds * 1000);
  }

  /**
   * The `Sitemap:` URLs (any group, anywhere in the file), normalized, resolved against the
   * robots.txt URL when relative, without duplicates or non-http(s) entries.
   */
  sitemaps(): string[] {
    const found = new Set<string>();
    for (const entry of this.#robots.getSitemaps()) {
      const url = normalizeUrl(entry, this.url);
      if (url !== null) found.add(url);
    }
    return [...found];
  }
}

/**
 * Fetches and parses `origin`'s /robots.txt the way Google does
 * (developers.google.com/search/docs/crawling-indexing/robots/robots_txt): 2xx is parsed;
 * 4xx (but 429) means no restrictions; 5xx, 429 and no answer at all mean the whole site is
 * disallowed (Google pauses crawling; we do not keep a cached copy to fall back on).
 * Only the first 500 KiB are read, cut back to the last complete line. `userAgent` is our
 * product token (RFC 9309 §2.2.1), e.g. `LoupeBot`; from a longer string such as
 * `LoupeBot/1.0 (+https://…)` only the leading letters, `_` and `-` are used. The group
 * naming that token (case-insensitively; groups naming it several times are merged) wins,
 * else the `*` group, else no rules.
 */
export async function loadRobots(origin: string, fetchText: FetchText, userAgent: string): Promise<RobotsPolicy> {
  const base = normalizeUrl(origin);
  if (base === null) throw new TypeError(`Not an http(s) origin: ${origin}`);
  const url = new URL('/robots.txt', base).href;
  const agent = /^[A-Za-z_-]+/.exec(userAgent.trim())?.[0] ?? '*';

  let answer: { status: number; body: string } | null;
  try {
    answer = await fetchText(url);
  } catch {
    answer = null;
  }
  if (answer === null) return new RobotsPolicy(url, 'unreachable', null, robotsParser(url, DISALLOW_ALL), agent);

  const status = statusOf(answer.status);
  const contents = status === 'ok' ? readable(answer.body) : status === 'missing' ? '' : DISALLOW_ALL;
  return new RobotsPolicy(
    url,
    status,
    answer.status,
    robotsParser(url, contents),
    agent,
    status === 'ok' ? lintRobotsTxt(contents) : undefined,
  );
}

function statusOf(httpStatus: number): RobotsStatus {
  if (httpStatus >= 200 && httpStatus < 300) return 'ok';
  if (httpStatus >= 300 && httpStatus < 500 && httpStatus !== 429) return 'missing';
  return 'error';
}

/** The part of the file Google would read: a leading BOM dropped, at most 500 KiB of whole lines. */
function readable(body: string): string {
  const text = body.startsWith('\uFEFF') ? body.slice(1) : body;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= ROBOTS_MAX_BYTES) return text;
  const head = bytes.subarray(0, ROBOTS_MAX_BYTES);
  const lastBreak = Math.max(head.lastIndexOf(0x0a), head.lastIndexOf(0x0d));
  return head.subarray(0, lastBreak > 0 ? lastBreak : head.length).toString('utf8');
}
