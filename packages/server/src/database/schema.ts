import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Timestamps are ISO 8601 text and booleans 0/1 integers in both
 * dialects, so one set of queries and row mappers serves SQLite and PostgreSQL alike.
 */
export interface Schema {
  instance: InstanceTable;
  workspaces: WorkspaceTable;
  users: UserTable;
  memberships: MembershipTable;
  api_keys: ApiKeyTable;
  image_projects: ImageProjectTable;
  presets: PresetTable;
  images: ImageTable;
  image_tags: ImageTagTable;
  cdn_usage_daily: CdnUsageDailyTable;
  quality_choices: QualityChoiceTable;
  pending_uploads: PendingUploadTable;
  credit_ledger: CreditLedgerTable;
  credit_allowances: CreditAllowanceTable;
  crawls: CrawlTable;
  crawl_urls: CrawlUrlTable;
  crawl_links: CrawlLinkTable;
  crawl_hreflangs: CrawlHreflangTable;
  crawl_findings: CrawlFindingTable;
  reports: ReportTable;
  jobs: JobTable;
  audit_projects: AuditProjectTable;
  schedules: ScheduleTable;
  crawl_page_bodies: CrawlPageBodyTable;
  rule_packs: RulePackTable;
  invites: InviteTable;
  alert_settings: AlertSettingsTable;
  alert_channels: AlertChannelTable;
  alert_deliveries: AlertDeliveryTable;
  search_builds: SearchBuildTable;
  sessions: SessionTable;
  password_resets: PasswordResetTable;
}

/** One row once the first start has created the default workspace (a guard against two processes bootstrapping). */
export interface InstanceTable {
  id: number;
  bootstrapped_at: string;
}

export interface WorkspaceTable {
  id: string;
  name: string;
  plan: string;
  credit_balance: Generated<number>;
  /** JSON object: `timezone`, `notificationEmail`; absent keys take their defaults. */
  settings: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface UserTable {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: string;
}

/** A dashboard sign-in: the SHA-256 of the cookie's token, never the token. */
export interface SessionTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
}

/** A password reset link: the SHA-256 of its token; `used_at` set once it has set a password. */
export interface PasswordResetTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface MembershipTable {
  workspace_id: string;
  user_id: string;
  role: string;
  created_at: string;
}

