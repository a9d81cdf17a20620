import { useId } from 'react';
import { fieldErrorsOf } from '../api/api-error.ts';
import { FormField } from '../components/form-field.tsx';
import type { ChannelDraft } from './alert-form-state.ts';

/** One channel of the alert form: a webhook's URL and optional secret, or an email's recipients. */
export function ChannelFields({
  channel,
  index,
  error,
  readOnly,
  onChange,
  onRemove,
}: {
  channel: ChannelDraft;
  index: number;
  error: unknown;
  readOnly: boolean;
  onChange: (channel: ChannelDraft) => void;
  onRemove: () => void;
}) {
  const headingId = useId();
  const prefix = `channels.${index}`;
  const other = fieldErrorsOf(error)[`${prefix}.type`] ?? fieldErrorsOf(error)[`${prefix}.id`];
  const title = channel.type === 'webhook' ? `Webhook ${index + 1}` : `Email ${index + 1}`;
  return (
    <fieldset className="channel" aria-labelledby={headingId}>
      <div className="channel-head">
        <h3 id={headingId}>{title}</h3>
        {!readOnly && (
          <button type="button" className="button" onClick={onRemove} aria-label={`Remove ${title.toLowerCase()}`}>
            Remove
          </button>
        )}
      </div>
      {channel.type === 'webhook' ? (
        <>
          <FormField
            label="Webhook URL"
            name={`${prefix}.url`}
            type="url"
            value={channel.url}
            readOnly={readOnly}
            placeholder="https://hooks.example.com/loupe"
            onChange={(event) => onChange({ ...channel, url: event.target.value })}
            error={error}
            hint="Receives a signed POST of each alert as JSON."
          />
          {!readOnly && (
            <FormField
              label="Signing secret"
              name={`${prefix}.secret`}
              value={channel.secret}
              autoComplete="off"
              spellCheck={false}
              className="monospace"
              onChange={(event) => onChange({ ...channel, secret: event.target.value })}
              error={error}
              hint={
                channel.secretPreview
                  ? `Current secret: ${channel.secretPreview} Leave empty to keep it, or type a new one (16–128 characters).`
                  : 'Leave empty and Loupe generates one, shown once after saving; or type your own (16–128 characters).'
              }
            />
          )}
          {readOnly && channel.secretPreview && <p className="muted small">Signed with the secret {channel.secretPreview}</p>}
        </>
      ) : (
        <FormField
          label="Recipients"
          name={`${prefix}.to`}
          type="text"
          value={channel.recipients}
          readOnly={readOnly}
          placeholder="ops@example.com, web@example.com"
          autoComplete="off"
          onChange={(event) => onChange({ ...channel, recipients: event.target.value })}
          error={error}
          hint="Up to 10 addresses, separated by commas."
        />
      )}
      {other && <p className="field-error">{other.join(' ')}</p>}
    </fieldset>
  );
}
