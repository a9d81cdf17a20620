/** Why a link was not checked: it is kept and reported as such, never silently dropped. */
export const NOT_CHECKED = {
  overCap: 'not-checked: over the cap',
  timeBudget: 'not-checked: time budget',
  turnedOff: 'not-checked: turned off',
} as const;

/** Whether a link's recorded error says it was never asked (nothing is known of its target). */
export function notChecked(fetchError: string | null): boolean {
  return fetchError?.startsWith('not-checked:') ?? false;
}

/** The crawl's stored fetch errors (fetch-failure.ts, page-fetcher.ts, crawler.ts) in the words reports and diffs show. */
const WORDS: Record<string, string> = {
  'blocked-by-robots': 'blocked by robots.txt',
  dns: 'no such host',
  refused: 'connection refused',
  timeout: 'timed out',
  tls: 'TLS error',
  reset: 'connection reset',
  'blocked-address': 'address not allowed',
  aborted: 'stopped before an answer',
  loop: 'redirect loop',
  /** Link checks stored loops under this code before they took the page fetcher's. */
  'redirect-loop': 'redirect loop',
  'too-many-redirects': 'too many redirects',
  'invalid-redirect': 'invalid redirect',
  truncated: 'cut short: too large',
};

/** A stored fetch error in words; null for none. Unknown codes keep their own text (`network: …`). */
export function causeOf(fetchError: string | null): string | null {
  if (fetchError === null) return null;
  const known = WORDS[fetchError];
  if (known) return known;
  if (fetchError.startsWith('network: ')) return `network error: ${fetchError.slice('network: '.length)}`;
  if (fetchError.startsWith('body: ')) return `failed while reading: ${fetchError.slice('body: '.length)}`;
  return fetchError.replace(/^not-checked:/, 'not checked:');
}
