import type { ApiKey, Scope } from '@loupe/contract';
import type { Database } from '../database/database.ts';
import { decodeCursor, pageFromRows } from '../database/keyset-paging.ts';
import type { ApiKeyTable } from '../database/schema.ts';

export interface StoredKey {
  id: string;
  workspaceId: string;
  userId: string;
  scopes: Scope[];
  expiresAt: string | null;
  lastUsedAt: string | null;
}

export interface NewKey {
  id: string;
  workspaceId: string;
  userId: string;
  name: string;
  prefix: string;
  secretHash: string;
  scopes: Scope[];
  expiresAt: string | null;
  createdAt: string;
}

function toApiKey(row: ApiKeyTable): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: JSON.parse(row.scopes) as Scope[],
    userId: row.user_id,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    createdAt: row.created_at,
  };
}

export class ApiKeyStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async findByHash(secretHash: string): Promise<StoredKey | undefined> {
    const row = await this.#database.db
      .selectFrom('api_keys')
      .select(['id', 'workspace_id', 'user_id', 'scopes', 'expires_at', 'last_used_at'])
      .where('secret_hash', '=', secretHash)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      workspaceId: row.workspace_id,
      userId: row.user_id,
      scopes: JSON.parse(row.scopes) as Scope[],
      expiresAt: row.expires_at,
      lastUsedAt: row.last_used_at,
    };
  }

  async insert(key: NewKey): Promise<ApiKey> {
    const row: ApiKeyTable = {
      id: key.id,
      workspace_id: key.workspaceId,
      user_id: key.userId,
      name: key.name,
      prefix: key.prefix,
      secret_hash: key.secretHash,
      scopes: JSON.stringify(key.scopes),
      expires_at: key.expiresAt,
      last_used_at: null,
      created_at: key.createdAt,
    };
    await this.#database.db.insertInto('api_keys').values(row).execute();
    return toApiKey(row);
  }

  async list(workspaceId: string, page: { limit: number; cursor?: string }) {
    const after = decodeCursor(page.cursor);
    const rows = await this.#database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .$if(after !== undefined, (q) => q.where('id', '>', after as string))
      .orderBy('id')
      .limit(page.limit + 1)
      .execute();
    return pageFromRows(rows, page.limit, toApiKey);
  }

  /** Deletes the key; false when no key of this workspace has that id. */
  async delete(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.#database.db
      .deleteFrom('api_keys')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async touch(id: string, at: string): Promise<void> {
    await this.#database.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}
