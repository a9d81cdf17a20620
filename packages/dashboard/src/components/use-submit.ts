import { type FormEvent, useState } from 'react';

/**
 * A form's submit: reads its fields, runs the request, and keeps the failure for ErrorMessage
 * and FormField (`error`), and `busy` to disable the button meanwhile.
 */
export function useSubmit(action: (fields: Record<string, string>) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields: Record<string, string> = {};
    for (const [name, value] of new FormData(event.currentTarget)) if (typeof value === 'string') fields[name] = value;
    setBusy(true);
    setError(null);
    try {
      await action(fields);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, onSubmit: (event: FormEvent<HTMLFormElement>) => void onSubmit(event), reset: () => setError(null) };
}
