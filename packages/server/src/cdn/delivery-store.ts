import type { Transforms } from '@loupe/contract';
import type { Database } from '../database/database.ts';

export interface DeliveryProject {
  id: string;
  slug: string;
  requireSignedUrls: boolean;
  /** Secrets a signature may be made with now: the current one, and the previous one within its grace. */
  signingSecrets: string[];
}

export interface DeliveryImage {
  blobKey: string;
  format: string;
  hasAlpha: boolean;
  contentType: string;
}

/** The few reads a CDN request makes: project by slug or domain, image by path, preset by name. */
export class DeliveryStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async project(by: { slug: string } | { domain: string }, now: string): Promise<DeliveryProject | undefined> {
    const row = await this.#database.db
      .selectFrom('image_projects')
      .select(['id', 'slug', 'require_signed_urls', 'signing_secret', 'previous_signing_secret', 'previous_secret_expires_at'])
      .$if('slug' in by, (q) => q.where('slug', '=', (by as { slug: string }).slug))
      .$if('domain' in by, (q) => q.where('custom_domain', '=', (by as { domain: string }).domain))
      .executeTakeFirst();
    if (!row) return undefined;
    const secrets = [row.signing_secret];
    if (row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now) secrets.push(row.previous_signing_secret);
    return {
      id: row.id,
      slug: row.slug,
      requireSignedUrls: row.require_signed_urls === 1,
      signingSecrets: secrets.filter((secret): secret is string => typeof secret === 'string'),
    };
  }

  async image(projectId: string, path: string): Promise<DeliveryImage | undefined> {
    const row = await this.#database.db
      .selectFrom('images')
      .select(['blob_key', 'format', 'has_alpha', 'content_type'])
      .where('project_id', '=', projectId)
      .where('path', '=', path)
      .executeTakeFirst();
    return row && { blobKey: row.blob_key, format: row.format, hasAlpha: row.has_alpha === 1, contentType: row.content_type };
  }

  async presetTransforms(projectId: string, name: string): Promise<Transforms | undefined> {
    const row = await this.#database.db
      .selectFrom('presets')
      .select('transforms')
      .where('project_id', '=', projectId)
      .where('name', '=', name)
      .executeTakeFirst();
    return row && (JSON.parse(row.transforms) as Transforms);
  }
}
