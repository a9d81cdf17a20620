import type { ReactNode } from 'react';
import { onlyFieldErrors } from '../api/api-error.ts';
import { DialogFormActions } from './dialog-form-actions.tsx';
import { ErrorMessage } from './error-message.tsx';
import type { useSubmit } from './use-submit.ts';

/**
 * The form of a dialog: the request's failure above the fields, the fields, Cancel and submit.
 * Field messages are left to their controls when each is for one of `fieldNames`.
 */
export function DialogForm({
  form,
  fieldNames,
  submitLabel,
  busyLabel,
  onCancel,
  children,
}: {
  form: Pick<ReturnType<typeof useSubmit>, 'busy' | 'error' | 'onSubmit'>;
  fieldNames: readonly string[];
  submitLabel: string;
  busyLabel: string;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <form onSubmit={form.onSubmit} noValidate>
      {form.error !== null && <ErrorMessage error={form.error} hideFieldErrors={onlyFieldErrors(form.error, fieldNames)} />}
      {children}
      <DialogFormActions busy={form.busy} submitLabel={submitLabel} busyLabel={busyLabel} onCancel={onCancel} />
    </form>
  );
}
