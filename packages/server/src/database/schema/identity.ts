import type { Generated } from 'kysely';

export interface IdentityTables {
  instance: InstanceTable;
  workspaces: WorkspaceTable;
  users: UserTable;
  memberships: MembershipTable;
  api_keys: ApiKeyTable;
}

/** One row once the first start has created the default workspace (a guard against two processes bootstrapping). */
export interface InstanceTable {
  id: number;
  bootstrapped_at: string;
}

export interface WorkspaceTable {
  id: string;
  name: string;
  plan: string;
  credit_balance: Generated<number>;
  /** JSON object: `timezone`, `notificationEmail`; absent keys take their defaults. */
  settings: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface UserTable {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: string;
}

export interface MembershipTable {
  workspace_id: string;
  user_id: string;
  role: string;
  created_at: string;
}

export interface ApiKeyTable {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  /** JSON array of scopes. */
  scopes: string;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
}
