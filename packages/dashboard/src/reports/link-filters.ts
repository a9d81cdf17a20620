import type { LinkFailureReason } from '@loupe/contract';
import {
  type LinkKind,
  type LinkStatusClass,
  type LinkTarget,
  linkKinds,
  linkReasons,
  linkStatusClasses,
  linkTargets,
} from './link-labels.ts';

/** The links view's filters, each one of listReportLinks' query parameters. */
export interface LinkFilters {
  target?: LinkTarget;
  kind?: LinkKind;
  statusClass?: LinkStatusClass;
  reason?: LinkFailureReason;
}

const oneOf = <T extends string>(options: readonly T[], value: string | null): T | undefined =>
  (options as readonly string[]).includes(value ?? '') ? (value as T) : undefined;

/**
 * The filters as the address holds them (`?target=&kind=&status=&reason=`), so a filtered view
 * can be linked and survives a reload; a value the API would refuse is left out, not sent.
 */
export function linkFiltersFrom(params: URLSearchParams): LinkFilters {
  return {
    target: oneOf(linkTargets, params.get('target')),
    kind: oneOf(linkKinds, params.get('kind')),
    statusClass: oneOf(linkStatusClasses, params.get('status')),
    reason: oneOf(linkReasons, params.get('reason')),
  };
}

export function linkFilterParams(filters: LinkFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.target) params.set('target', filters.target);
  if (filters.kind) params.set('kind', filters.kind);
  if (filters.statusClass) params.set('status', filters.statusClass);
  if (filters.reason) params.set('reason', filters.reason);
  return params;
}

export function isFiltered(filters: LinkFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined);
}
