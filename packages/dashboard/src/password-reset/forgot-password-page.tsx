import type { PasswordResetRequested } from '@loupe/contract';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { onlyFieldErrors } from '../api/api-error.ts';
import { sessionApi } from '../api/session-api.ts';
import { AuthFrame } from '../components/auth-frame.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { knownEmail } from '../pages/sign-in-page.tsx';
import '../settings/settings.css';

/**
 * `/forgot-password`: asks for a reset link by email (README "Invite links and accounts").
 * The answer is the same whether or not an account has the email, so the page says "if";
 * a server without SMTP says to ask its operator (501 smtp_not_configured).
 */
export function ForgotPasswordPage() {
  const location = useLocation();
  const [sent, setSent] = useState<PasswordResetRequested | null>(null);
  const form = useSubmit(async ({ email = '' }) => setSent(await sessionApi.requestPasswordReset({ email })));

  return (
    <AuthFrame>
      {sent ? (
        <>
          <h1>Check your mail</h1>
          <p role="status">{sent.message}</p>
          <p className="muted">The link sets a new password and signs the account out everywhere; its API keys stop working.</p>
          <Link to="/sign-in">Back to sign in</Link>
        </>
      ) : (
        <form className="auth-form" onSubmit={form.onSubmit} noValidate>
          <h1>Reset your password</h1>
          <p className="muted">Enter your account's email: a link to choose a new password is mailed there.</p>
          {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, ['email'])} />}
          <FormField
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            required
            autoFocus
            defaultValue={knownEmail(location.state)}
            error={form.error}
          />
          <button type="submit" className="button primary wide" disabled={form.busy}>
            {form.busy ? 'Sending…' : 'Mail me a link'}
          </button>
          <Link to="/sign-in">Back to sign in</Link>
        </form>
      )}
    </AuthFrame>
  );
}
