import { z } from 'zod';
import { freeText } from '../common/free-text.ts';
import { Id, Timestamp } from '../common/resource.ts';
import { TeamListing } from '../team/team.ts';

/**
 * The dashboard's own surface (DESIGN.md §5): signing in with a password and a session
 * cookie, and the first-run screen. These are not registry operations: they make no sense
 * to an API key, an MCP tool or the SDK, so they are neither in the OpenAPI document nor
 * SDK methods. Server and dashboard share these schemas and paths.
 */
export const sessionPaths = {
  /** GET who is signed in; POST sign in; DELETE sign out. */
  session: '/api/session',
  /** GET whether the first run is still to do; POST do it. */
  setup: '/api/setup',
  /** POST an email: a single-use link to set a new password is mailed to it, if an account has it. */
  passwordResets: '/api/password-resets',
  /** POST the link's token and a new password. */
  passwordResetCompletion: '/api/password-resets/complete',
} as const;

/** Where the dashboard opens a reset link; the token follows `#`, so it stays out of server logs and Referer headers. */
export const PASSWORD_RESET_PAGE = '/reset-password';

/** Writes made with a session cookie carry the session's CSRF token in this header. */
export const CSRF_HEADER = 'x-csrf-token';

const Email = z
  .email()
  .max(254)
  .transform((email) => email.toLowerCase());
/** The bounds of a new password, as an invite's (team/team.ts). */
const NewPassword = z.string().min(8).max(200);

export const SignIn = z.strictObject({
  email: Email,
  // Any length is checked (a shorter one simply never matches), up to a bound on hashing work.
  password: z.string().min(1).max(200),
});
export type SignIn = z.infer<typeof SignIn>;

export const SetupState = z.object({
  needed: z.boolean().describe('True until someone has a password: the first-run screen then creates the owner.'),
});
export type SetupState = z.infer<typeof SetupState>;

export const Setup = z.strictObject({
  name: freeText({ max: 100 }),
  email: Email,
  password: NewPassword,
  workspaceName: freeText({ max: 100 }).optional().describe('Renames the workspace "Default".'),
});
export type Setup = z.infer<typeof Setup>;

export const RequestPasswordReset = z.strictObject({ email: Email });
export type RequestPasswordReset = z.infer<typeof RequestPasswordReset>;

/** The same answer whether or not an account has the email, so it never tells. */
export const PasswordResetRequested = z.object({ message: z.string() });
export type PasswordResetRequested = z.infer<typeof PasswordResetRequested>;

export const CompletePasswordReset = z.strictObject({
  token: z.string().min(1).max(200),
  password: NewPassword,
});
export type CompletePasswordReset = z.infer<typeof CompletePasswordReset>;

/** The password is set; every session and API key the account had is gone, and nobody is signed in. */
export const PasswordResetCompleted = z.object({
  email: z.string(),
  endedSessions: z.number().int().min(0),
  revokedKeys: z.number().int().min(0),
});
export type PasswordResetCompleted = z.infer<typeof PasswordResetCompleted>;

export const SessionUser = z.object({ id: Id, email: z.string(), name: z.string() });
export type SessionUser = z.infer<typeof SessionUser>;

/** Who is signed in, where, and the token their writes must carry in `x-csrf-token`. */
export const Session = z.object({
  user: SessionUser,
  /** Every workspace the user is a member of, oldest membership first, with the role there. */
  workspaces: z.array(TeamListing),
  csrfToken: z.string(),
  expiresAt: Timestamp,
});
export type Session = z.infer<typeof Session>;
