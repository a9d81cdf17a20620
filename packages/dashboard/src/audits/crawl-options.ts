import { type CrawlDefaults, LoupeError, StartCrawl } from '@loupe/contract';

const shape = StartCrawl.shape;

/** A StartCrawl field's default, read from the contract (so the form's placeholders never drift from the server). */
export function defaultOf(name: keyof typeof shape): unknown {
  const def = shape[name].def as { type: string; defaultValue?: unknown };
  return def.type === 'default' ? def.defaultValue : undefined;
}

/** A numeric StartCrawl field's bounds, for the control's min and max. */
export function boundsOf(name: 'maxPages' | 'maxDepth' | 'concurrency' | 'delayMs'): { min: number; max: number } {
  // Optional or with a default, the number is the field's inner type.
  const number = shape[name].unwrap();
  return { min: number.minValue ?? 0, max: number.maxValue ?? Number.MAX_SAFE_INTEGER };
}

/** A StartCrawl field's description in the contract, shown as the control's hint. */
export function descriptionOf(name: keyof typeof shape): string | undefined {
  // The contract writes for Markdown (OpenAPI); a hint is plain text.
  return shape[name].description?.replaceAll('`', '');
}

/** The yes/no options, each a select whose blank choice leaves the default. */
export const YES_NO_OPTIONS = ['respectRobots', 'sitemaps', 'checkExternalLinks'] as const;

const lines = (text: string | undefined) =>
  (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * Reads the option controls of a form (named `<prefix><option>`, see CrawlOptionsFields) into
 * crawl options, leaving out every blank one so that it falls through to the next layer
 * (project default, then the server's). A header line without a colon is refused here, at its
 * field, in the API's own error shape.
 */
export function crawlOptionsFromFields(fields: Record<string, string>, prefix = ''): CrawlDefaults {
  const read = (name: string) => {
    const value = fields[prefix + name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const options: CrawlDefaults = {};
  const mode = read('mode');
  if (mode === 'site' || mode === 'page') options.mode = mode;
  for (const name of ['maxPages', 'maxDepth', 'concurrency', 'delayMs'] as const) {
    const value = read(name);
    // A value that is not a number goes to the server as it is, which says why at the field.
    if (value !== undefined) options[name] = (Number.isFinite(Number(value)) ? Number(value) : value) as number;
  }
  for (const name of YES_NO_OPTIONS) {
    const value = read(name);
    if (value !== undefined) options[name] = value === 'true';
  }
  for (const name of ['include', 'exclude'] as const) {
    const globs = lines(fields[prefix + name]);
    if (globs.length > 0) options[name] = globs;
  }
  const userAgent = read('userAgent');
  if (userAgent !== undefined) options.userAgent = userAgent;
  const headerLines = lines(fields[`${prefix}headers`]);
  if (headerLines.length > 0) {
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      if (colon <= 0) {
        throw new LoupeError('validation_failed', {
          message: 'A header is not written as "Name: value".',
          details: { fieldErrors: { [`${prefix}headers`]: [`Write each header as "Name: value" ("${line}").`] }, formErrors: [] },
        });
      }
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
    options.headers = headers;
  }
  return options;
}
