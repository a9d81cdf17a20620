/** Markup that is already safe: built by `html`, so every string inside it was escaped. */
export class SafeHtml {
  readonly markup: string;
  constructor(markup: string) {
    this.markup = markup;
  }
  toString(): string {
    return this.markup;
  }
}

/** What `html` accepts between `${}`: text is escaped, `SafeHtml` kept, empty values dropped. */
export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

/** The characters escapeHtml replaces, and their entities. */
export const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an element's content or a quoted attribute value (either quote). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char]!);
}

/**
 * A template tag that escapes every interpolated string, so text from crawled pages cannot
 * become markup even where a call to `escapeHtml` would have been forgotten. Attributes in
 * the template must be quoted.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let markup = strings[0]!;
  values.forEach((value, index) => {
    markup += render(value) + strings[index + 1]!;
  });
  return new SafeHtml(markup);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}
