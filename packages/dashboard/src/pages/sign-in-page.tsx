import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { onlyFieldErrors } from '../api/api-error.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useSession } from '../session/session-context.tsx';

/** Where a page behind sign-in sent the visitor from (RequireSession), to go back there after. */
export function returnPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : '/';
}

/** The email to fill in, when the sender knows it (the invite page, after an invite was accepted or a password set). */
export function knownEmail(state: unknown): string | undefined {
  const email = (state as { email?: unknown } | null)?.email;
  return typeof email === 'string' ? email : undefined;
}

export function SignInPage() {
  const { state, signIn } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const filledEmail = knownEmail(location.state);
  const form = useSubmit(async ({ email = '', password = '' }) => {
    await signIn({ email, password });
    navigate(returnPath(location.state), { replace: true });
  });

  if (state.status === 'loading') return <LoadingState label="Loading" fullPage />;
  if (state.status === 'signed-in' && !form.busy) return <Navigate to={returnPath(location.state)} replace />;
  if (state.status === 'signed-out' && state.setupNeeded) return <Navigate to="/setup" replace />;

  return (
    <main className="centered-page" id="main">
      <form className="card auth-card" onSubmit={form.onSubmit} noValidate>
        <p className="brand">Loupe</p>
        <h1>Sign in</h1>
        {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, ['email', 'password'])} />}
        <FormField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus={!filledEmail}
          defaultValue={filledEmail}
          error={form.error}
        />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          autoFocus={Boolean(filledEmail)}
          error={form.error}
        />
        <button type="submit" className="button primary wide" disabled={form.busy}>
          {form.busy ? 'Signing in…' : 'Sign in'}
        </button>
        <Link to="/forgot-password" state={filledEmail ? { email: filledEmail } : undefined}>
          Forgot your password?
        </Link>
      </form>
    </main>
  );
}
