import { type CreatedApiKey, roleScopes, type Scope } from '@loupe/contract';
import { useId, useState } from 'react';
import { fieldErrorsOf } from '../api/api-error.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { Dialog } from '../components/dialog.tsx';
import { DialogForm } from '../components/dialog-form.tsx';
import { FormField } from '../components/form-field.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';

const FIELDS = ['name', 'scopes', 'expiresAt'];

/** What each scope lets a key do (DESIGN.md §5), beside its checkbox. */
const scopeHints: Record<Scope, string> = {
  'images:read': 'read images, presets and usage',
  'images:write': 'upload and change images and presets',
  'crawls:write': 'start and cancel crawls (spends credits)',
  'reports:read': 'read crawls, reports, diffs and credits',
  'reports:write': 'share, export and delete reports',
  'projects:write': 'create and change projects, schedules and alerts',
  'rules:write': 'create and change rule packs',
  'search:read': 'search crawled pages',
  'team:admin': 'manage members, invites, keys and settings',
};

/** The last moment of a chosen day in the user's own time zone, as the API's ISO timestamp. */
function endOfDay(day: string): string {
  return new Date(`${day}T23:59:59.999`).toISOString();
}

function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/**
 * A new API key: name, the scopes the user's role allows (all by default), an optional
 * expiry. Its secret is shown once, then forgotten when the dialog closes.
 */
export function CreateKeyDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const { api, workspace } = useWorkspace();
  const allowed = roleScopes[workspace.role];
  const [scopes, setScopes] = useState<Scope[]>([...allowed]);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const scopesId = useId();
  const form = useSubmit(async ({ name = '', expiresAt = '' }) => {
    const key = await api.createApiKey({
      body: { name, scopes, ...(expiresAt ? { expiresAt: endOfDay(expiresAt) } : {}) },
    });
    setCreated(key);
    onCreated();
  });
  const close = () => {
    // The secret leaves the page with the dialog: the list shows only the key's prefix.
    setCreated(null);
    setScopes([...allowed]);
    form.reset();
    onClose();
  };
  const scopeErrors = fieldErrorsOf(form.error).scopes ?? [];

  if (created) {
    return (
      <Dialog open={open} title="Copy your new API key" onClose={close}>
        <div className="dialog-body">
          <p className="secret-warning" role="alert">
            <strong>Copy it now: you won't see it again.</strong> Loupe stores only a hash of the key, so it cannot show it later.
          </p>
          <label htmlFor={`${scopesId}-secret`}>Secret of “{created.name}”</label>
          <div className="copy-row">
            <input
              id={`${scopesId}-secret`}
              className="secret"
              readOnly
              value={created.key}
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton text={created.key} label="Copy key" />
          </div>
          <p className="muted">
            Send it as <code>Authorization: Bearer {created.prefix}…</code>. Scopes: {created.scopes.join(', ')}.
          </p>
        </div>
        <div className="dialog-actions">
          <button type="button" className="button primary" onClick={close}>
            I have copied it
          </button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog open={open} title="Create an API key" onClose={close}>
      <DialogForm form={form} fieldNames={FIELDS} submitLabel="Create key" busyLabel="Creating…" onCancel={close}>
        <FormField label="Name" name="name" required maxLength={100} autoFocus hint="What uses it, e.g. “CI deploys”." error={form.error} />
        <fieldset className="scope-fieldset" aria-describedby={scopeErrors.length > 0 ? `${scopesId}-error` : undefined}>
          <legend>Scopes</legend>
          <p className="field-hint muted">A key can do no more than your role ({workspace.role}) allows.</p>
          {allowed.map((scope) => (
            <label key={scope} className="checkbox">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(event) => setScopes((now) => (event.target.checked ? [...now, scope] : now.filter((each) => each !== scope)))}
              />
              <span>
                <code>{scope}</code> <span className="muted">{scopeHints[scope]}</span>
              </span>
            </label>
          ))}
          {scopeErrors.length > 0 && (
            <p id={`${scopesId}-error`} className="field-error">
              {scopeErrors.join(' ')}
            </p>
          )}
        </fieldset>
        <FormField
          label="Expires on (optional)"
          name="expiresAt"
          type="date"
          min={today()}
          hint="The key stops working at the end of this day. Leave it empty for a key that does not expire."
          error={form.error}
        />
      </DialogForm>
    </Dialog>
  );
}
