import { LoupeError, type Page, type RulePack, type RulePackSummary, type SaveRulePack, type StoredRulePack } from '@loupe/contract';
import { AuditProjectStore } from '../audit-projects/audit-project-store.ts';
import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import { newId } from '../ids.ts';
import type { Plans } from '../plans/plans.ts';
import type { Principal } from '../principal.ts';
import { compileStoredPack } from './compile-stored-pack.ts';
import { compileUserPack } from './compile-user-pack.ts';
import type { CompiledRulePack } from './compiled-rule.ts';
import { RulePackStore } from './rule-pack-store.ts';

const packNotFound = () => new LoupeError('not_found', { message: 'No such rule pack in this workspace.' });
const nameTaken = (name: string) =>
  new LoupeError('rule_pack_name_taken', { message: `A rule pack named "${name}" already exists in this workspace.` });

/** Custom rule packs (DESIGN.md §8): saved only on plans that include them, read on any. */
export class RulePackService {
  readonly #database: Database;
  readonly #plans: Plans;
  readonly #store: RulePackStore;
  readonly #workspaces: WorkspaceStore;

  constructor(database: Database, plans: Plans) {
    this.#database = database;
    this.#plans = plans;
    this.#store = new RulePackStore(database);
    this.#workspaces = new WorkspaceStore(database);
  }

  list(principal: Principal, page: { limit: number; cursor?: string }): Promise<Page<RulePackSummary>> {
    return this.#store.list(principal.workspaceId, page);
  }

  async get(principal: Principal, packId: string): Promise<StoredRulePack> {
    const pack = await this.#store.find(principal.workspaceId, packId);
    if (!pack) throw packNotFound();
    return pack;
  }

  /** Checks a pack as saving would, on any plan: the schema has passed, so this is the compile step. */
  validate(pack: RulePack): { valid: true; ruleCount: number } {
    return { valid: true, ruleCount: compileUserPack(pack, { prefix: ['pack'] }).ruleCount };
  }

  async create(principal: Principal, input: SaveRulePack): Promise<StoredRulePack> {
    await this.requirePlan(principal);
    const ruleCount = compileUserPack(input.pack, { prefix: ['pack'] }).ruleCount;
    const at = now();
    const pack: StoredRulePack = {
      id: newId(),
      name: input.name,
      description: input.description ?? null,
      ruleCount,
      createdAt: at,
      updatedAt: at,
      pack: input.pack,
    };
    try {
      await this.#store.insert(principal.workspaceId, pack);
    } catch (error) {
      if (this.#database.isUniqueViolation(error)) throw nameTaken(input.name);
      throw error;
    }
    return pack;
  }

  async replace(principal: Principal, packId: string, input: SaveRulePack): Promise<StoredRulePack> {
    await this.requirePlan(principal);
    const ruleCount = compileUserPack(input.pack, { prefix: ['pack'] }).ruleCount;
    const changes = { id: packId, name: input.name, description: input.description ?? null, ruleCount, updatedAt: now(), pack: input.pack };
    try {
      if (!(await this.#store.replace(principal.workspaceId, changes))) throw packNotFound();
    } catch (error) {
      if (this.#database.isUniqueViolation(error)) throw nameTaken(input.name);
      throw error;
    }
    return this.get(principal, packId);
  }

  /** The pack goes, and with it its place on the projects it was attached to. */
  async delete(principal: Principal, packId: string): Promise<{ deleted: true }> {
    const deleted = await inTransaction(this.#database, async (transaction) => {
      if (!(await new RulePackStore(transaction).delete(principal.workspaceId, packId))) return false;
      await new AuditProjectStore(transaction).detachRulePack(principal.workspaceId, packId);
      return true;
    });
    if (!deleted) throw packNotFound();
    return { deleted: true };
  }

  /** A saved pack compiled for evaluateRule (previews, crawls); 404 for another workspace's. */
  compileStored(workspaceId: string, packId: string): Promise<CompiledRulePack> {
    return compileStoredPack(this.#database, workspaceId, packId);
  }

  /** Which of these ids are not packs of the workspace (attaching those to a project is a 404). */
  async missing(workspaceId: string, ids: readonly string[]): Promise<string[]> {
    const existing = new Set(await this.#store.existing(workspaceId, ids));
    return ids.filter((id) => !existing.has(id));
  }

  /** 402 unless the workspace's plan includes custom rule packs. */
  async requirePlan(principal: Principal): Promise<void> {
    const workspace = await this.#workspaces.findWorkspace(principal.workspaceId);
    if (!workspace) throw new LoupeError('not_found');
    if (!this.#plans.limits(workspace.plan).customRulePacks) {
      throw new LoupeError('plan_feature_unavailable', {
        message: `The ${workspace.plan} plan does not include custom rule packs; reading and validating them stays free.`,
        extra: { feature: 'customRulePacks', plan: workspace.plan },
      });
    }
  }
}
