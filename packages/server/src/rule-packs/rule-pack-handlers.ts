import type { Handlers } from '../http/handlers.ts';
import type { RulePackPreviewService } from './rule-pack-preview.ts';
import type { RulePackService } from './rule-pack-service.ts';

type RulePackHandlers = Pick<
  Handlers,
  | 'listRulePacks'
  | 'createRulePack'
  | 'validateRulePack'
  | 'getRulePack'
  | 'replaceRulePack'
  | 'deleteRulePack'
  | 'previewRulePack'
  | 'previewUnsavedRulePack'
>;

export function rulePackHandlers(packs: RulePackService, previews: RulePackPreviewService): RulePackHandlers {
  return {
    listRulePacks: ({ query }, { principal }) => packs.list(principal, query),
    createRulePack: ({ body }, { principal }) => packs.create(principal, body),
    validateRulePack: async ({ body }) => packs.validate(body.pack),
    getRulePack: ({ params }, { principal }) => packs.get(principal, params.packId),
    replaceRulePack: ({ params, body }, { principal }) => packs.replace(principal, params.packId, body),
    deleteRulePack: ({ params }, { principal }) => packs.delete(principal, params.packId),
    previewRulePack: ({ params, body }, { principal }) => previews.previewSaved(principal, params.packId, body),
    previewUnsavedRulePack: ({ body }, { principal }) => previews.preview(principal, body.pack, body),
  };
}
