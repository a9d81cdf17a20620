import type { AuditProject, RulePackInput, RulePackPreview } from '@loupe/contract';
import { isLoupeError } from '@loupe/sdk';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '../components/error-message.tsx';
import { PlanAwareError } from '../components/plan-aware-error.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';

/**
 * Runs the pack over the stored pages of a project's newest report (no crawl, no credits):
 * the saved pack when the editor holds it unchanged, else the JSON as it stands. Per rule:
 * pages in scope, failing, not applicable, and sample pages with their messages.
 */
export function RulePackPreviewPanel({
  packId,
  unchanged,
  projects,
  readPack,
  onPackProblems,
}: {
  packId: string | undefined;
  unchanged: boolean;
  projects: AuditProject[];
  /** The editor's pack, or null when its JSON cannot be read (the editor says why). */
  readPack: () => RulePackInput | null;
  /** A preview refused for the pack's content: its messages belong in the editor. */
  onPackProblems: (error: unknown) => void;
}) {
  const { api, can, workspace } = useWorkspace();
  const selectId = useId();
  const crawled = projects.filter((project) => project.latestReport !== null);
  const [projectId, setProjectId] = useState(crawled[0]?.id ?? '');
  const [preview, setPreview] = useState<RulePackPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const savedOnly = !can('rules:write');

  const run = async () => {
    setError(null);
    setPreview(null);
    const useSaved = packId !== undefined && (unchanged || savedOnly);
    const pack = useSaved ? null : readPack();
    if (!useSaved && pack === null) return;
    setBusy(true);
    try {
      setPreview(
        useSaved
          ? await api.previewRulePack({ packId, body: { projectId } })
          : await api.previewUnsavedRulePack({ body: { projectId, pack: pack as RulePackInput } }),
      );
      onPackProblems(null);
    } catch (failure) {
      if (
        isLoupeError(failure, 'validation_failed') &&
        Object.keys(failure.details?.fieldErrors ?? {}).some((field) => field.startsWith('pack'))
      ) {
        onPackProblems(failure);
      } else setError(failure);
    } finally {
      setBusy(false);
    }
  };

  if (savedOnly && packId === undefined) return null;
  return (
    <section className="card preview-panel" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Preview on a crawl</h2>
      {crawled.length === 0 ? (
        <p className="muted">
          No audit project has a report yet. <Link to={`/w/${workspace.id}/audits`}>Crawl a project</Link>, then preview the pack on its
          pages.
        </p>
      ) : (
        <>
          <p className="muted small">
            Runs {unchanged || savedOnly ? 'the saved pack' : 'the pack as written here'} over the pages of the project's newest report:
            nothing is fetched and no credits are spent.
          </p>
          <div className="preview-controls">
            <div className="field">
              <label htmlFor={selectId}>Project</label>
              <select id={selectId} value={projectId} onChange={(event) => setProjectId(event.target.value)}>
                {crawled.map((project) => (
                  <option key={project.id} value={project.id}>
                    {project.name}
                  </option>
                ))}
              </select>
            </div>
            <button type="button" className="button primary" onClick={() => void run()} disabled={busy || projectId === ''}>
              {busy ? 'Previewing…' : 'Preview'}
            </button>
          </div>
        </>
      )}
      {error !== null &&
        (isLoupeError(error, 'validation_failed') ? (
          <ErrorMessage error={error} />
        ) : isLoupeError(error, 'project_not_crawled') ? (
          <p className="notice" role="alert">
            This project has no report yet: crawl it first.
          </p>
        ) : (
          <PlanAwareError error={error} feature="Custom rule packs" />
        ))}
      {preview && <PreviewResults preview={preview} />}
    </section>
  );
}

function PreviewResults({ preview }: { preview: RulePackPreview }) {
  const { workspace } = useWorkspace();
  return (
    <div className="preview-results" role="status" aria-live="polite">
      <p>
        {preview.pagesEvaluated} page{preview.pagesEvaluated === 1 ? '' : 's'} of{' '}
        <Link to={`/w/${workspace.id}/reports/${preview.reportId}`}>the newest report</Link> evaluated.
      </p>
      {preview.rules.length === 0 && <p className="muted">The pack has no rules.</p>}
      <ol className="preview-rules">
        {preview.rules.map((rule) => (
          <li key={rule.ruleId} className="preview-rule" aria-label={`Rule ${rule.ruleId}`}>
            <div className="preview-rule-head">
              <strong>{rule.title}</strong> <code className="small">{rule.ruleId}</code>{' '}
              <span className={`badge severity-${rule.severity}`}>{rule.severity}</span>
              {!rule.enabled && <span className="badge muted-badge">disabled</span>}
            </div>
            <dl className="preview-counts">
              <div>
                <dt>In scope</dt>
                <dd>{rule.pagesInScope}</dd>
              </div>
              <div className={rule.pagesFailing > 0 ? 'failing' : undefined}>
                <dt>Failing</dt>
                <dd>{rule.pagesFailing}</dd>
              </div>
              <div>
                <dt>Not applicable</dt>
                <dd>{rule.pagesNotApplicable}</dd>
              </div>
            </dl>
            {rule.error && (
              <p className="notice" role="alert">
                {rule.error.message}
              </p>
            )}
            {rule.samples.length > 0 && (
              <ul className="preview-samples">
                {rule.samples.map((sample) => (
                  <li key={sample.pageId}>
                    <Link to={`/w/${workspace.id}/reports/${preview.reportId}/pages/${sample.pageId}`} className="wrap-anywhere">
                      {sample.url}
                    </Link>
                    <div className="small">{sample.message}</div>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
