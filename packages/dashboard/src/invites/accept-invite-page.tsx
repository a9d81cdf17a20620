import { type AcceptedInvite, CSRF_HEADER, type SessionUser } from '@loupe/contract';
import { createClient, isLoupeError } from '@loupe/sdk';
import { type ReactNode, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { fieldErrorsOf, onlyFieldErrors } from '../api/api-error.ts';
import { AuthFrame } from '../components/auth-frame.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useSession } from '../session/session-context.tsx';
import '../settings/settings.css';

/**
 * `/invites/:token`, the link of an invite, outside the workspace frame and open signed out.
 * An invite joins the account of the email it was sent to (README "Invite links and
 * accounts"): signed out, the page creates that account with the password chosen here, and
 * when the account exists already the API asks for a sign-in (401 sign_in_required), so the
 * page sends the visitor to sign in as it and back here, where they accept signed in. An
 * invite never sets the password of an account that exists.
 */
export function AcceptInvitePage() {
  const { token = '' } = useParams();
  const { state } = useSession();
  const [accepted, setAccepted] = useState<AcceptedInvite | null>(null);
  const [deadLink, setDeadLink] = useState<unknown>(null);
  const [signInAs, setSignInAs] = useState<string | null>(null);

  let content: ReactNode;
  if (state.status === 'loading') content = <LoadingState label="Loading" />;
  else if (deadLink !== null) content = <DeadLink error={deadLink} />;
  else if (accepted) content = <Accepted accepted={accepted} />;
  else if (state.status === 'signed-in') {
    content = <AcceptSignedIn token={token} csrfToken={state.session.csrfToken} user={state.session.user} onDeadLink={setDeadLink} />;
  } else if (signInAs !== null) content = <SignInToAccept token={token} email={signInAs} />;
  else content = <AcceptSignedOut token={token} onAccepted={setAccepted} onDeadLink={setDeadLink} onSignInNeeded={setSignInAs} />;

  return <AuthFrame>{content}</AuthFrame>;
}

interface AcceptProps {
  token: string;
  onAccepted: (accepted: AcceptedInvite) => void;
  onDeadLink: (error: unknown) => void;
}

/** A used, revoked, unknown (404), expired (410) or malformed link: nothing on the page can help. */
function isDeadLink(error: unknown): boolean {
  return isLoupeError(error, 'not_found', 'invite_expired') || 'token' in fieldErrorsOf(error);
}

/** The invited email an error names (sign_in_required, invite_for_another_account), if it does. */
function invitedEmailOf(error: unknown): string | undefined {
  const email = isLoupeError(error) ? error.extra.email : undefined;
  return typeof email === 'string' ? email : undefined;
}

/** Where the sign-in screen fills in the email and comes back to after (pages/sign-in-page.tsx). */
function signInState(token: string, email?: string) {
  return { from: `/invites/${token}`, ...(email ? { email } : {}) };
}

function AcceptSignedOut({ token, onAccepted, onDeadLink, onSignInNeeded }: AcceptProps & { onSignInNeeded: (email: string) => void }) {
  const { signIn } = useSession();
  const navigate = useNavigate();
  // Signed out: no key, no session; the account the invite makes is the one whose password is chosen here.
  const api = useMemo(() => createClient(), []);
  const form = useSubmit(async ({ name = '', password = '' }) => {
    let accepted: AcceptedInvite;
    try {
      accepted = await api.acceptInvite({ token, body: { ...(name.trim() ? { name } : {}), ...(password ? { password } : {}) } });
    } catch (error) {
      if (isDeadLink(error)) return onDeadLink(error);
      if (isLoupeError(error, 'sign_in_required')) return onSignInNeeded(invitedEmailOf(error) ?? '');
      throw error;
    }
    try {
      await signIn({ email: accepted.email, password });
      navigate(`/w/${accepted.workspace.id}`, { replace: true });
    } catch {
      // Shown as "sign in to open it".
      onAccepted(accepted);
    }
  });
  return (
    <form className="auth-form" onSubmit={form.onSubmit} noValidate>
      <h1>Join a workspace</h1>
      <p className="muted">
        You were invited to a workspace on this Loupe server. New here? Choose a password to create your account for the invited email.
      </p>
      {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, ['name', 'password'])} />}
      <FormField label="Your name" name="name" autoComplete="name" maxLength={100} hint="Shown to the other members." error={form.error} />
      <FormField
        label="Choose a password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={8}
        hint="At least 8 characters, for your new account."
        error={form.error}
      />
      <button type="submit" className="button primary wide" disabled={form.busy}>
        {form.busy ? 'Joining…' : 'Create my account and join'}
      </button>
      <p className="muted">
        Already have an account with the invited email?{' '}
        <Link to="/sign-in" state={signInState(token)}>
          Sign in
        </Link>
        : you come back here to accept.
      </p>
    </form>
  );
}

