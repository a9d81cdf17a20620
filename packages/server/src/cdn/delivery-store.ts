import type { Transforms } from '@loupe/contract';
import type { CompiledQuery, Selectable } from 'kysely';
import { compiledOnce } from '../database/compiled-query.ts';
import type { Database } from '../database/database.ts';
import type { ImageProjectTable, ImageTable } from '../database/schema.ts';
import { asEnlarge } from '../images/project-store.ts';

export interface DeliveryProject {
  id: string;
  slug: string;
  requireSignedUrls: boolean;
  /** The default of the transform parameter `enlarge`. */
  enlarge: NonNullable<Transforms['enlarge']>;
  /** Whether answers honour client hints (issue #26 point 3). */
  clientHints: boolean;
  /** Secrets a signature may be made with now: the current one, and the previous one within its grace. */
  signingSecrets: string[];
  workspaceId: string;
  /** JSON of the project's origin (origins/origin-config.ts), null when it has none. */
  origin: string | null;
  /** Answers keep EXIF, XMP and IPTC (off: stripped for privacy). */
  keepMetadata: boolean;
}

export interface DeliveryImage {
  blobKey: string;
  /** As displayed (EXIF orientation applied): what output sizes are computed from. */
  width: number;
  height: number;
  format: string;
  hasAlpha: boolean;
  contentType: string;
  /** Null for images stored before frames were counted (migration 0036). */
  frames: number | null;
  blurhash: string | null;
}

type ProjectRow = Pick<
  Selectable<ImageProjectTable>,
  | 'id'
  | 'slug'
  | 'require_signed_urls'
  | 'client_hints'
  | 'signing_secret'
  | 'previous_signing_secret'
  | 'previous_secret_expires_at'
  | 'enlarge'
  | 'keep_metadata'
> &
  Pick<Selectable<ImageProjectTable>, 'workspace_id' | 'origin'>;
type ImageRow = Pick<
  Selectable<ImageTable>,
  'blob_key' | 'width' | 'height' | 'format' | 'has_alpha' | 'content_type' | 'frames' | 'blurhash'
>;

/** The few reads a CDN request makes: project by slug or domain, image by path, preset by name. */
export class DeliveryStore {
  readonly #database: Database;
  readonly #projectBy: Record<'slug' | 'domain', (value: string) => CompiledQuery<ProjectRow>>;
  readonly #image: (projectId: string, path: string) => CompiledQuery<ImageRow>;
  readonly #preset: (projectId: string, name: string) => CompiledQuery<{ transforms: string }>;

  constructor(database: Database) {
    this.#database = database;
    const projects = () =>
      database.db
        .selectFrom('image_projects')
        .select([
          'id',
          'slug',
          'require_signed_urls',
          'signing_secret',
          'previous_signing_secret',
          'previous_secret_expires_at',
          'enlarge',
          'client_hints',
          'keep_metadata',
        ])
        .select(['workspace_id', 'origin']);
    this.#projectBy = {
      slug: compiledOnce(() => projects().where('slug', '=', '').compile()),
      domain: compiledOnce(() => projects().where('custom_domain', '=', '').compile()),
    };
    this.#image = compiledOnce(() =>
      database.db
        .selectFrom('images')
        .select(['blob_key', 'width', 'height', 'format', 'has_alpha', 'content_type', 'frames', 'blurhash'])
        .where('project_id', '=', '')
        .where('path', '=', '')
        .compile(),
    );
    this.#preset = compiledOnce(() =>
      database.db.selectFrom('presets').select('transforms').where('project_id', '=', '').where('name', '=', '').compile(),
    );
  }

  async project(by: { slug: string } | { domain: string }, now: string): Promise<DeliveryProject | undefined> {
    const query = 'slug' in by ? this.#projectBy.slug(by.slug) : this.#projectBy.domain(by.domain);
    const [row] = (await this.#database.db.executeQuery(query)).rows;
    if (!row) return undefined;
    const secrets = [row.signing_secret];
    if (row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now) secrets.push(row.previous_signing_secret);
    return {
      id: row.id,
      slug: row.slug,
      requireSignedUrls: row.require_signed_urls === 1,
      enlarge: asEnlarge(row.enlarge),
      clientHints: row.client_hints === 1,
      signingSecrets: secrets.filter((secret): secret is string => typeof secret === 'string'),
      workspaceId: row.workspace_id,
      origin: row.origin,
      keepMetadata: row.keep_metadata === 1,
    };
  }

  async image(projectId: string, path: string): Promise<DeliveryImage | undefined> {
    const [row] = (await this.#database.db.executeQuery(this.#image(projectId, path))).rows;
    return (
      row && {
        blobKey: row.blob_key,
        width: row.width,
        height: row.height,
        format: row.format,
        hasAlpha: row.has_alpha === 1,
        contentType: row.content_type,
        frames: row.frames,
        blurhash: row.blurhash,
      }
    );
  }

  async presetTransforms(projectId: string, name: string): Promise<Transforms | undefined> {
    const [row] = (await this.#database.db.executeQuery(this.#preset(projectId, name))).rows;
    return row && (JSON.parse(row.transforms) as Transforms);
  }
}
