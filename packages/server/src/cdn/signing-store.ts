import type { Database } from '../database/database.ts';

export interface SigningRow {
  enabled: boolean;
  requireSignedUrls: boolean;
  secret: string | null;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
}

/** The signing columns of an image project. Secrets are kept as they are: an HMAC key cannot be hashed. */
export class SigningStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async get(projectId: string): Promise<SigningRow> {
    const row = await this.#database.db
      .selectFrom('image_projects')
      .select(['signing_enabled', 'require_signed_urls', 'signing_secret', 'previous_signing_secret', 'previous_secret_expires_at'])
      .where('id', '=', projectId)
      .executeTakeFirstOrThrow();
    return {
      enabled: row.signing_enabled === 1,
      requireSignedUrls: row.require_signed_urls === 1,
      secret: row.signing_secret,
      previousSecret: row.previous_signing_secret,
      previousSecretExpiresAt: row.previous_secret_expires_at,
    };
  }

  async set(projectId: string, signing: SigningRow, at: string): Promise<void> {
    await this.#database.db
      .updateTable('image_projects')
      .set({
        signing_enabled: signing.enabled ? 1 : 0,
        require_signed_urls: signing.requireSignedUrls ? 1 : 0,
        signing_secret: signing.secret,
        previous_signing_secret: signing.previousSecret,
        previous_secret_expires_at: signing.previousSecretExpiresAt,
        updated_at: at,
      })
      .where('id', '=', projectId)
      .execute();
  }
}
