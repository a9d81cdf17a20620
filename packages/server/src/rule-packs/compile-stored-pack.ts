import { LoupeError, RulePack } from '@loupe/contract';
import type { Database } from '../database/database.ts';
import type { CompiledRulePack } from './compiled-rule.ts';
import { compileRulePack } from './rule-pack-compiler.ts';
import { RulePackStore } from './rule-pack-store.ts';

/**
 * A workspace's saved pack, compiled and ready for evaluateRule: what previews and crawls
 * run. 404 for a pack of another workspace. A rule whose id a later built-in check has
 * taken is kept (the caller decides how to report the clash) rather than failing the pack.
 */
export async function compileStoredPack(database: Database, workspaceId: string, packId: string): Promise<CompiledRulePack> {
  const stored = await new RulePackStore(database).find(workspaceId, packId);
  if (!stored) throw new LoupeError('not_found', { message: 'No such rule pack in this workspace.' });
  return compileRulePack(RulePack.parse(stored.pack));
}
