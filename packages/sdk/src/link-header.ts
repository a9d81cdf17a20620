/**
 * The target of the `rel="next"` link in an RFC 8288 `Link` header, as written (often a path
 * relative to the request), or undefined when there is none: the last page.
 */
export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  // Each link is `<target>` followed by `; name=value` parameters; links are comma-separated.
  for (const match of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]*)*)/g)) {
    for (const parameter of match[2]!.split(';')) {
      const [name, ...rest] = parameter.split('=');
      if (name?.trim().toLowerCase() !== 'rel') continue;
      const relations = rest.join('=').trim().replace(/^"|"$/g, '').toLowerCase().split(/\s+/);
      if (relations.includes('next')) return match[1];
    }
  }
  return undefined;
}
