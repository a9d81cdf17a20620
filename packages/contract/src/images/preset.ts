import { z } from 'zod';
import { atLeastOneField } from '../common/at-least-one-field.ts';
import { Id, Timestamp } from '../common/resource.ts';
import { Transforms } from './transforms.ts';

export const PresetName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be 1–64 letters, digits, hyphens or underscores.');

export const Preset = z
  .object({
    id: Id,
    name: z.string(),
    transforms: Transforms,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Preset' });
export type Preset = z.infer<typeof Preset>;

export const CreatePreset = z.strictObject({ name: PresetName, transforms: Transforms });
export type CreatePreset = z.infer<typeof CreatePreset>;

export const UpdatePreset = atLeastOneField(
  z.strictObject({
    name: PresetName.optional(),
    transforms: Transforms.optional().describe('Replaces the whole transforms object.'),
  }),
  'Give at least one field to change.',
);
export type UpdatePreset = z.infer<typeof UpdatePreset>;
