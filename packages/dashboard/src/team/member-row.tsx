import { type Member, type Role, roles } from '@loupe/contract';
import { useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { useSession, useSignedIn } from '../session/session-context.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { roleLabels } from './role-labels.ts';

/**
 * One member: their role (a select for those who may change it), remove, or leave on the
 * caller's own row. The API's rules (only owners touch owners, a workspace keeps an owner)
 * are shown here: as a note where the caller may not act (the last owner reads why they cannot
 * leave or step down before trying), and as the API's refusal under the row when a change is refused.
 */
export function MemberRow({ member, lastOwner, onChanged }: { member: Member; lastOwner: boolean; onChanged: () => void }) {
  const { api, can, workspace } = useWorkspace();
  const { user } = useSignedIn();
  const { refresh } = useSession();
  const navigate = useNavigate();
  const selectId = useId();
  const noteId = useId();
  const self = member.userId === user.id;
  const callerIsOwner = workspace.role === 'owner';
  const admin = can('team:admin');
  // The API refuses the last owner's leaving or stepping down: said before they try.
  const stuckOwner = lastOwner && self;
  const manages = admin && (member.role !== 'owner' || callerIsOwner) && !stuckOwner;
  const [role, setRole] = useState<Role>(member.role);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [confirming, setConfirming] = useState<'remove' | 'leave' | null>(null);
  useEffect(() => setRole(member.role), [member.role]);

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await api.updateMember({ userId: member.userId, body: { role } });
      // The caller's own role lives in the session: what they may do changes with it.
      if (self) await refresh();
      onChanged();
    } catch (failure) {
      setError(failure);
    } finally {
      setSaving(false);
    }
  };
  const undo = () => {
    setRole(member.role);
    setError(null);
  };

  return (
    <>
      <tr className={error !== null ? 'has-message' : undefined}>
        <td>
          {member.name}
          {self && <span className="muted"> (you)</span>}
        </td>
        <td>{member.email}</td>
        <td>
          {manages ? (
            <div className="role-control">
              <label htmlFor={selectId} className="visually-hidden">
                Role of {member.name}
              </label>
              <select
                id={selectId}
                className="select"
                value={role}
                onChange={(event) => setRole(event.target.value as Role)}
                disabled={saving}
              >
                {roles
                  .filter((each) => callerIsOwner || each !== 'owner')
                  .map((each) => (
                    <option key={each} value={each}>
                      {roleLabels[each].name}
                    </option>
                  ))}
              </select>
              {role !== member.role && (
                <>
                  <button type="button" className="button primary" onClick={() => void save()} disabled={saving}>
                    {saving ? 'Saving…' : 'Save role'}
                  </button>
                  <button type="button" className="button" onClick={undo} disabled={saving}>
                    Undo
                  </button>
                </>
              )}
            </div>
          ) : (
            <>
              <span className="badge">{member.role}</span>
              {stuckOwner ? (
                <p id={noteId} className="row-note muted">
                  You are the only owner, and a workspace keeps one: make another member owner first, then change your role or leave.
                </p>
              ) : (
                admin && member.role === 'owner' && <p className="row-note muted">Only an owner can change or remove an owner.</p>
              )}
            </>
          )}
        </td>
        <td className="row-actions">
          {self ? (
            <button
              type="button"
              className="button"
              onClick={() => setConfirming('leave')}
              disabled={stuckOwner}
              aria-describedby={stuckOwner ? noteId : undefined}
            >
              Leave
            </button>
          ) : (
            manages && (
              <button type="button" className="button" onClick={() => setConfirming('remove')} aria-label={`Remove ${member.name}`}>
                Remove
              </button>
            )
          )}
          {manages && !self && (
            <ConfirmDialog
              open={confirming === 'remove'}
              title={`Remove ${member.name}?`}
              confirmLabel="Remove member"
              destructive
              onClose={() => setConfirming(null)}
              onConfirm={async () => {
                await api.removeMember({ userId: member.userId });
                onChanged();
              }}
            >
              <p>
                {member.email} loses access to {workspace.name} at once, and their API keys of this workspace stop working. You can invite
                them again later.
              </p>
            </ConfirmDialog>
          )}
          {self && (
            <ConfirmDialog
              open={confirming === 'leave'}
              title={`Leave ${workspace.name}?`}
              confirmLabel="Leave workspace"
              destructive
              onClose={() => setConfirming(null)}
              onConfirm={async () => {
                await api.removeMember({ userId: member.userId });
                // Asked before moving on: the workspace must be gone from the session when `/` picks where to go.
                await refresh();
                navigate('/', { replace: true });
              }}
            >
              <p>You lose access to {workspace.name} and your API keys of it stop working. To come back, you need a new invite.</p>
            </ConfirmDialog>
          )}
        </td>
      </tr>
      {error !== null && (
        <tr className="row-message">
          <td colSpan={4}>
            <ErrorMessage error={error} />
          </td>
        </tr>
      )}
    </>
  );
}
