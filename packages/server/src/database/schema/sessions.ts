export interface SessionTables {
  sessions: SessionTable;
  password_resets: PasswordResetTable;
}

/** A dashboard sign-in: the SHA-256 of the cookie's token, never the token. */
export interface SessionTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
}

/** A password reset link: the SHA-256 of its token; `used_at` set once it has set a password. */
export interface PasswordResetTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
