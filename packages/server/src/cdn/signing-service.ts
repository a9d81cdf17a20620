import { randomBytes } from 'node:crypto';
import {
  canonicalQuery,
  encodeImagePath,
  LoupeError,
  type SignedUrl,
  type SigningSettings,
  type SignUrlRequest,
  signCdnPath,
  type UpdateSigning,
} from '@loupe/contract';
import { now } from '../clock.ts';
import { type Database, inTransaction } from '../database/database.ts';
import type { ProjectService } from '../images/project-service.ts';
import type { Principal } from '../principal.ts';
import { type SigningRow, SigningStore } from './signing-store.ts';

const SECRET_PREVIEW_LENGTH = 8;

function toSettings(row: SigningRow, at: string, generated?: string): SigningSettings {
  const graceOpen = row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > at;
  return {
    enabled: row.enabled,
    requireSignedUrls: row.requireSignedUrls,
    secretPreview: row.secret ? row.secret.slice(0, SECRET_PREVIEW_LENGTH) : null,
    previousSecretExpiresAt: graceOpen ? row.previousSecretExpiresAt : null,
    ...(generated ? { signingSecret: generated } : {}),
  };
}

/** Signing settings and URL signing of a project (DESIGN.md §7). */
export class SigningService {
  readonly #database: Database;
  readonly #projects: ProjectService;
  readonly #publicUrl: string;
  readonly #graceSeconds: number;

  constructor(options: { database: Database; projects: ProjectService; publicUrl: string; graceSeconds: number }) {
    this.#database = options.database;
    this.#projects = options.projects;
    this.#publicUrl = options.publicUrl;
    this.#graceSeconds = options.graceSeconds;
  }

  async get(principal: Principal, projectId: string): Promise<SigningSettings> {
    const project = await this.#projects.get(principal, projectId);
    return toSettings(await new SigningStore(this.#database).get(project.id), now());
  }

  /**
   * Requiring signatures implies signing; disabling signing drops the requirement. A secret
   * is generated when signing starts without one, or on rotation, which keeps the old
   * secret valid for the grace period so URLs already handed out keep working.
   */
  async update(principal: Principal, projectId: string, input: UpdateSigning): Promise<SigningSettings> {
    const project = await this.#projects.get(principal, projectId);
    const at = now();
    return inTransaction(this.#database, async (transaction) => {
      const store = new SigningStore(transaction);
      const row = await store.get(project.id);
      const enabled = input.requireSignedUrls === true ? true : (input.enabled ?? row.enabled);
      const next: SigningRow = { ...row, enabled, requireSignedUrls: enabled && (input.requireSignedUrls ?? row.requireSignedUrls) };
      let generated: string | undefined;
      if (input.rotate && row.secret) {
        next.previousSecret = row.secret;
        next.previousSecretExpiresAt = new Date(Date.parse(at) + this.#graceSeconds * 1000).toISOString();
      }
      if (input.rotate || (enabled && !row.secret)) {
        generated = `lsk_${randomBytes(32).toString('base64url')}`;
        next.secret = generated;
      }
      await store.set(project.id, next, at);
      return toSettings(next, at, generated);
    });
  }

  async sign(principal: Principal, projectId: string, input: SignUrlRequest): Promise<SignedUrl> {
    const project = await this.#projects.get(principal, projectId);
    const row = await new SigningStore(this.#database).get(project.id);
    if (!row.enabled || !row.secret) {
      throw new LoupeError('signing_disabled');
    }
    const params: Record<string, string> = Object.fromEntries(Object.entries(input.params).map(([name, value]) => [name, String(value)]));
    const expiresAt = input.expiresIn === undefined ? null : Math.floor(Date.now() / 1000) + input.expiresIn;
    if (expiresAt !== null) params.exp = String(expiresAt);
    const encodedPath = encodeImagePath(input.path);
    const signature = await signCdnPath(row.secret, project.slug, encodedPath, params);
    const query = canonicalQuery(params);
    return {
      url: `${this.#publicUrl}/cdn/${project.slug}/${encodedPath}?${query ? `${query}&` : ''}s=${signature}`,
      signature,
      expiresAt: expiresAt === null ? null : new Date(expiresAt * 1000).toISOString(),
    };
  }
}
