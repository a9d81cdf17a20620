import type { AcceptedInvite, SessionUser } from '@loupe/contract';
import { createClient, isLoupeError } from '@loupe/sdk';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { fieldErrorsOf, onlyFieldErrors } from '../api/api-error.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useSession } from '../session/session-context.tsx';
import '../settings/settings.css';

/**
 * `/invites/:token`, the link of an invite, outside the workspace frame and open signed out.
 * Accepting (a public operation) joins the invited email's account, creating it with the
 * password given here when there is none; it starts no session. So a new account is then
 * signed in with the same password, and anyone else goes to sign in with the email filled.
 * The API tells the workspace and role only in its answer: they show after accepting.
 */
export function AcceptInvitePage() {
  const { token = '' } = useParams();
  const { state } = useSession();
  // The operation is public and names no workspace: no session headers to send.
  const api = useMemo(() => createClient(), []);
  const [accepted, setAccepted] = useState<AcceptedInvite | null>(null);
  const [deadLink, setDeadLink] = useState<unknown>(null);

  let content;
  if (state.status === 'loading') content = <LoadingState label="Loading" />;
  else if (deadLink !== null) content = <DeadLink error={deadLink} />;
  else if (accepted) content = <Accepted accepted={accepted} />;
  else if (state.status === 'signed-in') content = <AcceptSignedIn token={token} api={api} user={state.session.user} onAccepted={setAccepted} onDeadLink={setDeadLink} />;
  else content = <AcceptSignedOut token={token} api={api} onAccepted={setAccepted} onDeadLink={setDeadLink} />;

  return (
    <main className="centered-page" id="main">
      <div className="card auth-card">
        <p className="brand">Loupe</p>
        {content}
      </div>
    </main>
  );
}

type Api = ReturnType<typeof createClient>;

interface AcceptProps {
  token: string;
  api: Api;
  onAccepted: (accepted: AcceptedInvite) => void;
  onDeadLink: (error: unknown) => void;
}

/** A used, revoked, unknown (404), expired (410) or malformed link: nothing on the page can help. */
function isDeadLink(error: unknown): boolean {
  return isLoupeError(error, 'not_found', 'invite_expired') || 'token' in fieldErrorsOf(error);
}

function AcceptSignedOut({ token, api, onAccepted, onDeadLink }: AcceptProps) {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const form = useSubmit(async ({ name = '', password = '' }) => {
    let accepted: AcceptedInvite;
    try {
      accepted = await api.acceptInvite({ token, body: { ...(name.trim() ? { name } : {}), ...(password ? { password } : {}) } });
    } catch (error) {
      if (isDeadLink(error)) return onDeadLink(error);
      throw error;
    }
    // A new account has just been given this password; an existing one keeps its own, which this may not be.
    if (password) {
      try {
        await signIn({ email: accepted.email, password });
        navigate(`/w/${accepted.workspace.id}`, { replace: true });
        return;
      } catch {
        // Shown as "sign in to open it" below.
      }
    }
    onAccepted(accepted);
  });
  return (
    <form className="auth-form" onSubmit={form.onSubmit} noValidate>
      <h1>Join a workspace</h1>
      <p className="muted">You were invited to a workspace on this Loupe server. Accept to join it with the role the invite gives.</p>
      {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, ['name', 'password'])} />}
      <FormField label="Your name" name="name" autoComplete="name" maxLength={100} hint="Shown to the other members." error={form.error} />
      <FormField
        label="Choose a password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={8}
        hint="At least 8 characters, for your new account. Already have an account with the invited email? Leave it empty and sign in after."
        error={form.error}
      />
      <button type="submit" className="button primary wide" disabled={form.busy}>
        {form.busy ? 'Joining…' : 'Accept the invite'}
      </button>
      <p className="muted">
        Signed in elsewhere? <Link to="/sign-in">Sign in</Link>, then open the link again.
      </p>
    </form>
  );
}

function AcceptSignedIn({ token, api, user, onAccepted, onDeadLink }: AcceptProps & { user: SessionUser }) {
  const { refresh, signOut } = useSession();
  const navigate = useNavigate();
  const form = useSubmit(async () => {
    let accepted: AcceptedInvite;
    try {
      accepted = await api.acceptInvite({ token, body: {} });
    } catch (error) {
      if (isDeadLink(error)) return onDeadLink(error);
      throw error;
    }
    if (accepted.email !== user.email) return onAccepted(accepted);
    // The new workspace must be in the session before its frame opens.
    await refresh();
    navigate(`/w/${accepted.workspace.id}`, { replace: true });
  });
  const forAnotherEmail = 'password' in fieldErrorsOf(form.error);
  return (
    <form className="auth-form" onSubmit={form.onSubmit} noValidate>
      <h1>Join a workspace</h1>
      <p className="muted">
        You are signed in as <strong>{user.name}</strong> ({user.email}). An invite joins the account of the email it was sent to.
      </p>
      {form.error !== null &&
        (forAnotherEmail ? (
          <div className="error-message" role="alert">
            <p>
              <strong>This invite is for another email, which has no account yet.</strong> Sign out, then accept it here to create that account.
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

/** Joined, but the browser is not (yet) signed in as the invited account. */
function Accepted({ accepted }: { accepted: AcceptedInvite }) {
  const { state, signOut } = useSession();
  const navigate = useNavigate();
  // The sign-in screen fills in the email and opens the workspace after (pages/sign-in-page.tsx).
  const toSignIn = { email: accepted.email, from: `/w/${accepted.workspace.id}` };
  return (
    <>
      <h1>You joined {accepted.workspace.name}</h1>
      <p>
        <strong>{accepted.email}</strong> is now a member of {accepted.workspace.name} as <span className="badge">{accepted.role}</span>.
      </p>
      {state.status === 'signed-in' ? (
        <button
          type="button"
          className="button primary wide"
          onClick={() => void signOut().then(() => navigate('/sign-in', { state: toSignIn }))}
        >
          Sign out and sign in as {accepted.email}
        </button>
      ) : (
        <Link to="/sign-in" state={toSignIn} className="button primary wide link-button">
          Sign in to open it
        </Link>
      )}
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
