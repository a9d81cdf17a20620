import type { Role, Scope } from '@loupe/contract';

/** Who is calling, in which workspace, with which rights: resolved once per request from the key or the session. */
export interface Principal {
  userId: string;
  workspaceId: string;
  role: Role;
  /** The key's scopes intersected with what the role allows; with a session, all the role allows. */
  scopes: readonly Scope[];
  /** The API key used; null when the dashboard calls with a session cookie. */
  keyId: string | null;
  /** The dashboard session used; null with an API key. */
  sessionId: string | null;
}
