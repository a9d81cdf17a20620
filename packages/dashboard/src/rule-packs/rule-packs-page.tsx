import type { RulePackSummary } from '@loupe/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '../api/use-query.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { actionsColumn } from '../components/data-table.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { PagedTable } from '../components/paged-table.tsx';
import { usePagedList } from '../components/use-paged-list.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import '../schedules/automation.css';
import './rule-packs.css';

const PAGE_SIZE = 25;

/** `/w/:ws/rules`: the workspace's custom rule packs, to open, create or delete. */
export function RulePacksPage() {
  const { api, can, workspace } = useWorkspace();
  const packs = usePagedList((signal) => api.all.listRulePacks({ limit: PAGE_SIZE + 1 }, { signal }), [api], PAGE_SIZE);
  const team = useQuery(() => api.getTeam(), [api]);
  const [deleting, setDeleting] = useState<RulePackSummary | null>(null);
  const writable = can('rules:write');
  const newPack = writable && (
    <Link className="button primary" to={`/w/${workspace.id}/rules/new`}>
      New rule pack
    </Link>
  );
  const planLacksPacks = team.status === 'done' && !team.data.limits.customRulePacks;

  return (
    <>
      <PageHeader
        title="Rules"
        description="Custom rule packs: your own checks, run by the crawls of the projects they are attached to."
        actions={newPack}
      />
      {planLacksPacks && (
        <p className="notice">
          Custom rule packs are not part of the {team.data.plan} plan: packs can be written, validated and read, but saving and previewing
          need a plan that includes them
          {workspace.role === 'owner' ? (
            <>
              {' '}
              (<Link to={`/w/${workspace.id}/settings/billing`}>change the plan</Link>).
            </>
          ) : (
            <> (ask an owner to change the plan).</>
          )}
        </p>
      )}
      <PagedTable
        list={packs}
        loadingLabel="Loading rule packs"
        empty={
          <EmptyState title="No rule packs yet" action={newPack}>
            A rule pack holds checks of your own, written as JSON: a CSS selector, a header, a status, text or a metric, and the message to
            show.
          </EmptyState>
        }
        columns={['Name', 'Rules', 'Changed', writable && actionsColumn]}
        row={(pack) => (
          <tr key={pack.id}>
            <td>
              <Link to={`/w/${workspace.id}/rules/${pack.id}`}>{pack.name}</Link>
              {pack.description && <div className="muted small">{pack.description}</div>}
            </td>
            <td>{pack.ruleCount}</td>
            <td>
              <time dateTime={pack.updatedAt}>{new Date(pack.updatedAt).toLocaleString()}</time>
            </td>
            {writable && (
              <td className="row-buttons">
                <button type="button" className="button" onClick={() => setDeleting(pack)} aria-label={`Delete ${pack.name}`}>
                  Delete
                </button>
              </td>
            )}
          </tr>
        )}
        more={{ label: 'Show more packs', className: 'more-row' }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'the pack'}?`}
        confirmLabel="Delete pack"
        destructive
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await api.deleteRulePack({ packId: deleting.id });
          packs.reload();
        }}
      >
        <p>Crawls stop running its {deleting?.ruleCount} rules. Reports already built keep their findings. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
