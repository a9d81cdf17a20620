import { useState } from 'react';
import { useQuery } from '../api/use-query.ts';
import { onlyFieldErrors } from '../api/api-error.ts';
import { Dialog } from '../components/dialog.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';

/** Image projects of the workspace (the images, presets and signing screens build on this). */
export function ImagesPage() {
  const { api, can } = useWorkspace();
  const projects = useQuery(() => api.listImageProjects({ limit: 100 }), [api]);
  const [creating, setCreating] = useState(false);
  const newProject = can('images:write') && (
    <button type="button" className="button primary" onClick={() => setCreating(true)}>
      New project
    </button>
  );

  return (
    <>
      <PageHeader title="Images" description="Image projects: originals, presets and their CDN addresses." actions={newProject} />
      {projects.status === 'loading' && <LoadingState label="Loading image projects" />}
      {projects.status === 'failed' && <ErrorMessage error={projects.error} onRetry={projects.reload} />}
      {projects.status === 'done' && projects.data.length === 0 && (
        <EmptyState title="No image projects yet" action={newProject}>
          A project holds images and the presets that deliver them.
        </EmptyState>
      )}
      {projects.status === 'done' && projects.data.length > 0 && (
        <ul className="card-list">
          {projects.data.map((project) => (
            <li key={project.id} className="card">
              <h2>{project.name}</h2>
              <p className="muted">
                <code>/cdn/{project.slug}/</code>
                {project.customDomain && <> · {project.customDomain}</>}
              </p>
            </li>
          ))}
        </ul>
      )}
      <NewProjectDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          projects.reload();
        }}
      />
    </>
  );
}

function NewProjectDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const { api } = useWorkspace();
  const form = useSubmit(async ({ name = '' }) => {
    await api.createImageProject({ body: { name } });
    onCreated();
  });
  const close = () => {
    form.reset();
    onClose();
  };
  return (
    <Dialog open={open} title="New image project" onClose={close}>
      <form onSubmit={form.onSubmit} noValidate>
        {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, ['name'])} />}
        <FormField label="Name" name="name" required autoFocus error={form.error} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={form.busy}>
            {form.busy ? 'Creating…' : 'Create'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
