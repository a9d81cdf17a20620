import type { Generated } from 'kysely';

export interface ImageTables {
  image_projects: ImageProjectTable;
  presets: PresetTable;
  images: ImageTable;
  image_tags: ImageTagTable;
  pending_uploads: PendingUploadTable;
}

export interface ImageProjectTable {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  custom_domain: string | null;
  require_signed_urls: Generated<number>;
  /** 1 when CDN answers honour client hints (migration 0033). */
  client_hints: Generated<number>;
  signing_enabled: Generated<number>;
  signing_secret: string | null;
  previous_signing_secret: string | null;
  previous_secret_expires_at: string | null;
  /** `allow` or `never`: the default of the transform parameter `enlarge`. */
  enlarge: Generated<string>;
  /** JSON of the project's origin (origins/origin-config.ts), secret included; null when none. */
  origin: string | null;
  /** 1: outputs keep EXIF, XMP and IPTC (0035). */
  keep_metadata: Generated<number>;
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
  /** Frames of an animated GIF or WebP, 1 for a still; null for images stored before migration 0036. */
  frames: number | null;
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
