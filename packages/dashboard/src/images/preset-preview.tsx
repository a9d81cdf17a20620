import type { Image, ImageProject, TransformName, Transforms } from '@loupe/contract';
import { errorFromResponse } from '@loupe/sdk';
import { useEffect, useRef, useState } from 'react';
import { ErrorMessage } from '../components/error-message.tsx';
import { cdnParams } from './cdn-address.ts';
import { formatBytes } from './format-bytes.ts';
import { fieldOfQueryName } from './transform-controls.ts';
import { useCdnAddress } from './use-cdn-address.ts';

/**
 * What Chromium sends for an `<img>`: the preview asks with it so that `format=auto`
 * negotiates exactly as the image on a real page would (DESIGN.md §7).
 */
const IMAGE_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';

type Result =
  | { status: 'loading' }
  | { status: 'failed'; error: unknown }
  | { status: 'done'; objectUrl: string; bytes: number; type: string; cache: string | null };

export interface PresetPreviewProps {
  project: ImageProject;
  image: Image;
  transforms: Partial<Transforms>;
  /** The CDN's messages about parameters (keyed by field), to show at their controls. */
  onFieldErrors: (errors: Partial<Record<TransformName, string[]>>) => void;
}

/**
 * The original and the CDN's real answer for these ad-hoc transforms, side by side, with the
 * bytes, dimensions and format of each. A project that requires signatures gets its preview
 * URL signed by the server first.
 */
export function PresetPreview({ project, image, transforms, onFieldErrors }: PresetPreviewProps) {
  const original = useCdnAddress(project, image, {});
  const address = useCdnAddress(project, image, cdnParams({ transforms }));
  const { result, busy } = useVariant(address.status === 'done' ? address.src : undefined, onFieldErrors);
  const [measured, setMeasured] = useState<{ objectUrl: string; width: number; height: number } | null>(null);
  const size = result.status === 'done' && measured?.objectUrl === result.objectUrl ? measured : null;
  const failed = address.status === 'failed' ? address.error : result.status === 'failed' ? result.error : undefined;

  return (
    <div className="preview-pair">
      <figure className="preview">
        <figcaption>Original</figcaption>
        <div className="preview-frame">{original.status === 'done' && <img src={original.src} alt="Original" />}</div>
        <dl className="preview-facts">
          <dt>Dimensions</dt>
          <dd>
            {image.width} × {image.height}
          </dd>
          <dt>Size</dt>
          <dd>{formatBytes(image.fileSize)}</dd>
          <dt>Format</dt>
          <dd>{image.format.toUpperCase()}</dd>
        </dl>
      </figure>
      <figure className={busy ? 'preview busy' : 'preview'} aria-busy={busy}>
        <figcaption>Result {busy && result.status !== 'loading' && <span className="muted">(updating…)</span>}</figcaption>
        <div className="preview-frame">
          {result.status === 'done' && (
            <img
              key={result.objectUrl}
              src={result.objectUrl}
              alt="Preview result"
              onLoad={(event) =>
                setMeasured({
                  objectUrl: result.objectUrl,
                  width: event.currentTarget.naturalWidth,
                  height: event.currentTarget.naturalHeight,
                })
              }
            />
          )}
          {result.status === 'loading' && <span className="spinner" role="status" aria-label="Loading the preview" />}
          {failed !== undefined && <ErrorMessage error={failed} />}
        </div>
        {result.status === 'done' && (
          <dl className="preview-facts" aria-live="polite">
            <dt>Dimensions</dt>
            <dd data-testid="result-dimensions">{size ? `${size.width} × ${size.height}` : '…'}</dd>
            <dt>Size</dt>
            <dd>
              {formatBytes(result.bytes)}{' '}
              <span className="muted">({Math.round((result.bytes / image.fileSize) * 100)}% of the original)</span>
            </dd>
            <dt>Format</dt>
            <dd>{formatOf(result.type)}</dd>
            {result.cache && (
              <>
                <dt>Cache</dt>
                <dd>{result.cache}</dd>
              </>
            )}
          </dl>
        )}
      </figure>
    </div>
  );
}

/** `image/svg+xml` → `SVG`. */
function formatOf(contentType: string): string {
  return (contentType.split(';')[0]?.split('/')[1] ?? contentType).replace(/\+.*$/, '').toUpperCase();
}

/**
 * Fetches a variant from the CDN (not a registry operation: the CDN is the product being
 * previewed), keeping its bytes and type, which an `<img>` alone would not tell. A refused
 * transform comes back as the API's error body, keyed by the query's names.
 */
function useVariant(src: string | undefined, onFieldErrors: PresetPreviewProps['onFieldErrors']): { result: Result; busy: boolean } {
  const [result, setResult] = useState<Result>({ status: 'loading' });
  const [busy, setBusy] = useState(false);
  const report = useRef(onFieldErrors);
  report.current = onFieldErrors;
  // The object URL on screen, released when another replaces it or the preview goes away.
  const shown = useRef<string | undefined>(undefined);
  const show = (next: Result) => {
    if (shown.current) URL.revokeObjectURL(shown.current);
    shown.current = next.status === 'done' ? next.objectUrl : undefined;
    setResult(next);
  };
  useEffect(() => () => show({ status: 'loading' }), []);

  useEffect(() => {
    if (src === undefined) return;
    const controller = new AbortController();
    setBusy(true);
    (async () => {
      const response = await fetch(src, { headers: { accept: IMAGE_ACCEPT }, signal: controller.signal });
      if (!response.ok) {
        const error = await errorFromResponse(response);
        const byField: Partial<Record<TransformName, string[]>> = {};
        for (const [name, messages] of Object.entries(error.details?.fieldErrors ?? {})) {
          const field = fieldOfQueryName(name);
          if (field) byField[field] = messages;
        }
        report.current(byField);
        show({ status: 'failed', error });
        return;
      }
      const blob = await response.blob();
      if (controller.signal.aborted) return;
      report.current({});
      const type = blob.type || (response.headers.get('content-type') ?? '');
      show({ status: 'done', objectUrl: URL.createObjectURL(blob), bytes: blob.size, type, cache: response.headers.get('x-cache') });
    })()
      .catch((error: unknown) => {
        if (!controller.signal.aborted) show({ status: 'failed', error });
      })
      .finally(() => {
        if (!controller.signal.aborted) setBusy(false);
      });
    return () => controller.abort();
  }, [src]);
  return { result, busy };
}
