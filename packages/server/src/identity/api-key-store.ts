import type { ApiKey, Role, Scope } from '@loupe/contract';
import { compiledOnce } from '../database/compiled-query.ts';
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
  /** The user's role in the key's own workspace; null once they are no longer a member. */
  role: Role | null;
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
  readonly #byHash;

  constructor(database: Database) {
    this.#database = database;
    // Every authenticated request runs this: one compiled query, with the role joined in.
    this.#byHash = compiledOnce(() =>
      database.db
        .selectFrom('api_keys')
        .leftJoin('memberships', (join) =>
          join.onRef('memberships.workspace_id', '=', 'api_keys.workspace_id').onRef('memberships.user_id', '=', 'api_keys.user_id'),
        )
        .select([
          'api_keys.id',
          'api_keys.workspace_id',
          'api_keys.user_id',
          'api_keys.scopes',
          'api_keys.expires_at',
          'api_keys.last_used_at',
          'memberships.role',
        ])
        .where('api_keys.secret_hash', '=', '')
        .compile(),
    );
  }

  async findByHash(secretHash: string): Promise<StoredKey | undefined> {
    const [row] = (await this.#database.db.executeQuery(this.#byHash(secretHash))).rows;
    if (!row) return undefined;
    return {
      id: row.id,
      workspaceId: row.workspace_id,
      userId: row.user_id,
      scopes: JSON.parse(row.scopes) as Scope[],
      expiresAt: row.expires_at,
      lastUsedAt: row.last_used_at,
      role: (row.role as Role | null) ?? null,
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
