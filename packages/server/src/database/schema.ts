import type { AlertTables } from './schema/alerts.ts';
import type { AuditProjectTables } from './schema/audit-projects.ts';
import type { CdnTables } from './schema/cdn.ts';
import type { CrawlTables } from './schema/crawls.ts';
import type { CreditTables } from './schema/credits.ts';
import type { IdentityTables } from './schema/identity.ts';
import type { ImageTables } from './schema/images.ts';
import type { JobTables } from './schema/jobs.ts';
import type { ReportTables } from './schema/reports.ts';
import type { RulePackTables } from './schema/rule-packs.ts';
import type { ScheduleTables } from './schema/schedules.ts';
import type { SearchTables } from './schema/search.ts';
import type { SessionTables } from './schema/sessions.ts';
import type { TeamTables } from './schema/team.ts';

export type * from './schema/alerts.ts';
export type * from './schema/audit-projects.ts';
export type * from './schema/cdn.ts';
export type * from './schema/crawls.ts';
export type * from './schema/credits.ts';
export type * from './schema/identity.ts';
export type * from './schema/images.ts';
export type * from './schema/jobs.ts';
export type * from './schema/reports.ts';
export type * from './schema/rule-packs.ts';
export type * from './schema/schedules.ts';
export type * from './schema/search.ts';
export type * from './schema/sessions.ts';
export type * from './schema/team.ts';

/**
 * Table types for Kysely, each capability's in its own file under schema/. Timestamps are ISO
 * 8601 text and booleans 0/1 integers in both dialects, so one set of queries and row mappers
 * serves SQLite and PostgreSQL alike.
 */
export interface Schema
  extends IdentityTables,
    SessionTables,
    TeamTables,
    CreditTables,
    ImageTables,
    CdnTables,
    JobTables,
    CrawlTables,
    ReportTables,
    AuditProjectTables,
    RulePackTables,
    ScheduleTables,
    AlertTables,
    SearchTables {}
