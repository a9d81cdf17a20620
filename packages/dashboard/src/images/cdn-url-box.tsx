import type { Image } from '@loupe/contract';
import { useId, useState } from 'react';
import { useQuery } from '../api/use-query.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { cdnParams } from './cdn-address.ts';
import { PresetSelect } from './preset-select.tsx';
import { useImageProject } from './project-context.ts';
import { useCdnAddress } from './use-cdn-address.ts';

const EXPIRIES = [
  { label: 'Never', seconds: undefined },
  { label: '1 hour', seconds: 3600 },
  { label: '1 day', seconds: 86_400 },
  { label: '7 days', seconds: 7 * 86_400 },
  { label: '30 days', seconds: 30 * 86_400 },
] as const;

/**
 * The CDN URL of an image through a preset, to copy: signed by the server when the project
 * requires signatures, and on request when signing is on but not required.
 */
export function CdnUrlBox({ image }: { image: Image }) {
  const { api } = useWorkspace();
  const { project } = useImageProject();
  const signing = useQuery(() => api.getSigning({ projectId: project.id }), [api, project.id]);
  const [preset, setPreset] = useState('');
  const [wantSigned, setWantSigned] = useState(false);
  const [expiry, setExpiry] = useState(0);
  const id = useId();
  const required = project.requireSignedUrls;
  const signed = required || (wantSigned && signing.data?.enabled === true);
  const address = useCdnAddress(project, image, cdnParams({ preset: preset || undefined }), {
    signed,
    expiresIn: signed ? EXPIRIES[expiry]?.seconds : undefined,
  });

  return (
    <section className="card cdn-url-box" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>CDN URL</h2>
      <div className="control-row">
        <PresetSelect value={preset} onChange={setPreset} />
        {signing.data?.enabled && !required && (
          <label className="checkbox">
            <input type="checkbox" checked={wantSigned} onChange={(event) => setWantSigned(event.target.checked)} /> Signed
          </label>
        )}
        {signed && (
          <div className="inline-field">
            <label htmlFor={`${id}-expiry`}>Expires</label>
            <select id={`${id}-expiry`} value={expiry} onChange={(event) => setExpiry(Number(event.target.value))}>
              {EXPIRIES.map((each, index) => (
                <option key={each.label} value={index}>
                  {each.label}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {address.status === 'loading' && <p className="muted">Signing…</p>}
      {address.status === 'failed' && <ErrorMessage error={address.error} />}
      {address.status === 'done' && (
        <>
          <div className="url-row">
            <output className="cdn-url" aria-label="CDN URL">
              {address.url}
            </output>
            <CopyButton text={address.url} label="Copy URL" />
          </div>
          <p className="muted field-hint">
            {required ? 'Signed: this project refuses unsigned requests.' : signed ? 'Signed with the project secret.' : 'Unsigned.'}
            {address.expiresAt && ` Works until ${new Date(address.expiresAt).toLocaleString()}.`}
          </p>
        </>
      )}
    </section>
  );
}
