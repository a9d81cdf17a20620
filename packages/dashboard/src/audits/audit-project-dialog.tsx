import type { AuditProject } from '@loupe/contract';
import { fieldErrorsOf, onlyFieldErrors } from '../api/api-error.ts';
import { Dialog } from '../components/dialog.tsx';
import { DialogFormActions } from '../components/dialog-form-actions.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { crawlOptionsFromFields } from './crawl-options.ts';
import { CrawlOptionsFields } from './crawl-options-fields.tsx';

const PREFIX = 'crawlDefaults.';

export interface AuditProjectDialogProps {
  open: boolean;
  /** The project to change; without one the dialog creates a project. */
  project?: AuditProject;
  onClose: () => void;
  onSaved: (project: AuditProject) => void;
}

/** Creates an audit project, or changes one's name, site and crawl defaults (DESIGN.md §8). */
export function AuditProjectDialog({ open, project, onClose, onSaved }: AuditProjectDialogProps) {
  const { api } = useWorkspace();
  const form = useSubmit(async (fields) => {
    const crawlDefaults = crawlOptionsFromFields(fields, PREFIX);
    const saved = project
      ? // The defaults are replaced whole (updateAuditProject), so a blanked control drops its default.
        await api.updateAuditProject({ projectId: project.id, body: { name: fields.name, siteUrl: fields.siteUrl, crawlDefaults } })
      : await api.createAuditProject({
          body: { name: fields.name ?? '', siteUrl: fields.siteUrl ?? '', ...(Object.keys(crawlDefaults).length > 0 && { crawlDefaults }) },
        });
    onSaved(saved);
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const title = project ? `Edit ${project.name}` : 'New audit project';
  return (
    <Dialog open={open} title={title} onClose={close}>
      <form onSubmit={form.onSubmit} noValidate>
        <FormField label="Name" name="name" required maxLength={100} defaultValue={project?.name} error={form.error} autoFocus />
        <FormField
          label="Site URL"
          name="siteUrl"
          type="url"
          required
          placeholder="https://example.com/"
          defaultValue={project?.siteUrl}
          hint="Crawls start here unless told otherwise."
          error={form.error}
        />
        <fieldset className="crawl-defaults">
          <legend>Crawl defaults</legend>
          <p className="field-hint muted">
            Every crawl of the project uses these unless the crawl says otherwise. Blank: the server's default.
          </p>
          <CrawlOptionsFields prefix={PREFIX} initial={project?.crawlDefaults} blankMeans="server default" error={form.error} />
        </fieldset>
        {form.error !== null && !onlyFieldErrors(form.error, fieldNames(form.error)) && <ErrorMessage error={form.error} hideFieldErrors />}
        <DialogFormActions
          busy={form.busy}
          submitLabel={project ? 'Save' : 'Create'}
          busyLabel="Saving…"
          onCancel={close}
          cancelDisabled={form.busy}
        />
      </form>
    </Dialog>
  );
}

/** Every field this form shows a control for: its own and each crawl default. */
function fieldNames(error: unknown): string[] {
  return Object.keys(fieldErrorsOf(error)).filter((name) => name === 'name' || name === 'siteUrl' || name.startsWith(PREFIX));
}
