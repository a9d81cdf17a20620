import { type LinkFailureReason, ListReportLinksQuery, type PageLink } from '@loupe/contract';

export const linkKinds = ListReportLinksQuery.shape.kind.unwrap().options;
export const linkTargets = ListReportLinksQuery.shape.target.unwrap().options;
export const linkStatusClasses = ListReportLinksQuery.shape.statusClass.unwrap().options;
export const linkReasons = ListReportLinksQuery.shape.reason.unwrap().options;

export type LinkKind = (typeof linkKinds)[number];
export type LinkTarget = (typeof linkTargets)[number];
export type LinkStatusClass = (typeof linkStatusClasses)[number];

/** Each kind's name; a kind the API may add is shown by its own name until it has one here. */
const kindNames: Record<string, string> = {
  link: 'Link',
  image: 'Image',
  canonical: 'Canonical',
  hreflang: 'Hreflang',
  resource: 'Script or stylesheet',
};

export const kindLabel = (kind: string): string => kindNames[kind] ?? kind;

export const targetLabels: Record<LinkTarget, string> = {
  internal: 'This site',
  external: 'Other sites',
};

export const statusClassLabels: Record<LinkStatusClass, string> = {
  broken: 'Broken (4xx, 5xx or no answer)',
  '2xx': '2xx',
  '3xx': '3xx',
  '4xx': '4xx',
  '5xx': '5xx',
  failed: 'No answer',
  'not-checked': 'Not checked',
};

/** The reason filter's options, in the words the API gives a link's `reason`. */
export const reasonLabels: Record<LinkFailureReason, string> = {
  'no-such-host': 'No such host',
  'connection-refused': 'Connection refused',
  'timed-out': 'Timed out',
  'tls-error': 'TLS error',
  'connection-reset': 'Connection reset',
  'address-not-allowed': 'Address not allowed',
  'blocked-by-robots': 'Blocked by robots.txt',
  'redirect-loop': 'Redirect loop',
  'too-many-redirects': 'Too many redirects',
  'invalid-redirect': 'Invalid redirect',
  'network-error': 'Network error',
  'not-checked-over-the-cap': 'Not checked: over the cap',
  'not-checked-time-budget': 'Not checked: time budget',
  'not-checked-turned-off': 'Not checked: turned off',
};

/** The `rel` of a `<link>` of each kind, where it is not the kind's own name. */
const linkRels: Record<string, string> = { hreflang: 'alternate', resource: 'stylesheet' };

/** The element naming a link's target, as written in HTML (`<img>`); null for links stored before it was kept. */
export function elementLabel(link: Pick<PageLink, 'element' | 'kind'>): string | null {
  if (link.element === null) return null;
  if (link.element !== 'link') return `<${link.element}>`;
  return `<link rel="${linkRels[link.kind] ?? link.kind}">`;
}

/**
 * The rel flags a link carries, as written in its `rel` attribute (every occurrence has them),
 * and "partly nofollow" when some of its occurrences are nofollow and others not.
 */
export function relFlags(link: Pick<PageLink, 'nofollow' | 'partlyNofollow' | 'sponsored' | 'ugc'>): string[] {
  const flags: string[] = (['nofollow', 'sponsored', 'ugc'] as const).filter((flag) => link[flag]);
  return link.partlyNofollow ? ['partly nofollow', ...flags] : flags;
}

/**
 * Whether a link leads nowhere usable, as the API's `statusClass=broken` counts it: its target
 * answered 4xx or 5xx, or failed (a redirect loop…); neither unchecked nor merely cut short.
 */
export function isBroken(link: Pick<PageLink, 'status' | 'reason'>): boolean {
  if (link.status !== null && link.status >= 400) return true;
  return link.reason !== null && !link.reason.startsWith('not checked') && !link.reason.startsWith('cut short');
}
