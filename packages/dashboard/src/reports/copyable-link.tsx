import { useId } from 'react';
import { CopyButton } from '../components/copy-button.tsx';

/** A link in a read-only field (selected on focus, to copy by hand too) with Copy and Open. */
export function CopyableLink({ label, url }: { label: string; url: string }) {
  const id = useId();
  return (
    <div className="field copyable-link">
      <label htmlFor={id}>{label}</label>
      <div className="copyable-row">
        <input id={id} type="text" readOnly value={url} onFocus={(event) => event.currentTarget.select()} />
        <CopyButton text={url} label="Copy link" />
        <a className="button" href={url} target="_blank" rel="noreferrer">
          Open
        </a>
      </div>
    </div>
  );
}
