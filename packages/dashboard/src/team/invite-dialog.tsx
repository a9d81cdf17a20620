import { type CreatedInvite, type Role, roles } from '@loupe/contract';
import { useId, useState } from 'react';
import { CopyButton } from '../components/copy-button.tsx';
import { Dialog } from '../components/dialog.tsx';
import { DialogForm } from '../components/dialog-form.tsx';
import { FormField } from '../components/form-field.tsx';
import { SelectField } from '../components/select-field.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { formatDateTime } from '../settings/format-date.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { roleLabels } from './role-labels.ts';

const FIELDS = ['email', 'role', 'expiresInDays'];

/**
 * Invites an email with a role and an expiry; then shows the link, which the API gives in
 * this answer only, with a copy button. Closing forgets it.
 */
export function InviteDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const { api, workspace } = useWorkspace();
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const linkId = useId();
  const form = useSubmit(async ({ email = '', role = 'member', expiresInDays = '' }) => {
    const days = expiresInDays.trim();
    const invite = await api.createInvite({
      body: { email, role: role as Role, ...(days === '' ? {} : { expiresInDays: Number(days) }) },
    });
    setCreated(invite);
    onCreated();
  });
  const close = () => {
    setCreated(null);
    form.reset();
    onClose();
  };

  if (created) {
    return (
      <Dialog open={open} title="Send the invite link" onClose={close}>
        <div className="dialog-body">
          <p>
            <strong>{created.email}</strong> is invited as <span className="badge">{created.role}</span>. The link works once, until{' '}
            {formatDateTime(created.expiresAt)}.
          </p>
          <p className="secret-warning">
            This link is shown only now: copy it and send it to them. The list of invites shows the invite without it.
          </p>
          <label htmlFor={linkId}>Invite link</label>
          <div className="copy-row">
            <input id={linkId} className="secret" readOnly value={created.url} onFocus={(event) => event.currentTarget.select()} />
            <CopyButton text={created.url} label="Copy link" />
          </div>
        </div>
        <div className="dialog-actions">
          <button type="button" className="button primary" onClick={close}>
            Done
          </button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog open={open} title="Invite someone" onClose={close}>
      <DialogForm form={form} fieldNames={FIELDS} submitLabel="Create invite" busyLabel="Inviting…" onCancel={close}>
        <FormField label="Email" name="email" type="email" autoComplete="off" required autoFocus error={form.error} />
        <SelectField
          label="Role"
          name="role"
          defaultValue="member"
          error={form.error}
          hint={workspace.role === 'owner' ? undefined : 'Only an owner can invite an owner.'}
        >
          {roles
            .filter((role) => workspace.role === 'owner' || role !== 'owner')
            .map((role) => (
              <option key={role} value={role}>
                {roleLabels[role].name}: {roleLabels[role].can}
              </option>
            ))}
        </SelectField>
        <FormField
          label="Expires after (days)"
          name="expiresInDays"
          type="number"
          inputMode="numeric"
          min={1}
          max={30}
          defaultValue={7}
          hint="1 to 30 days."
          error={form.error}
        />
      </DialogForm>
    </Dialog>
  );
}