/** The invited email has an account: only that account, signed in, may accept. */
function SignInToAccept({ token, email }: { token: string; email: string }) {
  return (
    <>
      <h1>Sign in to accept</h1>
      <p>
        An account has the email {email ? <strong>{email}</strong> : 'this invite was sent to'} already. Sign in as it, and you come back
        here to accept the invite.
      </p>
      <p className="muted">An invite never changes the password of an account that exists.</p>
      <Link to="/sign-in" state={signInState(token, email || undefined)} className="button primary wide link-button">
        Sign in to accept
      </Link>
    </>
  );
}

function AcceptSignedIn({
  token,
  csrfToken,
  user,
  onDeadLink,
}: Omit<AcceptProps, 'onAccepted'> & { csrfToken: string; user: SessionUser }) {
  const { refresh, signOut } = useSession();
  const navigate = useNavigate();
  // The session cookie goes along; a write made with it carries its CSRF token.
  const api = useMemo(() => createClient({ headers: { [CSRF_HEADER]: csrfToken } }), [csrfToken]);
  const form = useSubmit(async () => {
    let accepted: AcceptedInvite;
    try {
      accepted = await api.acceptInvite({ token, body: {} });
    } catch (error) {
      if (isDeadLink(error)) return onDeadLink(error);
      throw error;
    }
    // The new workspace must be in the session before its frame opens.
    await refresh();
    navigate(`/w/${accepted.workspace.id}`, { replace: true });
  });
  const otherEmail = isLoupeError(form.error, 'invite_for_another_account') ? invitedEmailOf(form.error) : undefined;
  return (
    <form className="auth-form" onSubmit={form.onSubmit} noValidate>
      <h1>Join a workspace</h1>
      <p className="muted">
        You are signed in as <strong>{user.name}</strong> ({user.email}). An invite joins the account of the email it was sent to.
      </p>
      {form.error !== null &&
        (isLoupeError(form.error, 'invite_for_another_account') ? (
          <div className="error-message" role="alert">
            <p>
              <strong>
                This invite is for {otherEmail ?? 'another email'}, not {user.email}.
              </strong>{' '}
              Sign out, then sign in as that account to accept it, or create it here if it has none.
            </p>
          </div>
        ) : (
          <ErrorMessage error={form.error} />
        ))}
      <button type="submit" className="button primary wide" disabled={form.busy}>
        {form.busy ? 'Joining…' : 'Accept the invite'}
      </button>
      <button type="button" className="button wide" onClick={() => void signOut()}>
        Sign out to accept as someone else
      </button>
    </form>
  );
}

/** Joined with a new account, but signing in with its password right after failed. */
function Accepted({ accepted }: { accepted: AcceptedInvite }) {
  const toSignIn = { email: accepted.email, from: `/w/${accepted.workspace.id}` };
  return (
    <>
      <h1>You joined {accepted.workspace.name}</h1>
      <p>
        <strong>{accepted.email}</strong> is now a member of {accepted.workspace.name} as <span className="badge">{accepted.role}</span>.
      </p>
      <Link to="/sign-in" state={toSignIn} className="button primary wide link-button">
        Sign in to open it
      </Link>
    </>
  );
}

function DeadLink({ error }: { error: unknown }) {
  return (
    <>
      <h1>This invite link does not work</h1>
      <ErrorMessage error={error} />
      <p className="muted">Ask an admin of the workspace for a new invite.</p>
      <Link to="/">Go to the dashboard</Link>
    </>
  );
}
