import type { Role, Scope } from '@loupe/contract';

/** Who is calling, in which workspace, with which rights: resolved once per request from the key. */
export interface Principal {
  userId: string;
  workspaceId: string;
  role: Role;
  /** The key's scopes intersected with what the role allows. */
  scopes: readonly Scope[];
  keyId: string;
}
