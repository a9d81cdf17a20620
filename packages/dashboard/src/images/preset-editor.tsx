import { canonicalQuery, type Image, LoupeError, type Preset, type TransformName, type Transforms } from '@loupe/contract';
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { fieldErrorsOf, onlyFieldErrors } from '../api/api-error.ts';
import { useQuery } from '../api/use-query.ts';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { cdnParams } from './cdn-address.ts';
import { PresetPreview } from './preset-preview.tsx';
import { useImageProject } from './project-context.ts';
import { TransformControlInput } from './transform-control-input.tsx';
import { transformControls } from './transform-controls.ts';

/** The preview waits for a pause in the changes: a slider drag is one CDN request, not fifty. */
const PREVIEW_DELAY_MS = 300;
/** Images offered to preview on; the image page links here with any other (`?image=`). */
const PICKABLE_IMAGES = 100;

type Values = Partial<Record<TransformName, unknown>>;

/** Every field the editor shows its messages beside; anything else goes above the form. */
const SHOWN_FIELDS = ['name', 'transforms', ...transformControls.map((control) => `transforms.${control.name}`)];

/**
 * The API's failure with a 409 about the name turned into a message at the name field,
 * where the user fixes it.
 */
function atNameField(error: unknown): unknown {
  if (!(error instanceof LoupeError) || error.code !== 'preset_name_taken') return error;
  return new LoupeError(error.code, { message: error.message, details: { fieldErrors: { name: [error.message] }, formErrors: [] } });
}

/** A value that follows `value` once it has stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number, key: string): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return settled;
}

/**
 * A preset's name and its 19 transform parameters, with the CDN's answer for them beside
 * (PresetPreview); saves a new preset or the one given. Viewers see it read-only.
 */
export function PresetEditor({ preset, initialImageId }: { preset?: Preset; initialImageId?: string }) {
  const { api, can } = useWorkspace();
  const { project, base } = useImageProject();
  const navigate = useNavigate();
  const writable = can('images:write');
  const [name, setName] = useState(preset?.name ?? '');
  const [values, setValues] = useState<Values>(() => ({ ...(preset?.transforms ?? {}) }));
  const [saveError, setSaveError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [previewErrors, setPreviewErrors] = useState<Partial<Record<TransformName, string[]>>>({});
  const id = useId();

  const transforms = useMemo(
    () => Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<Transforms>,
    [values],
  );
  const key = JSON.stringify(transforms);
  const previewed = useSettled(transforms, PREVIEW_DELAY_MS, key);
  const fieldErrors = fieldErrorsOf(saveError);

  const change = (field: TransformName, value: unknown) => {
    setValues((current) => ({ ...current, [field]: value }));
    setSaved(false);
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setSaveError(null);
    setSaved(false);
    try {
      // The server checks the transforms against the same contract; its messages come back per field.
      const body = { name, transforms: transforms as Transforms };
      if (preset) {
        await api.updatePreset({ projectId: project.id, presetId: preset.id, body });
        setSaved(true);
      } else {
        const created = await api.createPreset({ projectId: project.id, body });
        void navigate(`${base}/presets/${created.id}`, { replace: true, state: { saved: true } });
      }
    } catch (failure) {
      setSaveError(atNameField(failure));
    } finally {
      setBusy(false);
    }
  };

  const nameErrors = fieldErrors.name ?? [];
  return (
    <div className="preset-editor">
      <form id={`${id}-form`} className="preset-form" onSubmit={(event) => void save(event)} noValidate aria-label="Preset">
        {saveError !== null && <ErrorMessage error={saveError} hideFieldErrors={onlyFieldErrors(saveError, SHOWN_FIELDS)} />}
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            name="name"
            value={name}
            readOnly={!writable}
            autoComplete="off"
            aria-invalid={nameErrors.length > 0 || undefined}
            aria-describedby={`${id}-name-hint${nameErrors.length > 0 ? ` ${id}-name-error` : ''}`}
            onChange={(event) => {
              setName(event.target.value);
              setSaved(false);
            }}
          />
          <p id={`${id}-name-hint`} className="field-hint muted">
            Letters, digits, hyphens and underscores; used as <code>?t={name || 'name'}</code> in CDN URLs.
          </p>
          {nameErrors.length > 0 && (
            <p id={`${id}-name-error`} className="field-error">
              {nameErrors.join(' ')}
            </p>
          )}
        </div>
        <fieldset className="transform-controls" disabled={!writable}>
          <legend>Transforms</legend>
          {fieldErrors.transforms && <p className="field-error">{fieldErrors.transforms.join(' ')}</p>}
          {transformControls.map((control) => (
            <TransformControlInput
              key={control.name}
              control={control}
              value={values[control.name]}
              onChange={(value) => change(control.name, value)}
              errors={[...(fieldErrors[`transforms.${control.name}`] ?? []), ...(previewErrors[control.name] ?? [])]}
            />
          ))}
        </fieldset>
        <p className="muted query-preview">
          Query: <code>{canonicalQuery(cdnParams({ transforms })) || '(none: the original)'}</code>
        </p>
      </form>
      <PreviewColumn transforms={previewed} initialImageId={initialImageId} onFieldErrors={setPreviewErrors}>
        {/* Beside the preview, which stays in view while the controls scroll: judge the result, then save it. */}
        {writable && (
          <div className="form-actions">
            <button type="submit" form={`${id}-form`} className="button primary" disabled={busy}>
              {busy ? 'Saving…' : preset ? 'Save preset' : 'Create preset'}
            </button>
            <span role="status" className="muted">
              {saved && !busy ? 'Saved' : ''}
            </span>
          </div>
        )}
      </PreviewColumn>
    </div>
  );
}

function PreviewColumn(props: {
  transforms: Partial<Transforms>;
  initialImageId?: string;
  onFieldErrors: (errors: Partial<Record<TransformName, string[]>>) => void;
  children: ReactNode;
}) {
  const { api } = useWorkspace();
  const { project } = useImageProject();
  const images = useQuery(async () => {
    const listed = await api.listImages({ projectId: project.id, limit: PICKABLE_IMAGES });
    // An image from a link that is not among the first ones is fetched on its own.
    const wanted = props.initialImageId;
    if (!wanted || listed.some((image) => image.id === wanted)) return listed;
    return [await api.getImage({ projectId: project.id, imageId: wanted }), ...listed];
  }, [api, project.id, props.initialImageId]);
  const [chosen, setChosen] = useState(props.initialImageId ?? '');
  const id = useId();

  let content: ReactNode;
  if (images.status === 'loading') content = <LoadingState label="Loading images" />;
  else if (images.status === 'failed') content = <ErrorMessage error={images.error} onRetry={images.reload} />;
  else if (images.data.length === 0) {
    content = <EmptyState title="No image to preview on">Upload an image to the project to see what the preset does.</EmptyState>;
  } else {
    const image: Image = images.data.find((each) => each.id === chosen) ?? images.data[0]!;
    content = (
      <>
        <div className="inline-field">
          <label htmlFor={`${id}-image`}>Preview on</label>
          <select id={`${id}-image`} value={image.id} onChange={(event) => setChosen(event.target.value)}>
            {images.data.map((each) => (
              <option key={each.id} value={each.id}>
                {each.path}
              </option>
            ))}
          </select>
        </div>
        <PresetPreview project={project} image={image} transforms={props.transforms} onFieldErrors={props.onFieldErrors} />
      </>
    );
  }
  return (
    <section className="preview-column" aria-label="Preview">
      <h2>Preview</h2>
      {content}
      {props.children}
    </section>
  );
}
