export interface ReportTables {
  reports: ReportTable;
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
