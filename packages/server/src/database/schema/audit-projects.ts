export interface AuditProjectTables {
  audit_projects: AuditProjectTable;
}

/** An audit project: a site with crawl defaults (JSON) and attached rule packs (JSON array of ids). */
export interface AuditProjectTable {
  id: string;
  workspace_id: string;
  name: string;
  site_url: string;
  crawl_defaults: string;
  rule_pack_ids: string;
  created_at: string;
  updated_at: string;
}
