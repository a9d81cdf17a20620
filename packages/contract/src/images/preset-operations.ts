import { z } from 'zod';
import { Deleted, Id } from '../common/resource.ts';
import { defineOperation } from '../operation.ts';
import { CreatePreset, Preset, UpdatePreset } from './preset.ts';
import { ProjectParams } from './project-operations.ts';

const PresetParams = z.strictObject({ projectId: Id, presetId: Id });

export const presetOperations = [
  defineOperation({
    id: 'listPresets',
    api: 'image',
    method: 'GET',
    path: '/api/images/projects/{projectId}/presets',
    summary: 'List presets',
    description: "Lists a project's named transform presets. Free.",
    tag: 'Presets',
    scopes: ['images:read'],
    params: ProjectParams,
    paged: true,
    output: Preset,
  }),
  defineOperation({
    id: 'createPreset',
    api: 'image',
    method: 'POST',
    path: '/api/images/projects/{projectId}/presets',
    summary: 'Create a preset',
    description:
      'Creates a named transform preset; apply it on delivery with `?t=<name>` on a CDN URL. A name already used in the project answers 409. Next: uploadImage, then deliver at `/cdn/<slug>/<path>?t=<name>`.',
    tag: 'Presets',
    scopes: ['images:write'],
    params: ProjectParams,
    body: CreatePreset,
    output: Preset,
    status: 201,
    errors: ['preset_name_taken', 'output_too_large'],
  }),
  defineOperation({
    id: 'getPreset',
    api: 'image',
    method: 'GET',
    path: '/api/images/projects/{projectId}/presets/{presetId}',
    summary: 'Get a preset',
    description: 'Returns one preset with its transforms.',
    tag: 'Presets',
    scopes: ['images:read'],
    params: PresetParams,
    output: Preset,
  }),
  defineOperation({
    id: 'updatePreset',
    api: 'image',
    method: 'PATCH',
    path: '/api/images/projects/{projectId}/presets/{presetId}',
    summary: 'Update a preset',
    description:
      'Renames a preset or replaces its transforms entirely (fields not given are dropped, not merged). Images delivered with it change at once.',
    tag: 'Presets',
    scopes: ['images:write'],
    params: PresetParams,
    body: UpdatePreset,
    output: Preset,
    errors: ['preset_name_taken', 'output_too_large'],
  }),
  defineOperation({
    id: 'deletePreset',
    api: 'image',
    method: 'DELETE',
    path: '/api/images/projects/{projectId}/presets/{presetId}',
    summary: 'Delete a preset',
    description: 'Deletes a preset; CDN URLs that name it answer 400 from then on.',
    tag: 'Presets',
    scopes: ['images:write'],
    params: PresetParams,
    output: Deleted,
  }),
];
