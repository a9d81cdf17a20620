import { type ReactNode, useId } from 'react';
import { fieldMessages } from '../api/field-messages.ts';

export interface FieldFrameProps {
  label: string;
  /** The field's dotted path in the request body: the API's messages about it (and its parts) show below it. */
  name: string;
  /** The last failure of the form's request, if any. */
  error?: unknown;
  hint?: ReactNode;
  /** The control, given its id, the ids describing it and whether it is invalid. */
  children: (control: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/**
 * A labelled control of any kind with its hint and the API's messages about it, tied to it for
 * assistive technology: the one layout FormField, SelectField and the bespoke controls share.
 */
export function FieldFrame({ label, name, error, hint, children }: FieldFrameProps) {
  const id = useId();
  const messages = fieldMessages(error, name);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = messages.length > 0 ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, describedBy: [hintId, errorId].filter(Boolean).join(' ') || undefined, invalid: messages.length > 0 })}
      {hint && (
        <p id={hintId} className="field-hint muted">
          {hint}
        </p>
      )}
      {errorId && (
        <p id={errorId} className="field-error">
          {messages.join(' ')}
        </p>
      )}
    </div>
  );
}
