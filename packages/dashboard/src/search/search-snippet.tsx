import { snippetParts } from './snippet-parts.ts';

/** A hit's snippet with its matched words in `<mark>` elements built by React, not parsed by the browser. */
export function SearchSnippet({ snippet }: { snippet: string }) {
  return (
    <p className="snippet">
      {snippetParts(snippet).map((part, index) =>
        part.marked ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
      )}
    </p>
  );
}
