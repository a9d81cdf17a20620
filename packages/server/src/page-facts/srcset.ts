/**
 * The URLs of a `srcset` attribute's candidates, following the HTML standard's parsing
 * algorithm closely enough for real pages: a URL runs to the next whitespace, so commas
 * inside it (`/w_100,h_100/a.jpg`, data: URIs) do not split it; trailing commas end a
 * candidate; descriptors (`2x`, `640w`) run to a comma outside parentheses.
 */
export function parseSrcset(value: string, limit: number): string[] {
  const urls: string[] = [];
  let position = 0;
  const length = value.length;
  while (position < length && urls.length < limit) {
    while (position < length && /[\s,]/.test(value[position] as string)) position++;
    if (position >= length) break;
    const start = position;
    while (position < length && !/\s/.test(value[position] as string)) position++;
    let url = value.slice(start, position);
    let endsCandidate = false;
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
      endsCandidate = true;
    }
    if (!endsCandidate) {
      let depth = 0;
      while (position < length) {
        const char = value[position] as string;
        if (char === '(') depth++;
        else if (char === ')' && depth > 0) depth--;
        else if (char === ',' && depth === 0) break;
        position++;
      }
    }
    if (url !== '') urls.push(url);
  }
  return urls;
}
