import type { OperationDefinition } from '@loupe/contract';
import type { Caller, Principal } from '../principal.ts';

/** What a request carries to say who sends it, read from its headers before its body. */
export interface Credentials {
  authorization?: string;
  /** The `x-service-team` header. */
  team?: string;
  /** The dashboard's session cookie (its token), when the request carries one. */
  session?: string;
  /** The `x-csrf-token` header, which writes made with a session must carry. */
  csrfToken?: string;
}

/** Whether a request carries a credential at all: an Authorization header or a session cookie. */
export function carriesCredentials(credentials: Credentials): boolean {
  return credentials.authorization !== undefined || credentials.session !== undefined;
}

/**
 * Who calls an operation, from its credentials (identity's Authenticator): `authenticate` for
 * operations that need a member of a workspace, `identify` for those where credentials are optional.
 */
export interface CallerIdentifier {
  authenticate(credentials: Credentials, operation: OperationDefinition): Promise<Principal>;
  identify(credentials: Credentials, operation: OperationDefinition): Promise<Caller>;
}
