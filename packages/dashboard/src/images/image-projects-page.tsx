import type { ImageProject } from '@loupe/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQuery } from '../api/use-query.ts';
import { Dialog } from '../components/dialog.tsx';
import { DialogForm } from '../components/dialog-form.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { formatBytes } from './format-bytes.ts';
import './images.css';

/** `/w/:ws/images`: the workspace's image projects with their image count and size. */
export function ImageProjectsPage() {
  const { api, can } = useWorkspace();
  const projects = useQuery(() => api.listImageProjects({ limit: 100 }), [api]);
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const newProject = can('images:write') && (
    <button type="button" className="button primary" onClick={() => setCreating(true)}>
      New project
    </button>
  );

  return (
    <div className="image-screen">
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
            <ProjectCard key={project.id} project={project} />
          ))}
        </ul>
      )}
      <NewProjectDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(project) => {
          setCreating(false);
          projects.reload();
          void navigate(project.id);
        }}
      />
    </div>
  );
}

/** The list has no stats (spec §4): each card asks for its own project's. */
function ProjectCard({ project }: { project: ImageProject }) {
  const { api } = useWorkspace();
  const stats = useQuery(() => api.getImageProject({ projectId: project.id }).then((full) => full.stats), [api, project.id]);
  return (
    <li className="card project-card">
      <h2>
        <Link to={project.id}>{project.name}</Link>
      </h2>
      <p className="muted">
        <code>/cdn/{project.slug}/</code>
        {project.customDomain && <> · {project.customDomain}</>}
      </p>
      <p className="project-stats">
        {stats.status === 'loading' && <span className="muted">Counting images…</span>}
        {stats.status === 'failed' && <span className="field-error">Could not count the images.</span>}
        {stats.status === 'done' && (
          <>
            {stats.data.imageCount} {stats.data.imageCount === 1 ? 'image' : 'images'} · {formatBytes(stats.data.totalSize)}
          </>
        )}
        {project.requireSignedUrls && (
          <>
            {' '}
            · <span className="badge">Signed URLs</span>
          </>
        )}
      </p>
    </li>
  );
}

function NewProjectDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (project: ImageProject) => void;
}) {
  const { api } = useWorkspace();
  const form = useSubmit(async ({ name = '' }) => {
    onCreated(await api.createImageProject({ body: { name } }));
  });
  const close = () => {
    form.reset();
    onClose();
  };
  return (
    <Dialog open={open} title="New image project" onClose={close}>
      <DialogForm form={form} fieldNames={['name']} submitLabel="Create" busyLabel="Creating…" onCancel={close}>
        <FormField label="Name" name="name" required autoFocus error={form.error} />
      </DialogForm>
    </Dialog>
  );
}
