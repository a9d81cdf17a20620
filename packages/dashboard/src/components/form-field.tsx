import { useId, type InputHTMLAttributes } from 'react';
import { fieldErrorsOf } from '../api/api-error.ts';

export interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'> {
  label: string;
  /** The field's name in the request body: its messages in `details.fieldErrors` show below it. */
  name: string;
  /** The last failure of the form's request, if any. */
  error?: unknown;
  hint?: string;
}

/** A labelled input with its hint and its field errors, tied to it for assistive technology. */
export function FormField({ label, name, error, hint, ...input }: FormFieldProps) {
  const id = useId();
  const messages = fieldErrorsOf(error)[name] ?? [];
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = messages.length > 0 ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        {...input}
        id={id}
        name={name}
        aria-invalid={messages.length > 0 || undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
      />
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
