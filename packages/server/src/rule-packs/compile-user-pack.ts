import type { RulePack } from '@loupe/contract';
import { findRule } from '../audit/rule-catalog.ts';
import type { FieldPath } from './compile-problems.ts';
import type { CompiledRulePack } from './compiled-rule.ts';
import { compileRulePack } from './rule-pack-compiler.ts';

/** A pack as someone saves, validates or previews it: besides compiling, its rule ids may not be a built-in check's. */
export function compileUserPack(pack: RulePack, options: { prefix?: FieldPath } = {}): CompiledRulePack {
  return compileRulePack(pack, { ...options, isBuiltIn: (id) => findRule(id) !== undefined });
}
