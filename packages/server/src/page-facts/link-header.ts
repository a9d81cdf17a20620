/** One link of an HTTP `Link` header (RFC 8288): the target as written and its parameters. */
export interface HeaderLink {
  href: string;
  /** `rel` split into lower-cased tokens. */
  rel: string[];
  /** Every parameter by lower-cased name; quotes removed, the first occurrence kept. */
  params: Record<string, string>;
}

const PARAM = /^\s*;\s*([^\s=;,]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,\s]*)))?/;

/**
 * Parses `<https://a/>; rel="canonical", <https://a/de>; rel=alternate; hreflang=de`.
 * Commas inside `<…>` and inside quoted values do not split links. Malformed pieces are
 * skipped rather than failing the whole header.
 */
export function parseLinkHeader(value: string): HeaderLink[] {
  const links: HeaderLink[] = [];
  let rest = value;
  for (;;) {
    const open = rest.indexOf('<');
    if (open === -1) return links;
    const close = rest.indexOf('>', open + 1);
    if (close === -1) return links;
    const href = rest.slice(open + 1, close).trim();
    rest = rest.slice(close + 1);
    const params: Record<string, string> = {};
    for (let match = PARAM.exec(rest); match !== null; match = PARAM.exec(rest)) {
      const name = (match[1] as string).toLowerCase();
      const raw = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '');
      if (!Object.hasOwn(params, name)) params[name] = raw;
      rest = rest.slice(match[0].length);
    }
    const rel = (params.rel ?? '')
      .toLowerCase()
      .split(/\s+/)
      .filter((token) => token !== '');
    links.push({ href, rel, params });
  }
}
