import type { InputHTMLAttributes } from 'react';
import { FieldFrame } from './field-frame.tsx';

export interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'> {
  label: string;
  /** The field's name in the request body: its messages in `details.fieldErrors` show below it. */
  name: string;
  /** The last failure of the form's request, if any. */
  error?: unknown;
  hint?: string;
}

/** A labelled input with its hint and its field errors. */
export function FormField({ label, name, error, hint, ...input }: FormFieldProps) {
  return (
    <FieldFrame label={label} name={name} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <input {...input} id={id} name={name} aria-invalid={invalid || undefined} aria-describedby={describedBy} />
      )}
    </FieldFrame>
  );
}