export interface ApiKeyTable {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  /** JSON array of scopes. */
  scopes: string;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface ImageProjectTable {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  custom_domain: string | null;
  require_signed_urls: Generated<number>;
  signing_enabled: Generated<number>;
  signing_secret: string | null;
  previous_signing_secret: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PresetTable {
  id: string;
  project_id: string;
  name: string;
  /** JSON object of transform parameters. */
  transforms: string;
  created_at: string;
  updated_at: string;
}

export interface ImageTable {
  id: string;
  project_id: string;
  path: string;
  /** Key of the original in the blob store; a new key on every replacement, so old variants go stale. */
  blob_key: string;
  filename: string;
  content_type: string;
  /** bigint in PostgreSQL, read as a number by the pool's int8 parser. */
  file_size: number;
  width: number;
  height: number;
  format: string;
  has_alpha: Generated<number>;
  blurhash: string | null;
  alt_text: string | null;
  /** JSON array of tags. */
  tags: string;
  created_at: string;
  updated_at: string;
}

export interface ImageTagTable {
  image_id: string;
  project_id: string;
  tag: string;
}

/** CDN counters per project and UTC day (YYYY-MM-DD), added to in batches. */
export interface CdnUsageDailyTable {
  project_id: string;
  day: string;
  requests: number;
  bytes_served: number;
  transforms: number;
  cache_hits: number;
}

export interface QualityChoiceTable {
  blob_key: string;
  format: string;
  mode: string;
  quality: number;
}

export interface PendingUploadTable {
  id: string;
  project_id: string;
  path: string;
  /** SHA-256 of the secret in the upload URL. */
  token_hash: string;
  /** Where the PUT body is staged until confirm. */
  blob_key: string;
  /** Set once the PUT has arrived. */
  received_bytes: number | null;
  filename: string;
  expires_at: string;
  created_at: string;
}

export interface CreditLedgerTable {
  id: string;
  workspace_id: string;
  /** grant | reserve | release | charge */
  kind: string;
  amount: number;
  balance_after: number;
  crawl_id: string | null;
  note: string | null;
  created_at: string;
}

/** A calendar month's allowance given to a workspace (credits/monthly-allowance.ts). */
export interface CreditAllowanceTable {
  workspace_id: string;
  /** YYYY-MM, UTC. */
  period: string;
  granted: number;
  created_at: string;
}

export interface CrawlTable {
  id: string;
  workspace_id: string;
  project_id: string | null;
  status: string;
  url: string;
  mode: string;
  options: string;
  max_pages: number;
  capped: number;
  pages_crawled: Generated<number>;
  /** The URL fetched last, written with the page count; null before the first. */
  last_url: string | null;
  credits_reserved: number;
  credits_charged: number | null;
  cancel_requested: Generated<number>;
  report_id: string | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** JSON: robots.txt and sitemap results. */
  site_facts: string | null;
  /** JSON (crawl/stored-crawl-progress.ts): the phase, counts and rates; null while queued. */
  progress: string | null;
}

export interface CrawlUrlTable {
  id: string;
  crawl_id: string;
  url: string;
  url_key: string;
  depth: number;
  /** queued | fetching | done */
  state: string;
  /** page | asset | external */
  kind: string;
  /** How it was found: start | link | sitemap | redirect | image… */
  source: string;
  status_code: number | null;
  final_url: string | null;
  content_type: string | null;
  bytes: number | null;
  response_ms: number | null;
  redirects: string | null;
  fetch_error: string | null;
  fetched_at: string | null;
  /** JSON of the response headers the audit reads. */
  headers: string | null;
  ttfb_ms: number | null;
  /** PageSummary JSON (HTML pages). */
  summary: string | null;
  title_hash: string | null;
  description_hash: string | null;
  text_hash: string | null;
  simhash: string | null;
  lang: string | null;
  word_count: number | null;
  indexable: number | null;
  /** Set by the report build. */
  score: number | null;
  inlinks: number | null;
  error_count: number | null;
  warning_count: number | null;
  notice_count: number | null;
}

export interface CrawlLinkTable {
  crawl_id: string;
  source_id: string;
  target_key: string;
  /** link | image | canonical | hreflang */
  kind: string;
}

/** An hreflang annotation of a crawled page (its reference to itself included). */
export interface CrawlHreflangTable {
  crawl_id: string;
  source_id: string;
  target_key: string;
  /** Trimmed and lower-cased. */
  code: string;
}

export interface CrawlFindingTable {
  id: string;
  crawl_id: string;
  url_id: string | null;
  rule_id: string;
  severity: string;
  count: number;
  /** JSON array of strings. */
  samples: string;
  detail: string | null;
  /** page (crawler) | site (report build) */
  stage: string;
  share: number | null;
}

export interface ReportTable {
  id: string;
  workspace_id: string;
  crawl_id: string;
  project_id: string | null;
  url: string;
  mode: string;
  /** complete | partial */
  completeness: string;
  score: number | null;
  grade: string | null;
  pages: number;
  errors: number;
  warnings: number;
  notices: number;
  /** JSON: the full report's body. */
  body: string;
  share_token: string | null;
  shared_at: string | null;
  created_at: string;
}

export interface JobTable {
  id: string;
  name: string;
  payload: string;
  /** queued | running | done | failed */
  state: string;
  /** Runs started so far, this one included while running: also the token of the current hold. */
  attempts: Generated<number>;
  run_after: string;
  /** While running: the worker's hold (lease) on the job ends then unless renewed. */
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  /** Unique among the queued and running jobs of one name. */
  singleton_key: string | null;
  finished_at: string | null;
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

/** An invite to a workspace; pending while not accepted, not revoked and not expired. */
export interface InviteTable {
  id: string;
  workspace_id: string;
  /** Lower-cased. */
  email: string;
  role: string;
  /** SHA-256 (hex) of the token in the invite link. */
  token_hash: string;
  invited_by: string | null;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** A crawled HTML page's markup and visible text, each zstd-compressed. */
export interface CrawlPageBodyTable {
  crawl_id: string;
  url_id: string;
  html: Uint8Array;
  text: Uint8Array;
}

/** A project's alert conditions; no row means the defaults (disabled, nothing on). */
export interface AlertSettingsTable {
  project_id: string;
  workspace_id: string;
  enabled: number;
  crawl_failed: number;
  score_below: number | null;
  score_drop_by: number | null;
  new_errors: number;
  updated_at: string;
}

/** Where a project's alerts go, in the order given. */
export interface AlertChannelTable {
  id: string;
  project_id: string;
  /** webhook | email */
  type: string;
  /** The webhook URL, or a JSON array of email addresses. */
  target: string;
  /** The webhook's HMAC key. */
  secret: string | null;
  position: number;
  created_at: string;
}

/** One alert on one channel: unique per (crawl, channel), so a crawl job run twice alerts once. */
export interface AlertDeliveryTable {
  id: string;
  workspace_id: string;
  project_id: string;
  channel_id: string;
  channel_type: string;
  /** The webhook URL, or the recipients joined by ", ", as they were when the alert was made. */
  target: string;
  crawl_id: string | null;
  report_id: string | null;
  test: number;
  /** JSON array of FiredCondition. */
  conditions: string;
  /** The AlertEvent JSON sent on every attempt. */
  payload: string;
  /** pending | delivered | failed */
  status: string;
  attempts: Generated<number>;
  last_error: string | null;
  response_status: number | null;
  next_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** A recurring crawl of an audit project; booleans 0/1, times ISO text. */
export interface ScheduleTable {
  id: string;
  workspace_id: string;
  project_id: string;
  cron: string;
  /** IANA time zone the expression is read in. */
  timezone: string;
  enabled: number;
  /** JSON: the crawl options of each run, over the project's defaults. */
  crawl: string;
  /** Null while disabled. */
  next_run_at: string | null;
  last_run_at: string | null;
  /** started | skipped-running | skipped-plan | failed */
  last_run_outcome: string | null;
  last_run_crawl_id: string | null;
  last_run_reason: string | null;
  created_at: string;
  updated_at: string;
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

/**
 * One build of a project's search index. Its documents live in `search_documents`, an FTS5
 * table on SQLite and a tsvector table on PostgreSQL, which only the search engines query.
 */
export interface SearchBuildTable {
  id: string;
  project_id: string;
  report_id: string;
  crawl_id: string;
  /** building | ready (the one queries read) | failed | retired (replaced; documents being removed) */
  state: string;
  pages_indexed: Generated<number>;
  /** The last page written, in id order. */
  resume_after: string | null;
  error: string | null;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
}
