import { canonicalQuery, type Preset } from '@loupe/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '../api/use-query.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { actionsColumn, DataTable } from '../components/data-table.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { LoadedList, queriedList } from '../components/loaded-list.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { cdnParams } from './cdn-address.ts';
import { useImageProject } from './project-context.ts';

/** `…/presets`: the project's presets, each as the query it stands for. */
export function PresetsPage() {
  const { api, can } = useWorkspace();
  const { project, base } = useImageProject();
  const presets = useQuery(async () => {
    const all: Preset[] = [];
    for await (const preset of api.all.listPresets({ projectId: project.id, limit: 100 })) all.push(preset);
    return all;
  }, [api, project.id]);
  const [deleting, setDeleting] = useState<Preset | null>(null);
  const newPreset = can('images:write') && (
    <Link to={`${base}/presets/new`} className="button primary">
      New preset
    </Link>
  );

  return (
    <>
      <div className="section-header">
        <h2>Presets</h2>
        {newPreset}
      </div>
      <LoadedList
        list={queriedList(presets)}
        loadingLabel="Loading presets"
        empty={
          <EmptyState title="No presets yet" action={newPreset}>
            A preset names a set of transforms; a CDN URL applies it with <code>?t=&lt;name&gt;</code>.
          </EmptyState>
        }
      >
        {(items) => (
          <DataTable
            columns={['Name', 'Transforms', 'Changed', can('images:write') && actionsColumn]}
            items={items}
            row={(preset) => (
              <tr key={preset.id}>
                <td>
                  <Link to={`${base}/presets/${preset.id}`}>{preset.name}</Link>
                </td>
                <td>
                  <code className="query">{canonicalQuery(cdnParams({ transforms: preset.transforms }))}</code>
                </td>
                <td>{new Date(preset.updatedAt).toLocaleDateString()}</td>
                {can('images:write') && (
                  <td>
                    <button type="button" className="button small" onClick={() => setDeleting(preset)} aria-label={`Delete ${preset.name}`}>
                      Delete
                    </button>
                  </td>
                )}
              </tr>
            )}
          />
        )}
      </LoadedList>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the preset ${deleting?.name ?? ''}?`}
        confirmLabel="Delete preset"
        destructive
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await api.deletePreset({ projectId: project.id, presetId: deleting.id });
          presets.reload();
        }}
      >
        <p>
          CDN URLs with <code>?t={deleting?.name}</code> answer 400 from then on. The images themselves stay.
        </p>
      </ConfirmDialog>
    </>
  );
}
