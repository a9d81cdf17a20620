import type { ReportSummary } from '@loupe/contract';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import './diff.css';

/** `/w/:ws/diff?old=&new=`, the agreed address of a comparison. */
export function diffHref(workspaceId: string, oldId: string, newId: string): string {
  return `/w/${workspaceId}/diff?${new URLSearchParams({ old: oldId, new: newId })}`;
}

function label(report: ReportSummary): string {
  const score = report.score === null ? 'no score' : `${report.score} (${report.grade})`;
  return `${new Date(report.createdAt).toLocaleString()} · ${score} · ${report.pages} pages`;
}

/**
 * Two reports to compare, "before" and "after" (newest first in each list): by default the
 * two newest. Opens the diff page.
 */
export function CompareForm({ reports, initialOld, initialNew }: { reports: ReportSummary[]; initialOld?: string; initialNew?: string }) {
  const { workspace } = useWorkspace();
  const navigate = useNavigate();
  const id = useId();
  const [before, setBefore] = useState(initialOld ?? reports[1]?.id ?? '');
  const [after, setAfter] = useState(initialNew ?? reports[0]?.id ?? '');
  if (reports.length < 2)
    return <p className="muted">Two reports are needed to compare; this project has {reports.length === 0 ? 'none' : 'one'} yet.</p>;
  const same = before === after;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!same) navigate(diffHref(workspace.id, before, after));
  };
  return (
    <form className="compare-form" onSubmit={submit}>
      <div className="field">
        <label htmlFor={`${id}-old`}>Before</label>
        <select id={`${id}-old`} value={before} onChange={(event) => setBefore(event.target.value)}>
          {reports.map((report) => (
            <option key={report.id} value={report.id}>
              {label(report)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-new`}>After</label>
        <select id={`${id}-new`} value={after} onChange={(event) => setAfter(event.target.value)}>
          {reports.map((report) => (
            <option key={report.id} value={report.id}>
              {label(report)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button" disabled={same} aria-describedby={same ? `${id}-same` : undefined}>
        Compare
      </button>
      {same && (
        <p id={`${id}-same`} className="field-hint muted">
          Pick two different reports.
        </p>
      )}
    </form>
  );
}
