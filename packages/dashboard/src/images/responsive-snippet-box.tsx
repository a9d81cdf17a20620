import type { Image } from '@loupe/contract';
import { type CdnUrlOptions, cdnUrl, imgSnippet, pictureSnippet } from '@loupe/sdk';
import { useId, useState } from 'react';
import { useQuery } from '../api/use-query.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { cdnParams, publicBaseOf } from './cdn-address.ts';
import { PresetSelect } from './preset-select.tsx';
import { useImageProject } from './project-context.ts';

const DEFAULT_WIDTHS = '320, 640, 960, 1280';
const DEFAULT_SIZES = '100vw';

/** "320, 640 960" → [320, 640, 960]; anything unreadable stays in as NaN for the SDK to refuse by name. */
function parseWidths(text: string): number[] {
  return text
    .split(/[\s,]+/)
    .filter((part) => part !== '')
    .map(Number);
}

/**
 * The `<img>` (or `<picture>` with AVIF and WebP) of this image over a list of widths, to copy:
 * written by the SDK's builders, so the markup is the one a site building it with the SDK gets.
 * A project that requires signatures has the server sign every candidate (its secret stays there).
 */
export function ResponsiveSnippetBox({ image }: { image: Image }) {
  const { api } = useWorkspace();
  const { project } = useImageProject();
  const [preset, setPreset] = useState('');
  const [widths, setWidths] = useState(DEFAULT_WIDTHS);
  const [sizes, setSizes] = useState(DEFAULT_SIZES);
  const [picture, setPicture] = useState(false);
  const id = useId();

  const snippet = useQuery(() => {
    const signedByServer = async (options: CdnUrlOptions) =>
      (
        await api.signUrl({
          projectId: project.id,
          body: { path: options.path, params: cdnParams({ preset: options.preset, transforms: options.transforms }) },
        })
      ).url;
    const options = {
      baseUrl: publicBaseOf(image.url),
      project: project.slug,
      path: image.path,
      preset: preset || undefined,
      widths: parseWidths(widths),
      sizes,
      alt: image.altText ?? '',
      urlOf: project.requireSignedUrls ? signedByServer : cdnUrl,
    };
    return picture ? pictureSnippet({ ...options, formats: ['avif', 'webp'] }) : imgSnippet(options);
  }, [api, project.id, project.slug, project.requireSignedUrls, image.url, image.path, image.altText, preset, widths, sizes, picture]);

  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Responsive snippet</h2>
      <div className="control-row">
        <PresetSelect value={preset} onChange={setPreset} />
        <label className="checkbox">
          <input type="checkbox" checked={picture} onChange={(event) => setPicture(event.target.checked)} /> &lt;picture&gt; with AVIF and
          WebP
        </label>
      </div>
      <div className="inline-field">
        <label htmlFor={`${id}-widths`}>Widths</label>
        <input id={`${id}-widths`} value={widths} onChange={(event) => setWidths(event.target.value)} />
      </div>
      <div className="inline-field">
        <label htmlFor={`${id}-sizes`}>Sizes</label>
        <input id={`${id}-sizes`} value={sizes} onChange={(event) => setSizes(event.target.value)} />
      </div>
      {snippet.status === 'failed' && <ErrorMessage error={snippet.error} />}
      {snippet.status === 'done' && (
        <div className="url-row">
          <output className="cdn-url" aria-label="Responsive snippet">
            {snippet.data}
          </output>
          <CopyButton text={snippet.data} label="Copy snippet" />
        </div>
      )}
      <p className="muted field-hint">
        Widths in image pixels; sizes is the image's width in the layout.
        {project.requireSignedUrls && ' Every URL is signed: this project refuses unsigned requests.'}
      </p>
    </section>
  );
}
