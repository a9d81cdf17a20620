import type { Report } from '@loupe/contract';
import { useId, useState } from 'react';
import { ErrorMessage } from '../components/error-message.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { CopyableLink } from './copyable-link.tsx';

type Share = NonNullable<Report['share']>;

/**
 * Sharing a report at a secret link anyone can read without signing in (`/r/{token}`), and
 * taking it back: the link stops working at once. Those who may not share only see the link.
 */
export function SharePanel({ reportId, initial }: { reportId: string; initial: Share | null }) {
  const { api, can } = useWorkspace();
  const id = useId();
  const [share, setShare] = useState<Share | null>(initial);
  /** The state asked for while the request is under way: the switch moves at once, and back if it fails. */
  const [pending, setPending] = useState<boolean | null>(null);
  const [error, setError] = useState<unknown>(null);
  const toggle = async (on: boolean) => {
    setPending(on);
    setError(null);
    try {
      if (on) setShare(await api.shareReport({ reportId }));
      else {
        await api.unshareReport({ reportId });
        setShare(null);
      }
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(null);
    }
  };
  // The API gives the page's path on this server; the link to hand out is absolute.
  const link = share ? new URL(share.url, window.location.origin).href : null;
  return (
    <section className="card share-panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Sharing</h2>
      {can('reports:write') ? (
        <label className="switch">
          <input
            type="checkbox"
            // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox carries its checked state itself
            role="switch"
            checked={pending ?? share !== null}
            disabled={pending !== null}
            onChange={(event) => void toggle(event.target.checked)}
          />
          <span>Anyone with the link can read this report</span>
        </label>
      ) : (
        <p className="muted">{share ? 'This report is shared: anyone with the link can read it.' : 'This report is not shared.'}</p>
      )}
      {link && share && (
        <>
          <CopyableLink label="Share link" url={link} />
          <p className="muted">
            Shared {new Date(share.sharedAt).toLocaleString()}. Turning sharing off stops the link at once; sharing again makes a new one.
          </p>
        </>
      )}
      {error !== null && <ErrorMessage error={error} />}
    </section>
  );
}
