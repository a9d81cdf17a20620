export interface TeamTables {
  invites: InviteTable;
}

/** An invite to a workspace; pending while not accepted, not revoked and not expired. */
export interface InviteTable {
  id: string;
  workspace_id: string;
  /** Lower-cased. */
  email: string;
  role: string;
  /** SHA-256 (hex) of the token in the invite link. */
  token_hash: string;
  invited_by: string | null;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
  created_at: string;
}
