import { useId } from 'react';
import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { useImageProject } from './project-context.ts';

/** A labelled choice among the project's presets, `''` for the original; a failed list says so with a retry. */
export function PresetSelect({ value, onChange }: { value: string; onChange: (preset: string) => void }) {
  const { api } = useWorkspace();
  const { project } = useImageProject();
  const presets = useQuery(() => api.listPresets({ projectId: project.id, limit: 100 }), [api, project.id]);
  const id = useId();
  return (
    <div className="inline-field">
      <label htmlFor={id}>Preset</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">Original (no preset)</option>
        {presets.data?.map((each) => (
          <option key={each.id} value={each.name}>
            {each.name}
          </option>
        ))}
      </select>
      {presets.status === 'failed' && <ErrorMessage error={presets.error} onRetry={presets.reload} />}
    </div>
  );
}
