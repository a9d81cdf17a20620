import type { Role, Scope } from '@loupe/contract';

/** The account behind a request's key or session, before any workspace: what accepting an invite needs. */
export interface Caller {
  userId: string;
  /** The API key used; null when the dashboard calls with a session cookie. */
  keyId: string | null;
  /** The dashboard session used; null with an API key. */
  sessionId: string | null;
  /**
   * When the calling key stops working: a key it creates may not outlive it. Null for a key
   * without expiry, and for a session (whose keys are the user's own choice).
   */
  keyExpiresAt: string | null;
}

/** Who is calling, in which workspace, with which rights: resolved once per request from the key or the session. */
export interface Principal extends Caller {
  workspaceId: string;
  role: Role;
  /** The key's scopes intersected with what the role allows; with a session, all the role allows. */
  scopes: readonly Scope[];
}
