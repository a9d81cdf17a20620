import type { Member } from '@loupe/contract';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { usePagedList } from '../components/use-paged-list.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { MemberRow } from './member-row.tsx';
import { LoadMoreButton } from '../components/load-more-button.tsx';

const PAGE = 50;

/** The members with their roles, and what the caller may do to each (member-row.tsx). */
export function MembersTable() {
  const { api } = useWorkspace();
  const members = usePagedList<Member>((signal) => api.all.listMembers({ limit: PAGE + 1 }, { signal }), [api], PAGE);
  return (
    <section className="team-section" aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      {members.status === 'loading' && <LoadingState label="Loading members" />}
      {members.status === 'failed' && <ErrorMessage error={members.error} onRetry={members.reload} />}
      {members.status === 'done' && members.items.length === 0 && <EmptyState title="No members">Nobody is in this workspace.</EmptyState>}
      {members.status === 'done' && members.items.length > 0 && (
        <div className="table-scroll">
          <table className="members-table">
            <caption className="visually-hidden">Members</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.items.map((member) => (
                <MemberRow key={member.userId} member={member} onChanged={members.reload} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {members.status === 'done' && members.error !== null && <ErrorMessage error={members.error} onRetry={members.loadMore} />}
      <LoadMoreButton list={members} />
    </section>
  );
}
