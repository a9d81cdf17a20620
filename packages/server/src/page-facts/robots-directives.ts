/**
 * Indexing directives from `<meta name="robots|googlebot">` and the `X-Robots-Tag` header,
 * as Google documents them (developers.google.com/search/docs/crawling-indexing/robots-meta-tag).
 * Names are case-insensitive; `none` means `noindex, nofollow`, so it sets both as well.
 */
export interface RobotsDirectives {
  noindex: boolean;
  nofollow: boolean;
  none: boolean;
  nosnippet: boolean;
  noarchive: boolean;
  noimageindex: boolean;
  /** The smallest `max-snippet` given (`-1` = no limit, `0` = no snippet); null when absent. */
  maxSnippet: number | null;
  /** The raw date of `unavailable_after`; the check compares it with the crawl's clock. */
  unavailableAfter: string | null;
}

export function noRobotsDirectives(): RobotsDirectives {
  return {
    noindex: false,
    nofollow: false,
    none: false,
    nosnippet: false,
    noarchive: false,
    noimageindex: false,
    maxSnippet: null,
    unavailableAfter: null,
  };
}

/** Directives that take a value after a colon; any other `word:` prefix names a user agent. */
const VALUED = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

/** The agents whose directives Loupe obeys: everyone's, and Googlebot's. */
const OUR_AGENTS = new Set(['googlebot']);

/** Adds the directives of one meta robots/googlebot `content` into `into`. */
export function applyRobotsContent(content: string, into: RobotsDirectives): void {
  for (const token of splitDirectives(content)) applyToken(token, into);
}

/**
 * Adds the directives of an `X-Robots-Tag` value that apply to every crawler or to
 * Googlebot. A `name:` prefix that is not a directive (`otherbot: noindex, nofollow`)
 * scopes the tokens after it to that agent, as in Google's examples. Repeated header lines
 * arrive joined by ", ", so a scope may leak into the next line; that only over-reports a
 * directive when a line for another bot comes before an unscoped one.
 */
export function applyXRobotsTag(value: string, into: RobotsDirectives): void {
  let agent: string | null = null;
  for (let token of splitDirectives(value)) {
    const prefixed = /^([a-z0-9_-]+)\s*:\s*(.*)$/is.exec(token);
    if (prefixed && !VALUED.has((prefixed[1] as string).toLowerCase())) {
      agent = (prefixed[1] as string).toLowerCase();
      token = prefixed[2] as string;
      if (token === '') continue;
    }
    if (agent === null || OUR_AGENTS.has(agent)) applyToken(token, into);
  }
}

/** The page's directives by source, and both together: what `indexability/*` decides on. */
export function robotsFacts(
  meta: RobotsDirectives,
  xRobotsTag: string | undefined,
): { meta: RobotsDirectives; header: RobotsDirectives; combined: RobotsDirectives } {
  const header = noRobotsDirectives();
  if (xRobotsTag !== undefined) applyXRobotsTag(xRobotsTag, header);
  const combined = noRobotsDirectives();
  mergeRobotsDirectives(combined, meta);
  mergeRobotsDirectives(combined, header);
  return { meta, header, combined };
}

/** Merges `from` into `into`: any restriction in either holds. */
function mergeRobotsDirectives(into: RobotsDirectives, from: RobotsDirectives): void {
  into.noindex ||= from.noindex;
  into.nofollow ||= from.nofollow;
  into.none ||= from.none;
  into.nosnippet ||= from.nosnippet;
  into.noarchive ||= from.noarchive;
  into.noimageindex ||= from.noimageindex;
  if (from.maxSnippet !== null) setMaxSnippet(into, from.maxSnippet);
  into.unavailableAfter ??= from.unavailableAfter;
}

/**
 * Splits on commas, then glues back a date that an RFC 850 `unavailable_after` value
 * ("Friday, 25-Jun-10 15:00:00 GMT") had split at its own comma.
 */
function splitDirectives(value: string): string[] {
  const tokens: string[] = [];
  for (const piece of value.split(',')) {
    const token = piece.trim();
    const last = tokens[tokens.length - 1];
    if (last !== undefined && /unavailable_after\s*:\s*[a-z]+$/i.test(last) && /^\d/.test(token)) {
      tokens[tokens.length - 1] = `${last}, ${token}`;
    } else if (token !== '') {
      tokens.push(token);
    }
  }
  return tokens;
}

function applyToken(token: string, into: RobotsDirectives): void {
  const colon = token.indexOf(':');
  const name = (colon === -1 ? token : token.slice(0, colon)).trim().toLowerCase();
  const value = colon === -1 ? '' : token.slice(colon + 1).trim();
  switch (name) {
    case 'noindex':
      into.noindex = true;
      break;
    case 'nofollow':
      into.nofollow = true;
      break;
    case 'none':
      into.none = true;
      into.noindex = true;
      into.nofollow = true;
      break;
    case 'nosnippet':
      into.nosnippet = true;
      break;
    case 'noarchive':
      into.noarchive = true;
      break;
    case 'noimageindex':
      into.noimageindex = true;
      break;
    case 'max-snippet': {
      const limit = Number.parseInt(value, 10);
      if (Number.isFinite(limit)) setMaxSnippet(into, limit);
      break;
    }
    case 'unavailable_after':
      if (value !== '') into.unavailableAfter ??= value;
      break;
    default:
      break; // all, notranslate, max-image-preview, … restrict nothing a check reads
  }
}

function setMaxSnippet(into: RobotsDirectives, limit: number): void {
  if (limit < 0) {
    into.maxSnippet ??= -1;
  } else {
    into.maxSnippet = into.maxSnippet === null || into.maxSnippet < 0 ? limit : Math.min(into.maxSnippet, limit);
  }
}
