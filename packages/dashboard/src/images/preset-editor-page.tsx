import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { useQuery } from '../api/use-query.ts';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { PresetEditor } from './preset-editor.tsx';
import { useImageProject } from './project-context.ts';

/** `…/presets/new` and `…/presets/:presetId`: the preset editor with its live preview. */
export function PresetEditorPage() {
  const { api, can } = useWorkspace();
  const { project, base } = useImageProject();
  const { presetId } = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  const preset = useQuery(
    () => (presetId ? api.getPreset({ projectId: project.id, presetId }) : Promise.resolve(undefined)),
    [api, project.id, presetId],
  );
  const justCreated = (location.state as { saved?: boolean } | null)?.saved === true;
  const back = (
    <p className="breadcrumb">
      <Link to={`${base}/presets`}>← Presets</Link>
    </p>
  );

  if (!presetId && !can('images:write')) {
    return (
      <>
        {back}
        <EmptyState title="Only members create presets">Your role in this workspace can look at presets and their previews.</EmptyState>
      </>
    );
  }
  if (preset.status === 'loading')
    return (
      <>
        {back}
        <LoadingState label="Loading the preset" />
      </>
    );
  if (preset.status === 'failed')
    return (
      <>
        {back}
        <ErrorMessage error={preset.error} onRetry={preset.reload} />
      </>
    );
  return (
    <>
      {back}
      <h2>{preset.data ? `Preset ${preset.data.name}` : 'New preset'}</h2>
      {justCreated && (
        <p className="notice" role="status">
          Preset created. Deliver images with it at <code>?t={preset.data?.name}</code>.
        </p>
      )}
      {/* A new editor per preset: its fields start from that preset. */}
      <PresetEditor key={preset.data?.id ?? 'new'} preset={preset.data} initialImageId={search.get('image') ?? undefined} />
    </>
  );
}
