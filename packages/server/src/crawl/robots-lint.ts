/** What is wrong with a robots.txt, as `robots/invalid` reports it. */
export interface RobotsProblems {
  /** Lines with a problem. */
  count: number;
  /** Up to three: `line 4: unknown directive "Dissallow"`. */
  samples: string[];
}

/** Directives crawlers act on, and the ones Lighthouse accepts beside them (core/audits/seo/robots-txt.js). */
const KNOWN_DIRECTIVES = new Set([
  'user-agent',
  'allow',
  'disallow',
  'sitemap',
  'crawl-delay',
  'clean-param',
  'host',
  'request-rate',
  'visit-time',
  'noindex',
]);
const SITEMAP_PROTOCOLS = new Set(['http:', 'https:', 'ftp:']);
const MAX_SAMPLES = 3;
/** A sample quotes at most this much of the line. */
const QUOTED_CHARS = 60;

/**
 * Checks each line of a robots.txt the way Lighthouse's `robots-txt` audit does
 * (audit-checks.md §1 `robots/invalid`): a line without a colon, an unknown directive, an
 * allow or disallow before any user-agent, a pattern that is neither empty nor starts with
 * `/` or `*`, a `$` anywhere but at the end, an empty user-agent, a Sitemap that is not a
 * URL or not http(s)/ftp. Comments and blank lines are ignored. Crawlers skip such lines,
 * so the rule they were meant to make does not hold.
 */
export function lintRobotsTxt(text: string): RobotsProblems {
  const problems: RobotsProblems = { count: 0, samples: [] };
  let inGroup = false;
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') return;
    const problem = lineProblem(line, inGroup);
    if (/^user-agent\s*:/i.test(line)) inGroup = true;
    if (problem === null) return;
    problems.count += 1;
    if (problems.samples.length < MAX_SAMPLES) problems.samples.push(`line ${index + 1}: ${problem}`);
  });
  return problems;
}

function lineProblem(line: string, inGroup: boolean): string | null {
  const colon = line.indexOf(':');
  if (colon === -1) return `no colon in "${quote(line)}"`;
  const directive = line.slice(0, colon).trim().toLowerCase();
  const value = line.slice(colon + 1).trim();
  if (!KNOWN_DIRECTIVES.has(directive)) return `unknown directive "${quote(line.slice(0, colon).trim())}"`;
  switch (directive) {
    case 'user-agent':
      return value === '' ? 'empty user-agent' : null;
    case 'allow':
    case 'disallow':
      if (!inGroup) return `${directive} before any user-agent`;
      if (value !== '' && !value.startsWith('/') && !value.startsWith('*')) return `pattern "${quote(value)}" does not start with / or *`;
      if (value.includes('$') && value.indexOf('$') !== value.length - 1)
        return `"$" inside the pattern "${quote(value)}" (only at its end)`;
      return null;
    case 'sitemap': {
      const url = URL.parse(value);
      if (url === null) return `sitemap "${quote(value)}" is not a URL`;
      return SITEMAP_PROTOCOLS.has(url.protocol) ? null : `sitemap "${quote(value)}" is not http(s) or ftp`;
    }
    default:
      return null;
  }
}

function quote(text: string): string {
  const points = [...text];
  return points.length <= QUOTED_CHARS ? text : `${points.slice(0, QUOTED_CHARS - 1).join('')}…`;
}
