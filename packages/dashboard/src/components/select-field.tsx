import type { ReactNode, SelectHTMLAttributes } from 'react';
import { FieldFrame } from './field-frame.tsx';

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name'> {
  label: string;
  /** The field's (dotted) name in the request body: its messages in `details.fieldErrors` show below it. */
  name: string;
  error?: unknown;
  hint?: ReactNode;
  children: ReactNode;
}

/** A labelled `<select>` with its hint and its field errors. */
export function SelectField({ label, name, error, hint, children, ...select }: SelectFieldProps) {
  return (
    <FieldFrame label={label} name={name} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select {...select} className="select" id={id} name={name} aria-invalid={invalid || undefined} aria-describedby={describedBy}>
          {children}
        </select>
      )}
    </FieldFrame>
  );
}
