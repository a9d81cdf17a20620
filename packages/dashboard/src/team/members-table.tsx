import type { Member } from '@loupe/contract';
import { actionsColumn } from '../components/data-table.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { PagedTable } from '../components/paged-table.tsx';
import { usePagedList } from '../components/use-paged-list.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { MemberRow } from './member-row.tsx';

const PAGE = 50;

/** The members with their roles, and what the caller may do to each (member-row.tsx). */
export function MembersTable() {
  const { api } = useWorkspace();
  const members = usePagedList<Member>((signal) => api.all.listMembers({ limit: PAGE + 1 }, { signal }), [api], PAGE);
  // Known only once every member is listed: an owner on a page not read yet would be another.
  const owners = members.items.filter((member) => member.role === 'owner');
  const soleOwner = !members.hasMore && owners.length === 1 ? owners[0]!.userId : null;
  return (
    <section className="team-section" aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      <PagedTable
        list={members}
        loadingLabel="Loading members"
        empty={<EmptyState title="No members">Nobody is in this workspace.</EmptyState>}
        caption="Members"
        className="members-table"
        columns={['Name', 'Email', 'Role', actionsColumn]}
        row={(member) => (
          <MemberRow key={member.userId} member={member} lastOwner={member.userId === soleOwner} onChanged={members.reload} />
        )}
      />
    </section>
  );
}
