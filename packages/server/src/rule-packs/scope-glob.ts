import { RE2JS } from 're2js';

const REGEX_META = /[\\.+*?()|[\]{}^$]/g;

/** Splits at `/` outside `[…]` and `{…}`. */
function segmentsOf(glob: string): string[] {
  const segments: string[] = [];
  let current = '';
  let braces = 0;
  let bracket = false;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === '\\' && i + 1 < glob.length) {
      current += char + glob[++i];
      continue;
    }
    if (bracket) bracket = char !== ']';
    else if (char === '[') bracket = true;
    else if (char === '{') braces++;
    else if (char === '}' && braces > 0) braces--;
    else if (char === '/' && braces === 0) {
      segments.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  segments.push(current);
  return segments;
}

/** One segment (no globstar) as RE2: `*` and `?` stay inside the segment, `{a,b}` alternates, `[…]` is a class. */
function segmentRegex(segment: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i] as string;
    if (char === '\\' && i + 1 < segment.length) {
      out += (segment[++i] as string).replace(REGEX_META, '\\$&');
    } else if (char === '*') {
      while (segment[i + 1] === '*') i++;
      out += '[^/]*';
    } else if (char === '?') {
      out += '[^/]';
    } else if (char === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      out += negated ? `[^/${body}]` : `[${body}]`;
      i = close;
    } else if (char === '{' && segment.indexOf('}', i) !== -1) {
      braces++;
      out += '(?:';
    } else if (char === ',' && braces > 0) {
      out += '|';
    } else if (char === '}' && braces > 0) {
      braces--;
      out += ')';
    } else {
      out += char.replace(REGEX_META, '\\$&');
    }
  }
  return out + ')'.repeat(braces);
}

/**
 * A scope glob, picomatch-style (`*` within a segment, `**` across segments, `?`, `[…]`,
 * `{a,b}`), translated to RE2 so that a hostile glob runs in linear time: picomatch's own
 * output is a backtracking JavaScript RegExp, and `**∕*a*a*a*a*a*a*a*b` against a long path
 * hangs it. A glob not starting with `/` matches at any depth (like a crawl's include and
 * exclude); one containing `?` is matched against the path and query.
 */
export class ScopeGlob {
  readonly glob: string;
  readonly usesQuery: boolean;
  readonly #regex: RE2JS;

  /** Throws a TypeError, or RE2JS's syntax error, for a glob that cannot be compiled. */
  constructor(glob: string) {
    if (glob.startsWith('!')) throw new TypeError('Negated globs are not supported: list the pattern under exclude.');
    this.glob = glob;
    this.usesQuery = glob.includes('?');
    const rooted = glob.startsWith('/') ? glob : `**/${glob}`;
    const segments = segmentsOf(rooted).filter((segment, i, all) => !(segment === '**' && all[i - 1] === '**'));
    let source = '';
    segments.forEach((segment, i) => {
      const last = i === segments.length - 1;
      if (segment !== '**') {
        source += (i > 0 && segments[i - 1] !== '**' ? '/' : '') + segmentRegex(segment);
      } else if (segments.length === 1) {
        source += '.*';
      } else if (i === 0) {
        source += '(?:.*/)?';
      } else if (last) {
        source += '(?:/.*)?';
      } else {
        source += '/(?:.*/)?';
      }
    });
    this.#regex = RE2JS.compile(source, RE2JS.DOTALL);
  }

  test(target: { path: string; pathAndQuery: string }): boolean {
    return this.#regex.matches(this.usesQuery ? target.pathAndQuery : target.path);
  }
}
