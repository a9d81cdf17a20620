import type { Image } from '@loupe/contract';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { onlyFieldErrors } from '../api/api-error.ts';
import { useQuery } from '../api/use-query.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { SaveActions } from '../components/save-actions.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { cdnParams } from './cdn-address.ts';
import { CdnUrlBox } from './cdn-url-box.tsx';
import { formatBytes } from './format-bytes.ts';
import { useImageProject } from './project-context.ts';
import { PurgeVariants } from './purge-variants.tsx';
import { ResponsiveSnippetBox } from './responsive-snippet-box.tsx';
import { useCdnAddress } from './use-cdn-address.ts';

/** A view that fits the page on a 2× screen without sending the original. */
const VIEW = cdnParams({ transforms: { width: 1200, fit: 'scale-down', format: 'webp' } });

/** `/w/:ws/images/:projectId/images/:imageId`: one image, its facts, alt text and tags, and its CDN URL. */
export function ImageDetailPage() {
  const { api, can } = useWorkspace();
  const { project, base } = useImageProject();
  const { imageId = '' } = useParams();
  const image = useQuery(() => api.getImage({ projectId: project.id, imageId }), [api, project.id, imageId]);

  if (image.status === 'loading') return <LoadingState label="Loading the image" />;
  if (image.status === 'failed') return <ErrorMessage error={image.error} onRetry={image.reload} />;
  return (
    <div className="image-detail">
      <ImageView image={image.data} />
      <div className="image-side">
        <section className="card" aria-label="About this image">
          <h2 className="image-path">{image.data.path}</h2>
          <dl className="facts">
            <dt>Size</dt>
            <dd>
              {image.data.width} × {image.data.height} px · {formatBytes(image.data.fileSize)}
            </dd>
            <dt>Format</dt>
            <dd>
              {image.data.format.toUpperCase()} ({image.data.contentType})
            </dd>
            <dt>File</dt>
            <dd>{image.data.filename}</dd>
            <dt>Uploaded</dt>
            <dd>{new Date(image.data.createdAt).toLocaleString()}</dd>
            {!can('images:write') && (
              <>
                <dt>Alt text</dt>
                <dd>{image.data.altText ?? <span className="muted">None</span>}</dd>
                <dt>Tags</dt>
                <dd>{image.data.tags.length > 0 ? image.data.tags.join(', ') : <span className="muted">None</span>}</dd>
              </>
            )}
          </dl>
          <p>
            <Link to={`${base}/presets/new?image=${image.data.id}`}>Try presets on this image</Link>
          </p>
        </section>
        {can('images:write') && <DescribeForm image={image.data} onSaved={image.reload} />}
        <CdnUrlBox image={image.data} />
        <ResponsiveSnippetBox image={image.data} />
        {can('images:write') && (
          <PurgeVariants
            subject={image.data.path}
            purge={() => api.purgeImageVariants({ projectId: project.id, imageId: image.data.id })}
          />
        )}
        {can('images:write') && <DeleteImage image={image.data} />}
      </div>
    </div>
  );
}

function ImageView({ image }: { image: Image }) {
  const { project } = useImageProject();
  const view = useCdnAddress(project, image, VIEW);
  return (
    <figure className="image-view">
      {view.status === 'done' && <img src={view.src} alt={image.altText ?? ''} width={image.width} height={image.height} />}
      {view.status === 'failed' && <ErrorMessage error={view.error} />}
    </figure>
  );
}

/** Tags are typed as a comma-separated list: "spring, blog". */
function parseTags(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

function DescribeForm({ image, onSaved }: { image: Image; onSaved: () => void }) {
  const { api } = useWorkspace();
  const { project } = useImageProject();
  const [saved, setSaved] = useState(false);
  const form = useSubmit(async ({ altText = '', tags = '' }) => {
    setSaved(false);
    await api.updateImage({
      projectId: project.id,
      imageId: image.id,
      body: { altText: altText.trim() === '' ? null : altText, tags: parseTags(tags) },
    });
    setSaved(true);
    onSaved();
  });
  return (
    <form className="card stack" onSubmit={form.onSubmit} noValidate aria-label="Alt text and tags">
      <h2>Alt text and tags</h2>
      {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, ['altText', 'tags'])} />}
      <FormField
        label="Alt text"
        name="altText"
        defaultValue={image.altText ?? ''}
        error={form.error}
        hint="What the image shows, for people who cannot see it."
      />
      <FormField label="Tags" name="tags" defaultValue={image.tags.join(', ')} error={form.error} hint="Separated by commas." />
      <SaveActions busy={form.busy} saved={saved} label="Save" />
    </form>
  );
}

function DeleteImage({ image }: { image: Image }) {
  const { api } = useWorkspace();
  const { project, base, reload } = useImageProject();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  return (
    <section className="card danger-zone" aria-label="Delete this image">
      <button type="button" className="button danger" onClick={() => setOpen(true)}>
        Delete image
      </button>
      <ConfirmDialog
        open={open}
        title={`Delete ${image.path}?`}
        confirmLabel="Delete image"
        destructive
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          await api.deleteImage({ projectId: project.id, imageId: image.id });
          reload();
          void navigate(base, { replace: true });
        }}
      >
        <p>
          The original ({formatBytes(image.fileSize)}) and every cached variant are deleted. Its CDN URLs, with any preset, answer 404 from
          then on. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
