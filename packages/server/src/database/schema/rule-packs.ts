export interface RulePackTables {
  rule_packs: RulePackTable;
}

/** A workspace's custom rule pack (audit-checks.md §3.2). */
export interface RulePackTable {
  id: string;
  workspace_id: string;
  /** Unique in the workspace. */
  name: string;
  description: string | null;
  /** The RulePack JSON as validated, defaults filled in. */
  pack: string;
  rule_count: number;
  created_at: string;
  updated_at: string;
}
