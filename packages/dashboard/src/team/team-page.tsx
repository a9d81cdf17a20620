import { useState } from 'react';
import { PageHeader } from '../components/page-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { InviteDialog } from './invite-dialog.tsx';
import { MembersTable } from './members-table.tsx';
import { PendingInvites } from './pending-invites.tsx';
import '../settings/settings.css';
import './team.css';

/** `/w/:ws/team`: the members and their roles, and (for team:admin) the invites. */
export function TeamPage() {
  const { can } = useWorkspace();
  const [inviting, setInviting] = useState(false);
  // Bumped when an invite is created, so the pending list asks again.
  const [invitesVersion, setInvitesVersion] = useState(0);
  const admin = can('team:admin');
  return (
    <>
      <PageHeader
        title="Team"
        description="Who is in this workspace, and with which role."
        actions={
          admin && (
            <button type="button" className="button primary" onClick={() => setInviting(true)}>
              Invite someone
            </button>
          )
        }
      />
      <MembersTable />
      {admin && <PendingInvites version={invitesVersion} />}
      {admin && <InviteDialog open={inviting} onClose={() => setInviting(false)} onCreated={() => setInvitesVersion((n) => n + 1)} />}
    </>
  );
}
