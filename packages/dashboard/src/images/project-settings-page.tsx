import { LoupeError } from '@loupe/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { onlyFieldErrors } from '../api/api-error.ts';
import { useQuery } from '../api/use-query.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { SaveActions } from '../components/save-actions.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { EnlargeForm } from './enlarge-form.tsx';
import { formatBytes } from './format-bytes.ts';
import { MetadataForm } from './metadata-form.tsx';
import { OriginForm } from './origin-form.tsx';
import { useImageProject } from './project-context.ts';
import { PurgeVariants } from './purge-variants.tsx';

/** A 409 about the domain is about the field the user typed it in. */
function atDomainField(error: unknown): unknown {
  if (!(error instanceof LoupeError) || error.code !== 'custom_domain_taken') return error;
  return new LoupeError(error.code, {
    message: error.message,
    details: { fieldErrors: { customDomain: [error.message] }, formErrors: [] },
  });
}

/** `…/settings`: the project's name, custom domain, origin, enlargement, metadata, cached variants and deletion. */
export function ProjectSettingsPage() {
  const { api, can } = useWorkspace();
  const { project } = useImageProject();
  return (
    <>
      <h2>Settings</h2>
      <dl className="facts card">
        <dt>Slug</dt>
        <dd>
          <code>{project.slug}</code> (in every CDN URL; it never changes)
        </dd>
        <dt>Plan</dt>
        <dd>{project.plan}</dd>
        <dt>Created</dt>
        <dd>{new Date(project.createdAt).toLocaleString()}</dd>
        {!can('images:write') && (
          <>
            <dt>Custom domain</dt>
            <dd>{project.customDomain ?? <span className="muted">None</span>}</dd>
            <dt>Enlargement</dt>
            <dd>{project.enlarge}</dd>
            <dt>Client hints</dt>
            <dd>{project.clientHints ? 'Honoured' : 'Ignored'}</dd>
            <dt>Metadata (EXIF, XMP, IPTC)</dt>
            <dd>{project.keepMetadata ? 'Kept in served images' : 'Stripped from served images'}</dd>
          </>
        )}
      </dl>
      {can('images:write') && (
        <>
          <RenameForm />
          <DomainForm />
          <EnlargeForm />
          <OriginForm />
          <ClientHintsForm />
          <MetadataForm />
          <PurgeVariants subject={`every image of ${project.name}`} purge={() => api.purgeProjectVariants({ projectId: project.id })} />
          <DeleteProject />
        </>
      )}
    </>
  );
}

function RenameForm() {
  const { api } = useWorkspace();
  const { project, reload } = useImageProject();
  const [saved, setSaved] = useState(false);
  const form = useSubmit(async ({ name = '' }) => {
    setSaved(false);
    await api.updateImageProject({ projectId: project.id, body: { name } });
    setSaved(true);
    reload();
  });
  return (
    <form className="card stack" onSubmit={form.onSubmit} noValidate aria-label="Rename the project">
      <h3>Name</h3>
      {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, ['name'])} />}
      <FormField label="Project name" name="name" defaultValue={project.name} required error={form.error} />
      <SaveActions busy={form.busy} saved={saved} label="Rename" savedLabel="Renamed" />
    </form>
  );
}

function DomainForm() {
  const { api } = useWorkspace();
  const { project, reload } = useImageProject();
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const form = useSubmit(async ({ customDomain = '' }) => {
    setSaved(false);
    setError(null);
    try {
      await api.updateImageProject({
        projectId: project.id,
        body: { customDomain: customDomain.trim() === '' ? null : customDomain.trim() },
      });
    } catch (failure) {
      setError(atDomainField(failure));
      return;
    }
    setSaved(true);
    reload();
  });
  const shown = error ?? form.error;
  return (
    <form className="card stack" onSubmit={form.onSubmit} noValidate aria-label="Custom domain">
      <h3>Custom domain</h3>
      <p className="muted">
        A hostname pointed at this server serves the project's images at its root: <code>https://images.example.com/&lt;path&gt;</code>.
        Leave it empty to remove it.
      </p>
      {shown !== null && <ErrorMessage error={shown} hideFieldErrors={onlyFieldErrors(shown, ['customDomain'])} />}
      <FormField
        label="Domain"
        name="customDomain"
        defaultValue={project.customDomain ?? ''}
        placeholder="images.example.com"
        error={shown}
      />
      <SaveActions busy={form.busy} saved={saved} label="Save domain" />
    </form>
  );
}

/** Responsive delivery by client hints (README, "Responsive images"): off until the owner turns it on. */
function ClientHintsForm() {
  const { api } = useWorkspace();
  const { project, reload } = useImageProject();
  const [saved, setSaved] = useState(false);
  const [clientHints, setClientHints] = useState(project.clientHints);
  const form = useSubmit(async () => {
    setSaved(false);
    await api.updateImageProject({ projectId: project.id, body: { clientHints } });
    setSaved(true);
    reload();
  });
  return (
    <form className="card stack" onSubmit={form.onSubmit} noValidate aria-label="Client hints">
      <h3>Client hints</h3>
      <p className="muted">
        Browsers that send Sec-CH-DPR, Sec-CH-Width or Save-Data get an image sized for their screen and layout, within what each URL's
        preset asks; <code>w</code>, <code>dpr</code> and <code>q</code> in a URL win over hints. Answers name the hints in Accept-CH and
        Vary.
      </p>
      {form.error !== null && <ErrorMessage error={form.error} />}
      <label className="checkbox">
        <input type="checkbox" name="clientHints" checked={clientHints} onChange={(event) => setClientHints(event.target.checked)} /> Honour
        client hints
      </label>
      <SaveActions busy={form.busy} saved={saved} label="Save client hints" />
    </form>
  );
}

function DeleteProject() {
  const { api, workspace } = useWorkspace();
  const { project } = useImageProject();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const presets = useQuery(
    () => (open ? api.listPresets({ projectId: project.id, limit: 100 }) : Promise.resolve(null)),
    [api, project.id, open],
  );
  const presetCount = presets.data ? `${presets.data.length}${presets.data.length === 100 ? '+' : ''}` : 'all its';
  const { imageCount, totalSize } = project.stats;
  return (
    <section className="card stack danger-zone" aria-label="Delete the project">
      <h3>Delete the project</h3>
      <p>
        <button type="button" className="button danger" onClick={() => setOpen(true)}>
          Delete project
        </button>
      </p>
      <ConfirmDialog
        open={open}
        title={`Delete ${project.name}?`}
        confirmLabel={`Delete ${project.name}`}
        destructive
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          await api.deleteImageProject({ projectId: project.id });
          void navigate(`/w/${workspace.id}/images`, { replace: true });
        }}
      >
        <p>This permanently deletes, with no way back:</p>
        <ul>
          <li>
            {imageCount} {imageCount === 1 ? 'image' : 'images'} ({formatBytes(totalSize)} of originals) and their cached variants;
          </li>
          <li>{presetCount} presets;</li>
          <li>the signing secrets and the usage history.</li>
        </ul>
        <p>
          Every URL under <code>/cdn/{project.slug}/</code>
          {project.customDomain && (
            <>
              {' '}
              and on <code>{project.customDomain}</code>
            </>
          )}{' '}
          answers 404 from then on.
        </p>
      </ConfirmDialog>
    </section>
  );
}
