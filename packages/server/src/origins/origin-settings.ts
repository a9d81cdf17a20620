import { type ImageOrigin, type ImageOriginInput, LoupeError, type SetImageOrigin } from '@loupe/contract';
import { now } from '../clock.ts';
import type { Database } from '../database/database.ts';
import type { ProjectService } from '../images/project-service.ts';
import type { Principal } from '../principal.ts';
import { originAddressProblem } from './origin-address.ts';
import { originView, parseOrigin, type StoredOrigin } from './origin-config.ts';

const invalid = (field: string, message: string) =>
  new LoupeError('validation_failed', { message, details: { fieldErrors: { [field]: [message] }, formErrors: [] } });

/** The project's origin setting (getImageOrigin, setImageOrigin): its S3 secret is written, never read back. */
export class OriginSettings {
  readonly #database: Database;
  readonly #projects: ProjectService;
  readonly #allowPrivate: boolean;
  readonly #changed: (projectId: string) => void;

  /** `changed` runs after a project's origin is set or removed (its remembered 404s are stale). */
  constructor(options: { database: Database; projects: ProjectService; allowPrivate: boolean; changed: (projectId: string) => void }) {
    this.#database = options.database;
    this.#projects = options.projects;
    this.#allowPrivate = options.allowPrivate;
    this.#changed = options.changed;
  }

  async get(principal: Principal, projectId: string): Promise<ImageOrigin> {
    const project = await this.#projects.get(principal, projectId);
    return { origin: originView(await this.#stored(project.id)) };
  }

  async set(principal: Principal, projectId: string, input: SetImageOrigin): Promise<ImageOrigin> {
    const project = await this.#projects.get(principal, projectId);
    const origin = input.origin === null ? null : this.#checked(input.origin, await this.#stored(project.id));
    await this.#database.db
      .updateTable('image_projects')
      .set({ origin: origin === null ? null : JSON.stringify(origin), updated_at: now() })
      .where('workspace_id', '=', principal.workspaceId)
      .where('id', '=', project.id)
      .execute();
    this.#changed(project.id);
    return { origin: originView(origin) };
  }

  async #stored(projectId: string): Promise<StoredOrigin | null> {
    const row = await this.#database.db.selectFrom('image_projects').select('origin').where('id', '=', projectId).executeTakeFirst();
    return parseOrigin(row?.origin ?? null);
  }

  /** The address policy, and an omitted secret taken from the stored origin only for the same endpoint and key id. */
  #checked(input: ImageOriginInput, stored: StoredOrigin | null): StoredOrigin {
    const field = input.kind === 'https' ? 'origin.baseUrl' : 'origin.endpoint';
    const problem = originAddressProblem(input.kind === 'https' ? input.baseUrl : input.endpoint, this.#allowPrivate);
    if (problem) throw invalid(field, problem);
    if (input.kind === 'https') return { kind: 'https', baseUrl: input.baseUrl };
    const { secretAccessKey, ...rest } = input;
    if (secretAccessKey !== undefined) return { ...rest, secretAccessKey };
    // A kept secret must not follow a changed endpoint: it would sign requests to a server the secret was never meant for.
    if (stored?.kind === 's3' && stored.endpoint === input.endpoint && stored.accessKeyId === input.accessKeyId) {
      return { ...rest, secretAccessKey: stored.secretAccessKey };
    }
    throw new LoupeError('origin_secret_required');
  }
}
