import { useId } from 'react';
import { isFiltered, type LinkFilters } from './link-filters.ts';
import {
  kindLabel,
  linkKinds,
  linkReasons,
  linkStatusClasses,
  linkTargets,
  reasonLabels,
  statusClassLabels,
  targetLabels,
} from './link-labels.ts';

/** The links view's filters: where links lead, their kind, their target's status class and failure reason. */
export function LinkFilterBar({ filters, onChange }: { filters: LinkFilters; onChange: (filters: LinkFilters) => void }) {
  const id = useId();
  const select = <K extends keyof LinkFilters>(
    key: K,
    label: string,
    any: string,
    options: readonly { value: string; label: string }[],
  ) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <select
        id={`${id}-${key}`}
        value={filters[key] ?? ''}
        onChange={(event) => onChange({ ...filters, [key]: event.target.value || undefined })}
      >
        <option value="">{any}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <div className="page-index-filters">
      {select(
        'target',
        'Leads to',
        'Any site',
        linkTargets.map((value) => ({ value, label: targetLabels[value] })),
      )}
      {select(
        'kind',
        'Kind',
        'Any kind',
        linkKinds.map((value) => ({ value, label: kindLabel(value) })),
      )}
      {select(
        'statusClass',
        'Status',
        'Any status',
        linkStatusClasses.map((value) => ({ value, label: statusClassLabels[value] })),
      )}
      {select(
        'reason',
        'Reason',
        'Any reason',
        linkReasons.map((value) => ({ value, label: reasonLabels[value] })),
      )}
      {isFiltered(filters) && (
        <button type="button" className="button" onClick={() => onChange({})}>
          Clear filters
        </button>
      )}
    </div>
  );
}
