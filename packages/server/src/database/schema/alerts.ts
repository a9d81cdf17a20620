import type { Generated } from 'kysely';

export interface AlertTables {
  alert_settings: AlertSettingsTable;
  alert_channels: AlertChannelTable;
  alert_deliveries: AlertDeliveryTable;
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
