import { z } from 'zod';
import { freeText } from '../common/free-text.ts';
import { Id, Timestamp } from '../common/resource.ts';
import { RulePack } from './rule-pack.ts';

const PackName = freeText({ max: 100 }).describe('Unique in the workspace.');
const Description = freeText({ max: 1000, multiline: true });

export const RulePackSummary = z
  .object({
    id: Id,
    name: z.string(),
    description: z.string().nullable(),
    ruleCount: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'RulePackSummary' });
export type RulePackSummary = z.infer<typeof RulePackSummary>;

export const StoredRulePack = RulePackSummary.extend({
  pack: RulePack.describe('As stored: the rules with every default filled in.'),
}).meta({ id: 'StoredRulePack' });
export type StoredRulePack = z.infer<typeof StoredRulePack>;

export const SaveRulePack = z
  .strictObject({
    name: PackName,
    description: Description.optional(),
    pack: RulePack,
  })
  .meta({ id: 'SaveRulePack' });
export type SaveRulePack = z.infer<typeof SaveRulePack>;

export const ValidateRulePack = z.strictObject({ pack: RulePack }).meta({ id: 'ValidateRulePack' });

export const RulePackValidity = z
  .object({
    valid: z.literal(true),
    ruleCount: z.number().int(),
  })
  .meta({ id: 'RulePackValidity' });
