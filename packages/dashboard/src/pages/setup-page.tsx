import { Navigate, useNavigate } from 'react-router';
import { onlyFieldErrors } from '../api/api-error.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useSession } from '../session/session-context.tsx';

const FIELDS = ['name', 'email', 'password', 'workspaceName'];

/** The first run (server: sessions/setup-service.ts): the owner chooses their email and password. */
export function SetupPage() {
  const { state, setUp } = useSession();
  const navigate = useNavigate();
  const form = useSubmit(async ({ name = '', email = '', password = '', workspaceName = '' }) => {
    await setUp({ name, email, password, ...(workspaceName.trim() ? { workspaceName } : {}) });
    navigate('/', { replace: true });
  });

  if (state.status === 'loading') return <LoadingState label="Loading" fullPage />;
  if (state.status === 'signed-in' && !form.busy) return <Navigate to="/" replace />;
  if (state.status === 'signed-out' && !state.setupNeeded) return <Navigate to="/sign-in" replace />;

  return (
    <main className="centered-page" id="main">
      <form className="card auth-card" onSubmit={form.onSubmit} noValidate>
        <p className="brand">Loupe</p>
        <h1>Welcome to Loupe</h1>
        <p className="muted">Create the owner's account. You will be signed in to the workspace created on the first start.</p>
        {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, FIELDS)} />}
        <FormField label="Your name" name="name" autoComplete="name" required autoFocus error={form.error} />
        <FormField label="Email" name="email" type="email" autoComplete="username" required error={form.error} />
        <FormField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint="At least 8 characters."
          error={form.error}
        />
        <FormField
          label="Workspace name"
          name="workspaceName"
          placeholder="Default"
          hint="Optional; you can rename it later."
          error={form.error}
        />
        <button type="submit" className="button primary wide" disabled={form.busy}>
          {form.busy ? 'Creating…' : 'Create the owner and sign in'}
        </button>
      </form>
    </main>
  );
}
