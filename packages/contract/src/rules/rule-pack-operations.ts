import { z } from 'zod';
import { Deleted, Id } from '../common/resource.ts';
import { defineOperation } from '../operation.ts';
import { RulePackSummary, RulePackValidity, SaveRulePack, StoredRulePack, ValidateRulePack } from './rule-pack-resource.ts';

const PackParams = z.strictObject({ packId: Id });

const validationNote =
  'Invalid packs answer 400 validation_failed with the dotted path of each offending field (`pack.rules.2.when.all.1.selector`), also for CSS selectors, RE2 expressions and message placeholders that do not compile.';

export const rulePackOperations = [
  defineOperation({
    id: 'listRulePacks',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/rule-packs',
    summary: 'List rule packs',
    description: "The workspace's custom rule packs, oldest first, without their rules. Free. Next: getRulePack for one.",
    tag: 'Rule packs',
    scopes: ['reports:read'],
    paged: true,
    output: RulePackSummary,
  }),
  defineOperation({
    id: 'createRulePack',
    api: 'workspace',
    method: 'POST',
    path: '/api/v1/rule-packs',
    summary: 'Create a rule pack',
    description: `Saves a pack of declarative rules (schema loupe.rules/v1) that crawls can run beside the built-in checks. Needs a plan with custom rule packs (402 otherwise); free of credits. ${validationNote} Try validateRulePack first.`,
    tag: 'Rule packs',
    scopes: ['rules:write'],
    body: SaveRulePack,
    output: StoredRulePack,
    status: 201,
    errors: ['plan_feature_unavailable', 'rule_pack_name_taken'],
  }),
  defineOperation({
    id: 'validateRulePack',
    api: 'workspace',
    method: 'POST',
    path: '/api/v1/rule-packs/validate',
    summary: 'Validate a rule pack',
    description: `Checks a pack exactly as createRulePack would, without saving it: on every plan, free. ${validationNote}`,
    tag: 'Rule packs',
    scopes: ['rules:write'],
    body: ValidateRulePack,
    output: RulePackValidity,
  }),
  defineOperation({
    id: 'getRulePack',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/rule-packs/{packId}',
    summary: 'Get a rule pack',
    description: 'One pack with its rules, every default filled in. Free.',
    tag: 'Rule packs',
    scopes: ['reports:read'],
    params: PackParams,
    output: StoredRulePack,
  }),
  defineOperation({
    id: 'replaceRulePack',
    api: 'workspace',
    method: 'PUT',
    path: '/api/v1/rule-packs/{packId}',
    summary: 'Replace a rule pack',
    description: `Replaces the name, description and rules of a pack; crawls started later use the new rules. Needs a plan with custom rule packs (402 otherwise). ${validationNote}`,
    tag: 'Rule packs',
    scopes: ['rules:write'],
    params: PackParams,
    body: SaveRulePack,
    output: StoredRulePack,
    errors: ['plan_feature_unavailable', 'rule_pack_name_taken'],
  }),
  defineOperation({
    id: 'deleteRulePack',
    api: 'workspace',
    method: 'DELETE',
    path: '/api/v1/rule-packs/{packId}',
    summary: 'Delete a rule pack',
    description: 'Deletes the pack. Reports already built keep their findings. Cannot be undone.',
    tag: 'Rule packs',
    scopes: ['rules:write'],
    params: PackParams,
    output: Deleted,
  }),
];
