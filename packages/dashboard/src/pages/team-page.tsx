import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';

/** The workspace's members and their roles (invites and role changes build on this). */
export function TeamPage() {
  const { api } = useWorkspace();
  const members = useQuery(() => api.listMembers({ limit: 100 }), [api]);
  return (
    <>
      <PageHeader title="Team" description="Who is in this workspace, and with which role." />
      {members.status === 'loading' && <LoadingState label="Loading members" />}
      {members.status === 'failed' && <ErrorMessage error={members.error} onRetry={members.reload} />}
      {members.status === 'done' && (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Members</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {members.data.map((member) => (
                <tr key={member.userId}>
                  <td>{member.name}</td>
                  <td>{member.email}</td>
                  <td>
                    <span className="badge">{member.role}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
