import { useId } from 'react';
import { FormField } from '../components/form-field.tsx';

/** The browser's IANA zones, offered as suggestions; the server decides what it accepts. */
const zones: readonly string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

/** A free-text IANA time zone with the known ones suggested, and the API's message below it. */
export function TimeZoneField({ name, defaultValue, error, hint }: { name: string; defaultValue?: string; error: unknown; hint: string }) {
  const listId = useId();
  return (
    <>
      <FormField
        label="Time zone"
        name={name}
        defaultValue={defaultValue}
        list={listId}
        autoComplete="off"
        spellCheck={false}
        error={error}
        hint={hint}
      />
      <datalist id={listId}>
        {zones.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
    </>
  );
}
