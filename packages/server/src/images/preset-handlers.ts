import type { Handlers } from '../http/handlers.ts';
import type { PresetService } from './preset-service.ts';

type PresetHandlers = Pick<Handlers, 'listPresets' | 'createPreset' | 'getPreset' | 'updatePreset' | 'deletePreset'>;

export function presetHandlers(presets: PresetService): PresetHandlers {
  return {
    listPresets: ({ params, query }, { principal }) => presets.list(principal, params.projectId, query),
    createPreset: ({ params, body }, { principal }) => presets.create(principal, params.projectId, body),
    getPreset: ({ params }, { principal }) => presets.get(principal, params.projectId, params.presetId),
    updatePreset: ({ params, body }, { principal }) => presets.update(principal, params.projectId, params.presetId, body),
    deletePreset: ({ params }, { principal }) => presets.delete(principal, params.projectId, params.presetId),
  };
}
