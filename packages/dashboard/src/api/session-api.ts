import {
  type CompletePasswordReset,
  CSRF_HEADER,
  PasswordResetCompleted,
  PasswordResetRequested,
  type RequestPasswordReset,
  Session,
  type Setup,
  SetupState,
  type SignIn,
  sessionPaths,
} from '@loupe/contract';
// The dashboard's own endpoints (not SDK methods) fail as the LoupeError the SDK throws for the rest.
import { errorFromResponse } from '@loupe/sdk';

async function call(method: string, path: string, options: { body?: unknown; csrfToken?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.csrfToken !== undefined) headers[CSRF_HEADER] = options.csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: 'same-origin',
  });
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}

/** The dashboard's own endpoints (packages/contract/src/sessions/): who is signed in, signing in and out, the first run, password resets. */
export const sessionApi = {
  /** Null when nobody is signed in (401). */
  async current(): Promise<Session | null> {
    const response = await fetch(sessionPaths.session, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    if (response.status === 401) return null;
    if (!response.ok) throw await errorFromResponse(response);
    return Session.parse(await response.json());
  },

  async signIn(input: SignIn): Promise<Session> {
    return Session.parse(await (await call('POST', sessionPaths.session, { body: input })).json());
  },

  async signOut(csrfToken: string): Promise<void> {
    await call('DELETE', sessionPaths.session, { csrfToken });
  },

  async setupState(): Promise<SetupState> {
    return SetupState.parse(await (await call('GET', sessionPaths.setup)).json());
  },

  async setUp(input: Setup): Promise<Session> {
    return Session.parse(await (await call('POST', sessionPaths.setup, { body: input })).json());
  },

  /** The same answer whether or not an account has the email. */
  async requestPasswordReset(input: RequestPasswordReset): Promise<PasswordResetRequested> {
    return PasswordResetRequested.parse(await (await call('POST', sessionPaths.passwordResets, { body: input })).json());
  },

  /** Sets the password of the link's account; signs nobody in. */
  async completePasswordReset(input: CompletePasswordReset): Promise<PasswordResetCompleted> {
    return PasswordResetCompleted.parse(await (await call('POST', sessionPaths.passwordResetCompletion, { body: input })).json());
  },
};
