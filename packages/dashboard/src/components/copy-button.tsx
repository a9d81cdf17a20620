import { useEffect, useState } from 'react';

/**
 * Copies `text` to the clipboard and says so in a polite live region. The clipboard needs a
 * secure context (https or localhost): elsewhere it says it could not, and the text stays on
 * screen to select by hand.
 */
export function CopyButton({ text, label = 'Copy', className = 'button' }: { text: string; label?: string; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () => {
    if (!navigator.clipboard) return setState('failed');
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <>
      <button type="button" className={className} onClick={copy}>
        {label}
      </button>
      <span role="status" aria-live="polite" className="copy-status muted">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy: select the text instead' : ''}
      </span>
    </>
  );
}
