import type { SigningSettings, UpdateSigning } from '@loupe/contract';
import { type FormEvent, useState } from 'react';
import { useQuery } from '../api/use-query.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { useImageProject } from './project-context.ts';

/** `…/signing`: whether CDN URLs are signed and required, the secret's start, and rotation. */
export function SigningPage() {
  const { api, can } = useWorkspace();
  const { project, reload: reloadProject } = useImageProject();
  const signing = useQuery(() => api.getSigning({ projectId: project.id }), [api, project.id]);
  // The secret is in the answer that generated it only (DESIGN.md §7): kept here until dismissed.
  const [secret, setSecret] = useState<string | null>(null);
  const [rotating, setRotating] = useState(false);

  const apply = async (patch: UpdateSigning) => {
    const answer = await api.updateSigning({ projectId: project.id, body: patch });
    if (answer.signingSecret) setSecret(answer.signingSecret);
    signing.reload();
    reloadProject();
  };

  if (signing.status === 'loading') return <LoadingState label="Loading signing settings" />;
  if (signing.status === 'failed') return <ErrorMessage error={signing.error} onRetry={signing.reload} />;
  const settings = signing.data;
  return (
    <>
      <h2>Signing</h2>
      <p className="muted">
        A signed CDN URL carries an HMAC-SHA256 of its path and query (<code>s</code>) and may expire (<code>exp</code>). Required, an
        unsigned, altered or expired URL is refused with 403.
      </p>
      {secret && <NewSecret secret={secret} onDismiss={() => setSecret(null)} />}
      <dl className="facts card">
        <dt>Signing</dt>
        <dd>{settings.enabled ? 'On' : 'Off'}</dd>
        <dt>Signed URLs required</dt>
        <dd>{settings.requireSignedUrls ? 'Yes' : 'No'}</dd>
        <dt>Secret</dt>
        <dd>{settings.secretPreview ? <code>{settings.secretPreview}…</code> : <span className="muted">None yet</span>}</dd>
        {settings.previousSecretExpiresAt && (
          <>
            <dt>Previous secret</dt>
            <dd>Still verifies until {new Date(settings.previousSecretExpiresAt).toLocaleString()}</dd>
          </>
        )}
      </dl>
      {can('images:write') && (
        <>
          <SigningForm key={`${settings.enabled}-${settings.requireSignedUrls}`} settings={settings} onApply={apply} />
          {settings.enabled && settings.secretPreview && (
            <section className="card stack" aria-label="Rotate the secret">
              <h3>Rotate the secret</h3>
              <p className="muted">
                A new secret signs from now on; URLs signed with the current one keep working for a grace period, then answer 403.
              </p>
              <p>
                <button type="button" className="button" onClick={() => setRotating(true)}>
                  Rotate secret
                </button>
              </p>
            </section>
          )}
          <ConfirmDialog
            open={rotating}
            title="Rotate the signing secret?"
            confirmLabel="Rotate"
            onClose={() => setRotating(false)}
            onConfirm={() => apply({ rotate: true })}
          >
            <p>The new secret is shown once. Give it to every service that signs URLs for this project before the grace period ends.</p>
          </ConfirmDialog>
        </>
      )}
    </>
  );
}

function SigningForm({ settings, onApply }: { settings: SigningSettings; onApply: (patch: UpdateSigning) => Promise<void> }) {
  const [enabled, setEnabled] = useState(settings.enabled);
  const [required, setRequired] = useState(settings.requireSignedUrls);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const changed = enabled !== settings.enabled || required !== settings.requireSignedUrls;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onApply({ enabled, requireSignedUrls: required });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card stack" onSubmit={(event) => void submit(event)} aria-label="Signing settings">
      <h3>Settings</h3>
      {error !== null && <ErrorMessage error={error} />}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(event) => {
            setEnabled(event.target.checked);
            if (!event.target.checked) setRequired(false);
          }}
        />{' '}
        Sign URLs (generates a secret the first time)
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={required}
          onChange={(event) => {
            setRequired(event.target.checked);
            if (event.target.checked) setEnabled(true);
          }}
        />{' '}
        Require signed URLs
      </label>
      {required && !settings.requireSignedUrls && (
        <p className="field-hint muted">Unsigned URLs already in use, including thumbnails on other sites, will answer 403.</p>
      )}
      <p>
        <button type="submit" className="button primary" disabled={busy || !changed}>
          {busy ? 'Saving…' : 'Save signing settings'}
        </button>
      </p>
    </form>
  );
}

function NewSecret({ secret, onDismiss }: { secret: string; onDismiss: () => void }) {
  return (
    <section className="card secret-once" aria-label="New signing secret">
      <h3>New signing secret</h3>
      <p>Store it now: it is shown only this once.</p>
      <div className="url-row">
        <output className="cdn-url" aria-label="Signing secret">
          {secret}
        </output>
        <CopyButton text={secret} label="Copy secret" />
      </div>
      <p>
        <button type="button" className="button" onClick={onDismiss}>
          I have stored it
        </button>
      </p>
    </section>
  );
}
