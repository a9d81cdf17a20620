import type { PasswordResetCompleted } from '@loupe/contract';
import { isLoupeError } from '@loupe/sdk';
import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { fieldErrorsOf, onlyFieldErrors } from '../api/api-error.ts';
import { sessionApi } from '../api/session-api.ts';
import { AuthFrame } from '../components/auth-frame.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { useSubmit } from '../components/use-submit.ts';
import { useSession } from '../session/session-context.tsx';
import '../settings/settings.css';

/** A used, replaced or unknown link (404), an expired one (410), or a malformed token: only a new link helps. */
function isDeadLink(error: unknown): boolean {
  return isLoupeError(error, 'not_found', 'reset_link_expired') || 'token' in fieldErrorsOf(error);
}

/**
 * `/reset-password#<token>`, the link of a reset mail (or of `loupe admin reset-password`).
 * The token is in the fragment, which browsers never send to a server. Setting the password
 * ends every session and API key of the account and signs nobody in, so the page then sends
 * the visitor to sign in with the new password.
 */
export function ResetPasswordPage() {
  const token = useLocation().hash.slice(1);
  const { refresh } = useSession();
  const [done, setDone] = useState<PasswordResetCompleted | null>(null);
  const [deadLink, setDeadLink] = useState<unknown>(null);
  const form = useSubmit(async ({ password = '' }) => {
    try {
      setDone(await sessionApi.completePasswordReset({ token, password }));
    } catch (error) {
      if (isDeadLink(error)) return setDeadLink(error);
      throw error;
    }
    // This browser's own session of the account, if it had one, has just ended.
    await refresh();
  });

  let content: ReactNode;
  if (token === '') content = <DeadLink />;
  else if (deadLink !== null) content = <DeadLink error={deadLink} />;
  else if (done) content = <PasswordSet done={done} />;
  else {
    content = (
      <form className="auth-form" onSubmit={form.onSubmit} noValidate>
        <h1>Choose a new password</h1>
        <p className="muted">Setting it signs your account out everywhere and revokes all its API keys.</p>
        {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, ['password'])} />}
        <FormField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          autoFocus
          hint="At least 8 characters."
          error={form.error}
        />
        <button type="submit" className="button primary wide" disabled={form.busy}>
          {form.busy ? 'Setting…' : 'Set the password'}
        </button>
      </form>
    );
  }
  return <AuthFrame>{content}</AuthFrame>;
}

function PasswordSet({ done }: { done: PasswordResetCompleted }) {
  const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const ended =
    done.endedSessions + done.revokedKeys === 0
      ? 'It had no sessions or API keys to end.'
      : `${plural(done.endedSessions, 'session was', 'sessions were')} ended and ${plural(done.revokedKeys, 'API key was', 'API keys were')} revoked.`;
  return (
    <>
      <h1>Your password is set</h1>
      <p role="status">
        <strong>{done.email}</strong> now signs in with the new password. {ended}
      </p>
      <p className="muted">Check the workspaces your account is in once signed in, and make new API keys where you need them.</p>
      <Link to="/sign-in" state={{ email: done.email }} className="button primary wide link-button">
        Sign in
      </Link>
    </>
  );
}

function DeadLink({ error }: { error?: unknown }) {
  return (
    <>
      <h1>This reset link does not work</h1>
      {error === undefined ? <p>The link has no token: open the whole link from the mail.</p> : <ErrorMessage error={error} />}
      <p className="muted">A link works once, for an hour, and only the latest one mailed.</p>
      <Link to="/forgot-password" className="button primary wide link-button">
        Ask for a new link
      </Link>
    </>
  );
}
