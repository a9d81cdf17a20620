import type { Image } from '@loupe/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadMoreButton } from '../components/load-more-button.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { usePagedList } from '../components/use-paged-list.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { cdnParams } from './cdn-address.ts';
import { formatBytes } from './format-bytes.ts';
import { useImageProject } from './project-context.ts';
import { UploadDropZone } from './upload-drop-zone.tsx';
import { useCdnAddress } from './use-cdn-address.ts';

const PAGE_SIZE = 24;
/** Thumbnails: a 320 px square (a 160 px tile on a 2× screen) in WebP, which every browser shows and encodes fast. */
const THUMBNAIL = cdnParams({ transforms: { width: 320, height: 320, fit: 'cover', format: 'webp' } });
/** Typing waits this long before asking the server, so a word is one request, not one per letter. */
const SEARCH_DELAY_MS = 300;

/** `/w/:ws/images/:projectId`: upload, search by path and tag, and the images a page at a time. */
export function ProjectImagesPage() {
  const { api, can } = useWorkspace();
  const { project, reload: reloadProject } = useImageProject();
  const [search, setSearch] = useSearchParams();
  const prefix = search.get('prefix') ?? '';
  const tag = search.get('tag') ?? '';
  // Pages of one more than shown: the extra one tells whether "Load more" has anything to load.
  const images = usePagedList(
    (signal) =>
      api.all.listImages({ projectId: project.id, limit: PAGE_SIZE + 1, prefix: prefix || undefined, tag: tag || undefined }, { signal }),
    [api, project.id, prefix, tag],
    PAGE_SIZE,
  );
  const filtered = prefix !== '' || tag !== '';

  // One reload for a burst of finished uploads.
  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);
  const onUploaded = () => {
    clearTimeout(pending.current);
    pending.current = setTimeout(() => {
      images.reload();
      reloadProject();
    }, 200);
  };

  return (
    <>
      {can('images:write') && <UploadDropZone projectId={project.id} onUploaded={onUploaded} />}
      <SearchForm
        prefix={prefix}
        tag={tag}
        onChange={(next) =>
          setSearch(
            (current) => {
              const params = new URLSearchParams(current);
              for (const [name, value] of Object.entries(next)) {
                if (value.trim()) params.set(name, value.trim());
                else params.delete(name);
              }
              return params;
            },
            { replace: true },
          )
        }
      />
      {images.status === 'loading' && <LoadingState label="Loading images" />}
      {images.status === 'failed' && <ErrorMessage error={images.error} onRetry={images.reload} />}
      {images.status === 'done' && images.items.length === 0 && (
        <EmptyState title={filtered ? 'No image matches' : 'No images yet'}>
          {filtered
            ? 'No image has this path prefix and tag.'
            : can('images:write')
              ? 'Drop image files above to upload them.'
              : 'A member of the workspace can upload images here.'}
        </EmptyState>
      )}
      {images.items.length > 0 && (
        <>
          <p className="muted result-count">
            {images.items.length} {images.items.length === 1 ? 'image' : 'images'} shown
            {images.hasMore ? ', more below' : ''} · {project.stats.imageCount} in the project
          </p>
          <ul className="image-grid" aria-label="Images">
            {images.items.map((image) => (
              <ImageTile key={image.id} image={image} />
            ))}
          </ul>
        </>
      )}
      {images.status === 'done' && images.error !== null && <ErrorMessage error={images.error} onRetry={images.loadMore} />}
      <LoadMoreButton list={images} label="Load more" className="load-more" />
    </>
  );
}

function SearchForm({
  prefix,
  tag,
  onChange,
}: {
  prefix: string;
  tag: string;
  onChange: (next: { prefix?: string; tag?: string }) => void;
}) {
  const [values, setValues] = useState({ prefix, tag });
  const id = useId();
  const changed = values.prefix !== prefix || values.tag !== tag;
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    if (!changed) return;
    const timer = setTimeout(() => latest.current(values), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [values, changed]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a form with role search; the e2e tests find it by that role
    <form
      className="image-search"
      role="search"
      aria-label="Search images"
      onSubmit={(event) => {
        event.preventDefault();
        onChange(values);
      }}
    >
      <div className="inline-field">
        <label htmlFor={`${id}-prefix`}>Path starts with</label>
        <input
          id={`${id}-prefix`}
          type="search"
          value={values.prefix}
          onChange={(event) => setValues({ ...values, prefix: event.target.value })}
        />
      </div>
      <div className="inline-field">
        <label htmlFor={`${id}-tag`}>Tag</label>
        <input id={`${id}-tag`} type="search" value={values.tag} onChange={(event) => setValues({ ...values, tag: event.target.value })} />
      </div>
      <button type="submit" className="button">
        Search
      </button>
    </form>
  );
}

function ImageTile({ image }: { image: Image }) {
  const { project, base } = useImageProject();
  const thumbnail = useCdnAddress(project, image, THUMBNAIL);
  return (
    <li className="image-tile">
      <Link to={`${base}/images/${image.id}`} className="image-tile-link">
        <span className="thumbnail">
          {thumbnail.status === 'done' && <img src={thumbnail.src} alt={image.altText ?? ''} loading="lazy" width={160} height={160} />}
          {thumbnail.status === 'failed' && <span className="muted">No preview</span>}
        </span>
        <span className="image-tile-path">{image.path}</span>
      </Link>
      <span className="muted image-tile-facts">
        {image.width} × {image.height} · {image.format.toUpperCase()} · {formatBytes(image.fileSize)}
      </span>
      {image.tags.length > 0 && (
        <span className="tags">
          {image.tags.map((each) => (
            <span key={each} className="badge">
              {each}
            </span>
          ))}
        </span>
      )}
    </li>
  );
}
