import type { ApiKey } from '@loupe/contract';
import { useState } from 'react';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { actionsColumn } from '../components/data-table.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { PagedTable } from '../components/paged-table.tsx';
import { usePagedList } from '../components/use-paged-list.ts';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { CreateKeyDialog } from './create-key-dialog.tsx';
import { formatDateTime, formatDay, hasExpired } from './format-date.ts';
import { WorkspaceId } from './workspace-id.tsx';

const PAGE = 50;

/**
 * `/w/:ws/settings/keys`: the workspace's API keys without their secrets, a new key (its
 * secret shown once), and revoking one. Keys are team:admin's business: others read why not.
 */
export function ApiKeysPage() {
  const { can } = useWorkspace();
  return (
    <section className="settings-section" aria-labelledby="keys-heading">
      {can('team:admin') ? (
        <ApiKeys />
      ) : (
        <>
          <h2 id="keys-heading">API keys</h2>
          <EmptyState title="Keys are managed by admins">
            API keys give scripts, the CLI and MCP clients access to this workspace. Ask an admin or an owner for one.
          </EmptyState>
          <WorkspaceId />
        </>
      )}
    </section>
  );
}

function ApiKeys() {
  const { api } = useWorkspace();
  const keys = usePagedList<ApiKey>((signal) => api.all.listApiKeys({ limit: PAGE + 1 }, { signal }), [api], PAGE);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const create = (
    <button type="button" className="button primary" onClick={() => setCreating(true)}>
      Create key
    </button>
  );
  return (
    <>
      <div className="section-header">
        <h2 id="keys-heading">API keys</h2>
        {create}
      </div>
      <p className="muted">
        For scripts, the CLI and MCP clients: send a key as <code>Authorization: Bearer loupe_…</code>. Loupe keeps only a hash of each
        secret.
      </p>
      <WorkspaceId />
      <PagedTable
        list={keys}
        loadingLabel="Loading API keys"
        empty={
          <EmptyState title="No API keys yet" action={create}>
            Create one to call the API from a script or the CLI.
          </EmptyState>
        }
        caption="API keys"
        columns={['Name', 'Key', 'Scopes', 'Expires', 'Created', 'Last used', actionsColumn]}
        row={(key) => (
          <tr key={key.id}>
            <th scope="row">{key.name}</th>
            <td>
              <code>{key.prefix}…</code>
            </td>
            <td>
              <ul className="scope-badges">
                {key.scopes.map((scope) => (
                  <li key={scope} className="badge">
                    {scope}
                  </li>
                ))}
              </ul>
            </td>
            <td>
              {key.expiresAt === null ? 'Never' : formatDay(key.expiresAt)}
              {hasExpired(key.expiresAt) && <span className="badge expired">expired</span>}
            </td>
            <td>{formatDay(key.createdAt)}</td>
            <td>{key.lastUsedAt === null ? 'Never' : formatDateTime(key.lastUsedAt)}</td>
            <td>
              <button type="button" className="button" onClick={() => setRevoking(key)} aria-label={`Revoke ${key.name}`}>
                Revoke
              </button>
            </td>
          </tr>
        )}
      />
      <CreateKeyDialog open={creating} onClose={() => setCreating(false)} onCreated={keys.reload} />
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke key"
        destructive
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await api.deleteApiKey({ keyId: revoking.id });
          keys.reload();
        }}
      >
        <p>
          Requests with the key <code>{revoking?.prefix}…</code> are refused from now on (401). This cannot be undone: scripts that use it
          need a new key.
        </p>
      </ConfirmDialog>
    </>
  );
}
