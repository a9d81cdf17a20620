import { type AlertSettings, MAX_ALERT_CHANNELS } from '@loupe/contract';
import { type FormEvent, useState } from 'react';
import { fieldErrorsOf } from '../api/api-error.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { type AlertDraft, bodyOf, type ChannelDraft, draftOf, isFormField, newChannel, withRecipientErrors } from './alert-form-state.ts';
import { ChannelFields } from './channel-fields.tsx';
import { NewSecrets } from './new-secrets.tsx';

/**
 * When the project alerts and where: the conditions, and up to five channels. Saving replaces
 * the settings whole (PUT); the API's messages show at their fields, and a secret Loupe
 * generated for a new webhook is shown once.
 */
export function AlertSettingsForm({
  projectId,
  settings,
  onDirtyChange,
}: {
  projectId: string;
  settings: AlertSettings;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const { api, can } = useWorkspace();
  const readOnly = !can('projects:write');
  const [draft, setDraftState] = useState<AlertDraft>(() => draftOf(settings));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<AlertSettings | null>(null);

  const setDraft = (next: AlertDraft) => {
    setDraftState(next);
    setSaved(null);
    onDirtyChange(true);
  };
  const setChannel = (index: number, channel: ChannelDraft) =>
    setDraft({ ...draft, channels: draft.channels.map((each, i) => (i === index ? channel : each)) });
  const shown = withRecipientErrors(error, draft);
  const channelsError = fieldErrorsOf(shown).channels;
  const onlyAtFields = Object.keys(fieldErrorsOf(shown)).length > 0 && Object.keys(fieldErrorsOf(shown)).every(isFormField);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api.updateAlertSettings({ projectId, body: bodyOf(draft) });
      setDraftState(draftOf(answer));
      setSaved(answer);
      onDirtyChange(false);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card alert-form" onSubmit={(event) => void save(event)} noValidate aria-label="Alert settings">
      <h2>Settings</h2>
      {error !== null && !onlyAtFields && <ErrorMessage error={shown} hideFieldErrors />}
      <label className="check-row">
        <input
          type="checkbox"
          checked={draft.enabled}
          disabled={readOnly}
          onChange={(event) => setDraft({ ...draft, enabled: event.target.checked })}
        />
        Send alerts when a crawl of this project ends
      </label>

      <fieldset className="conditions">
        <legend>Alert when</legend>
        <label className="check-row">
          <input
            type="checkbox"
            checked={draft.crawlFailed}
            disabled={readOnly}
            onChange={(event) => setDraft({ ...draft, crawlFailed: event.target.checked })}
          />
          A crawl fails
        </label>
        <FormField
          label="The score is below"
          name="conditions.scoreBelow"
          type="number"
          inputMode="numeric"
          min={0}
          max={100}
          placeholder="off"
          value={draft.scoreBelow}
          readOnly={readOnly}
          onChange={(event) => setDraft({ ...draft, scoreBelow: event.target.value })}
          error={shown}
          hint="0–100; empty turns it off."
        />
        <FormField
          label="The score dropped by at least"
          name="conditions.scoreDropBy"
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          placeholder="off"
          value={draft.scoreDropBy}
          readOnly={readOnly}
          onChange={(event) => setDraft({ ...draft, scoreDropBy: event.target.value })}
          error={shown}
          hint="Points since the previous report, 1–100; empty turns it off."
        />
        <label className="check-row">
          <input
            type="checkbox"
            checked={draft.newErrors}
            disabled={readOnly}
            onChange={(event) => setDraft({ ...draft, newErrors: event.target.checked })}
          />
          New errors appear that the previous report did not have
        </label>
      </fieldset>

      <fieldset className="channels">
        <legend>Channels</legend>
        <p className="muted small">Each alert goes to every channel; up to {MAX_ALERT_CHANNELS}.</p>
        {draft.channels.length === 0 && <p className="muted">No channels yet: alerts have nowhere to go.</p>}
        {draft.channels.map((channel, index) => (
          <ChannelFields
            key={channel.key}
            channel={channel}
            index={index}
            error={shown}
            readOnly={readOnly}
            onChange={(next) => setChannel(index, next)}
            onRemove={() => setDraft({ ...draft, channels: draft.channels.filter((_, i) => i !== index) })}
          />
        ))}
        {channelsError && <p className="field-error">{channelsError.join(' ')}</p>}
        {!readOnly && (
          <div className="section-actions start">
            <button
              type="button"
              className="button"
              disabled={draft.channels.length >= MAX_ALERT_CHANNELS}
              onClick={() => setDraft({ ...draft, channels: [...draft.channels, newChannel('webhook')] })}
            >
              Add a webhook
            </button>
            <button
              type="button"
              className="button"
              disabled={draft.channels.length >= MAX_ALERT_CHANNELS}
              onClick={() => setDraft({ ...draft, channels: [...draft.channels, newChannel('email')] })}
            >
              Add an email
            </button>
          </div>
        )}
      </fieldset>

      {saved && <NewSecrets settings={saved} />}
      {!readOnly && (
        <div className="action-row">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save alert settings'}
          </button>
          <span role="status" className="muted">
            {saved ? 'Saved.' : ''}
          </span>
        </div>
      )}
    </form>
  );
}
