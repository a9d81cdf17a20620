export interface CdnTables {
  cdn_usage_daily: CdnUsageDailyTable;
  quality_choices: QualityChoiceTable;
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
