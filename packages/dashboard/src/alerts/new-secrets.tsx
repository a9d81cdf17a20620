import type { AlertSettings } from '@loupe/contract';
import { CopyButton } from '../components/copy-button.tsx';

/** The secrets Loupe generated in the save just made: in that answer only, so shown here once. */
export function NewSecrets({ settings }: { settings: AlertSettings }) {
  const generated = settings.channels.flatMap((channel) =>
    channel.type === 'webhook' && channel.secret ? [{ url: channel.url, secret: channel.secret }] : [],
  );
  if (generated.length === 0) return null;
  return (
    <section className="new-secrets" aria-label="New signing secrets">
      <p>
        <strong>Copy the signing secret now: it is not shown again.</strong> Check the <code>Loupe-Signature</code> header of each request
        with it.
      </p>
      <ul>
        {generated.map(({ url, secret }, index) => (
          <li key={index}>
            <span className="muted small">{url}</span>
            <div className="secret-row">
              {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: users and the e2e tests find each secret by this label */}
              <code className="secret" aria-label={`Signing secret for ${url}`}>
                {secret}
              </code>
              <CopyButton text={secret} label="Copy secret" />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
