import { enlargements, type ImageProject } from '@loupe/contract';
import { useState } from 'react';
import { onlyFieldErrors } from '../api/api-error.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { SaveActions } from '../components/save-actions.tsx';
import { SelectField } from '../components/select-field.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { useImageProject } from './project-context.ts';

const CHOICES: Record<ImageProject['enlarge'], string> = {
  allow: 'Allow: make the asked size even from a smaller original',
  never: 'Never: stop at the original’s size',
};

/** The project's default for `enlarge` (README "Enlargement"); URLs and presets may override it. */
export function EnlargeForm() {
  const { api } = useWorkspace();
  const { project, reload } = useImageProject();
  const [saved, setSaved] = useState(false);
  const form = useSubmit(async ({ enlarge }) => {
    setSaved(false);
    const value = enlargements.find((choice) => choice === enlarge);
    if (value === undefined) return;
    await api.updateImageProject({ projectId: project.id, body: { enlarge: value } });
    setSaved(true);
    reload();
  });
  return (
    <form className="card stack" onSubmit={form.onSubmit} noValidate aria-label="Enlargement">
      <h3>Enlargement</h3>
      <p className="muted">
        Whether a resize may make a picture larger than its original. A URL or preset with <code>enlarge</code> overrides this default.
      </p>
      {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, ['enlarge'])} />}
      <SelectField label="Enlarge" name="enlarge" defaultValue={project.enlarge} error={form.error}>
        {enlargements.map((choice) => (
          <option key={choice} value={choice}>
            {CHOICES[choice]}
          </option>
        ))}
      </SelectField>
      <SaveActions busy={form.busy} saved={saved} label="Save enlargement" />
    </form>
  );
}
