import type { AuditProject } from '@loupe/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '../components/error-message.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';

/**
 * The audit projects whose crawls run this pack: a checkbox per project for those who may
 * change projects (updateAuditProject's `rulePackIds`), the attached ones listed for others.
 */
export function RulePackProjects({
  packId,
  projects,
  onChanged,
}: {
  packId: string;
  projects: AuditProject[];
  onChanged: (project: AuditProject) => void;
}) {
  const { api, can, workspace } = useWorkspace();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const writable = can('projects:write');
  const attached = projects.filter((project) => project.rulePackIds.includes(packId));

  const toggle = async (project: AuditProject, attach: boolean) => {
    setBusy(project.id);
    setError(null);
    try {
      const rulePackIds = attach ? [...project.rulePackIds, packId] : project.rulePackIds.filter((id) => id !== packId);
      onChanged(await api.updateAuditProject({ projectId: project.id, body: { rulePackIds } }));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card" aria-labelledby="pack-projects-heading">
      <h2 id="pack-projects-heading">Projects that run it</h2>
      <p className="muted small">
        Crawls of these projects run the pack's rules after the built-in checks; crawls already started keep what they had.
      </p>
      {projects.length === 0 && (
        <p className="muted">
          No audit projects yet: <Link to={`/w/${workspace.id}/audits`}>create one</Link>.
        </p>
      )}
      {writable ? (
        <ul className="plain-list pack-projects">
          {projects.map((project) => (
            <li key={project.id}>
              <label className="check-row">
                <input
                  type="checkbox"
                  checked={project.rulePackIds.includes(packId)}
                  disabled={busy !== null}
                  onChange={(event) => void toggle(project, event.target.checked)}
                />
                {project.name} <span className="muted small">{project.siteUrl}</span>
              </label>
            </li>
          ))}
        </ul>
      ) : (
        projects.length > 0 &&
        (attached.length === 0 ? (
          <p className="muted">No project runs this pack.</p>
        ) : (
          <ul className="plain-list">
            {attached.map((project) => (
              <li key={project.id}>{project.name}</li>
            ))}
          </ul>
        ))
      )}
      {error !== null && <ErrorMessage error={error} />}
    </section>
  );
}
