import type { Invite } from '@loupe/contract';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { actionsColumn } from '../components/data-table.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { PagedTable } from '../components/paged-table.tsx';
import { usePagedList } from '../components/use-paged-list.ts';
import { formatDateTime } from '../settings/format-date.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';

const PAGE = 50;

/** Invites not yet accepted, revoked or expired (without their links, which were shown once), and revoking one. */
export function PendingInvites({ version }: { version: number }) {
  const { api } = useWorkspace();
  const invites = usePagedList<Invite>((signal) => api.all.listInvites({ limit: PAGE + 1 }, { signal }), [api], PAGE);
  const [revoking, setRevoking] = useState<Invite | null>(null);
  const { reload } = invites;
  useEffect(() => {
    if (version > 0) reload();
  }, [version, reload]);

  return (
    <section className="team-section" aria-labelledby="invites-heading">
      <h2 id="invites-heading">Pending invites</h2>
      <PagedTable
        list={invites}
        loadingLabel="Loading invites"
        empty={<EmptyState title="No pending invites">Invite someone to give them a link that adds them to this workspace.</EmptyState>}
        caption="Pending invites"
        columns={['Email', 'Role', 'Expires', 'Sent', actionsColumn]}
        row={(invite) => (
          <tr key={invite.id}>
            <td>{invite.email}</td>
            <td>
              <span className="badge">{invite.role}</span>
            </td>
            <td>{formatDateTime(invite.expiresAt)}</td>
            <td>{formatDateTime(invite.createdAt)}</td>
            <td>
              <button
                type="button"
                className="button"
                onClick={() => setRevoking(invite)}
                aria-label={`Revoke the invite of ${invite.email}`}
              >
                Revoke
              </button>
            </td>
          </tr>
        )}
      />
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this invite?"
        confirmLabel="Revoke invite"
        destructive
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await api.revokeInvite({ inviteId: revoking.id });
          invites.reload();
        }}
      >
        <p>The link sent to {revoking?.email} stops working at once. You can invite them again later.</p>
      </ConfirmDialog>
    </section>
  );
}
