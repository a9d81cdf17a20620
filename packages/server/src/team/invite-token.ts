import { createHash, randomBytes } from 'node:crypto';

/** 128 random bits in base64url: the whole secret of an invite link. */
export function generateInviteToken(): string {
  return randomBytes(16).toString('base64url');
}

/** Only this is stored, so a leaked table cannot be turned back into working links. */
export function hashInviteToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
