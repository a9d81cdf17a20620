/** The cookie that carries a dashboard session's token. */
export const SESSION_COOKIE = 'loupe_session';

/** The session token in a `Cookie` header, if there is one. */
export function readSessionCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at === -1 || pair.slice(0, at).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(at + 1).trim();
    // Our tokens are base64url; anything else was not set by us.
    return /^[A-Za-z0-9_-]{16,128}$/.test(value) ? value : undefined;
  }
  return undefined;
}

/**
 * `Set-Cookie` for a session (DESIGN.md §5): HttpOnly so scripts never see the token;
 * SameSite=Lax so other sites' requests carry it only on top-level navigations, never on
 * their writes; Secure when the server is reached over https (LOUPE_PUBLIC_URL).
 */
export function sessionCookie(token: string, options: { maxAgeSeconds: number; secure: boolean }): string {
  const attributes = [`${SESSION_COOKIE}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${options.maxAgeSeconds}`];
  if (options.secure) attributes.push('Secure');
  return attributes.join('; ');
}

/** `Set-Cookie` that makes the browser forget the session. */
export function clearedSessionCookie(options: { secure: boolean }): string {
  return sessionCookie('', { maxAgeSeconds: 0, secure: options.secure });
}
