import type { ImageOrigin, ImageOriginInput } from '@loupe/contract';
import { useState } from 'react';
import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { SaveActions } from '../components/save-actions.tsx';
import { SelectField } from '../components/select-field.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { useImageProject } from './project-context.ts';

type Kind = 'none' | 'https' | 's3';

/** The request body from the form's fields; an empty secret keeps the stored one. */
function originFrom(kind: Kind, fields: Record<string, string>): ImageOriginInput | null {
  const field = (name: string) => (fields[`origin.${name}`] ?? '').trim();
  if (kind === 'none') return null;
  if (kind === 'https') return { kind, baseUrl: field('baseUrl') };
  const secret = field('secretAccessKey');
  return {
    kind,
    endpoint: field('endpoint'),
    region: field('region'),
    bucket: field('bucket'),
    prefix: field('prefix'),
    accessKeyId: field('accessKeyId'),
    ...(secret === '' ? {} : { secretAccessKey: secret }),
  };
}

/** The origin a missing image is fetched from on its first CDN request (an https site or an S3 bucket), or none. */
export function OriginForm() {
  const { api } = useWorkspace();
  const { project } = useImageProject();
  const current = useQuery(() => api.getImageOrigin({ projectId: project.id }), [api, project.id]);
  if (current.status === 'failed') return <ErrorMessage error={current.error} />;
  if (current.status !== 'done') return <LoadingState label="Loading the origin" />;
  return <OriginFields initial={current.data.origin} />;
}

function OriginFields({ initial }: { initial: ImageOrigin['origin'] }) {
  const { api } = useWorkspace();
  const { project } = useImageProject();
  // The answer of a save is the stored origin: shown from then on (the secret field empties itself).
  const [stored, setStored] = useState(initial);
  const [kind, setKind] = useState<Kind>(initial?.kind ?? 'none');
  const [saved, setSaved] = useState(false);
  /** Each save empties the secret field: a written secret is never on screen again. */
  const [saves, setSaves] = useState(0);
  const form = useSubmit(async (fields) => {
    setSaved(false);
    const answer = await api.setImageOrigin({ projectId: project.id, body: { origin: originFrom(kind, fields) } });
    setStored(answer.origin);
    setSaves((count) => count + 1);
    setSaved(true);
  });
  const https = stored?.kind === 'https' ? stored : undefined;
  const s3 = stored?.kind === 's3' ? stored : undefined;
  return (
    <form className="card stack" onSubmit={form.onSubmit} noValidate aria-label="Origin">
      <h3>Origin</h3>
      <p className="muted">
        A CDN request for an image this project does not hold yet fetches it from here once, stores it, and serves it: put Loupe in front of
        a site or a bucket without uploading anything first.
      </p>
      {form.error !== null && <ErrorMessage error={form.error} />}
      <SelectField label="Fetch missing images from" name="kind" value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
        <option value="none">Nowhere (a missing image is 404)</option>
        <option value="https">A website (https)</option>
        <option value="s3">An S3-compatible bucket</option>
      </SelectField>
      {kind === 'https' && (
        <FormField
          label="Base URL"
          name="origin.baseUrl"
          defaultValue={https?.baseUrl ?? ''}
          placeholder="https://www.example.com/images/"
          error={form.error}
        />
      )}
      {kind === 's3' && (
        <>
          <FormField
            label="Endpoint"
            name="origin.endpoint"
            defaultValue={s3?.endpoint ?? ''}
            placeholder="https://s3.eu-west-1.amazonaws.com"
            error={form.error}
          />
          <FormField label="Region" name="origin.region" defaultValue={s3?.region ?? ''} placeholder="eu-west-1" error={form.error} />
          <FormField label="Bucket" name="origin.bucket" defaultValue={s3?.bucket ?? ''} error={form.error} />
          <FormField label="Key prefix" name="origin.prefix" defaultValue={s3?.prefix ?? ''} placeholder="photos/" error={form.error} />
          <FormField label="Access key id" name="origin.accessKeyId" defaultValue={s3?.accessKeyId ?? ''} error={form.error} />
          <FormField
            label="Secret access key"
            name="origin.secretAccessKey"
            type="password"
            autoComplete="off"
            key={saves}
            placeholder={s3 ? 'Stored: leave empty to keep it' : ''}
            hint="Never shown again once saved."
            error={form.error}
          />
        </>
      )}
      <SaveActions busy={form.busy} saved={saved} label="Save origin" />
    </form>
  );
}
