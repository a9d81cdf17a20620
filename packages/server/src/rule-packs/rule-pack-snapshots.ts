import type { AuditProjectRow } from '../audit-projects/audit-project-store.ts';
import type { RulePackSnapshot } from '../crawl/crawl-options.ts';
import type { Database } from '../database/database.ts';
import { RulePackStore } from './rule-pack-store.ts';

/** The project's attached packs as they are now, for a crawl to run; a pack deleted since is skipped. */
export async function rulePackSnapshots(database: Database, project: AuditProjectRow): Promise<RulePackSnapshot[]> {
  const store = new RulePackStore(database);
  const snapshots: RulePackSnapshot[] = [];
  for (const id of JSON.parse(project.rule_pack_ids) as string[]) {
    const stored = await store.find(project.workspace_id, id);
    if (stored) snapshots.push({ id: stored.id, name: stored.name, pack: stored.pack });
  }
  return snapshots;
}
