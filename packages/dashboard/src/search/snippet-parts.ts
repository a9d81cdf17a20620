/** A run of a search snippet's text, and whether the search matched it. */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** The text an HTML entity stands for; an unknown one stays as written. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] !== '#') return named[body.toLowerCase()] ?? entity;
    const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

/**
 * A snippet of `searchProject` (escaped HTML whose only elements are `<mark>…</mark>`) as text
 * runs, so the dashboard renders the marks as elements and everything else as text, and
 * never hands the API's HTML to the browser's parser. Anything but `<mark>` and `</mark>`
 * is text, so a snippet that broke the contract would show its markup, not run it.
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let marked = false;
  for (const piece of snippet.split(/(<\/?mark>)/i)) {
    const tag = piece.toLowerCase();
    if (tag === '<mark>') marked = true;
    else if (tag === '</mark>') marked = false;
    else if (piece !== '') {
      const text = decodeEntities(piece);
      const last = parts.at(-1);
      if (last && last.marked === marked) last.text += text;
      else parts.push({ text, marked });
    }
  }
  return parts;
}
