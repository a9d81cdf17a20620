import { useState } from 'react';
import { ErrorMessage } from '../components/error-message.tsx';
import { SaveActions } from '../components/save-actions.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { useImageProject } from './project-context.ts';

/** The project's `keepMetadata`: off, the CDN serves images without EXIF (GPS), XMP or IPTC. */
export function MetadataForm() {
  const { api } = useWorkspace();
  const { project, reload } = useImageProject();
  const [saved, setSaved] = useState(false);
  const form = useSubmit(async ({ keepMetadata }) => {
    setSaved(false);
    await api.updateImageProject({ projectId: project.id, body: { keepMetadata: keepMetadata === 'on' } });
    setSaved(true);
    reload();
  });
  return (
    <form className="card stack" onSubmit={form.onSubmit} noValidate aria-label="Image metadata">
      <h3>Metadata</h3>
      <p className="muted">
        Photos often carry where they were taken (GPS), the camera and its owner. By default every image the CDN serves, originals included,
        is stripped of EXIF, XMP and IPTC. Keep them only if your visitors need them.
      </p>
      {form.error !== null && <ErrorMessage error={form.error} />}
      <label className="checkbox">
        <input type="checkbox" name="keepMetadata" defaultChecked={project.keepMetadata} /> Keep EXIF, XMP and IPTC in served images
      </label>
      <SaveActions busy={form.busy} saved={saved} label="Save metadata setting" />
    </form>
  );
}
