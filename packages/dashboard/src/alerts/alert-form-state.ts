import { type AlertSettings, LoupeError, type UpdateAlertSettings } from '@loupe/contract';

/** A channel as the form edits it: recipients as typed, a new secret only when one is typed. */
export interface ChannelDraft {
  /** React's key: the saved id, or a local one for a channel not saved yet. */
  key: string;
  /** The saved channel's id, sent back so it keeps its secret. */
  id?: string;
  type: 'webhook' | 'email';
  url: string;
  secret: string;
  secretPreview?: string;
  recipients: string;
}

/** The form's fields; numbers stay text as typed, so a bad one reaches the API and its message. */
export interface AlertDraft {
  enabled: boolean;
  crawlFailed: boolean;
  scoreBelow: string;
  scoreDropBy: string;
  newErrors: boolean;
  channels: ChannelDraft[];
}

let localKeys = 0;
export function newChannel(type: ChannelDraft['type']): ChannelDraft {
  return { key: `new-${++localKeys}`, type, url: '', secret: '', recipients: '' };
}

export function draftOf(settings: AlertSettings): AlertDraft {
  const { conditions } = settings;
  return {
    enabled: settings.enabled,
    crawlFailed: conditions.crawlFailed,
    scoreBelow: conditions.scoreBelow === null ? '' : String(conditions.scoreBelow),
    scoreDropBy: conditions.scoreDropBy === null ? '' : String(conditions.scoreDropBy),
    newErrors: conditions.newErrors,
    channels: settings.channels.map((channel) =>
      channel.type === 'webhook'
        ? {
            key: channel.id,
            id: channel.id,
            type: 'webhook',
            url: channel.url,
            secret: '',
            secretPreview: channel.secretPreview,
            recipients: '',
          }
        : { key: channel.id, id: channel.id, type: 'email', url: '', secret: '', recipients: channel.to.join(', ') },
    ),
  };
}

/** Empty is off; anything else goes as a number, or as typed when it is not one (the API names the field). */
function threshold(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isNaN(value) ? (trimmed as unknown as number) : value;
}

/** Recipients separated by commas, semicolons or line breaks. */
export function recipientsOf(text: string): string[] {
  return text
    .split(/[,;\n]/)
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

export function bodyOf(draft: AlertDraft): UpdateAlertSettings {
  return {
    enabled: draft.enabled,
    conditions: {
      crawlFailed: draft.crawlFailed,
      scoreBelow: threshold(draft.scoreBelow),
      scoreDropBy: threshold(draft.scoreDropBy),
      newErrors: draft.newErrors,
    },
    channels: draft.channels.map((channel) =>
      channel.type === 'webhook'
        ? { type: 'webhook', id: channel.id, url: channel.url.trim(), secret: channel.secret === '' ? undefined : channel.secret }
        : { type: 'email', id: channel.id, to: recipientsOf(channel.recipients) },
    ),
  };
}

/**
 * The API names a bad recipient by its place (`channels.0.to.2`); the form has one field for
 * all of a channel's recipients, so those messages move to it, saying which address they are about.
 */
export function withRecipientErrors(error: unknown, draft: AlertDraft): unknown {
  if (!(error instanceof LoupeError) || !error.details) return error;
  const fieldErrors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(error.details.fieldErrors)) {
    const match = /^(channels\.(\d+)\.to)\.(\d+)$/.exec(field);
    if (!match) {
      fieldErrors[field] = [...(fieldErrors[field] ?? []), ...messages];
      continue;
    }
    const address = recipientsOf(draft.channels[Number(match[2])]?.recipients ?? '')[Number(match[3])];
    const prefix = address === undefined ? `Address ${Number(match[3]) + 1}` : `“${address}”`;
    fieldErrors[match[1]] = [...(fieldErrors[match[1]] ?? []), ...messages.map((message) => `${prefix}: ${message}`)];
  }
  const folded = new LoupeError(error.code, { message: error.message, details: { ...error.details, fieldErrors }, extra: error.extra });
  return Object.assign(folded, { status: error.status });
}

/** Fields the form shows beside a control: the message above the form is then left out. */
export function isFormField(field: string): boolean {
  return /^(enabled|conditions\.\w+|channels|channels\.\d+\.(url|secret|to))$/.test(field);
}
