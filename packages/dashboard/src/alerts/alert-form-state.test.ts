import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AlertSettings, LoupeError } from '@loupe/contract';
import { bodyOf, draftOf, isFormField, newChannel, recipientsOf, withRecipientErrors } from './alert-form-state.ts';

const saved: AlertSettings = {
  projectId: '01900000-0000-7000-8000-000000000001',
  enabled: true,
  conditions: { crawlFailed: true, scoreBelow: 70, scoreDropBy: null, newErrors: false },
  channels: [
    { id: '01900000-0000-7000-8000-000000000002', type: 'webhook', url: 'https://hooks.example.com/a', secretPreview: 'whsec_abcd…' },
    { id: '01900000-0000-7000-8000-000000000003', type: 'email', to: ['ops@example.com', 'web@example.com'] },
  ],
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('the alert form and the settings it saves', () => {
  it('saves unchanged settings as they were, keeping each channel (and so its secret) by id', () => {
    assert.deepEqual(bodyOf(draftOf(saved)), {
      enabled: true,
      conditions: { crawlFailed: true, scoreBelow: 70, scoreDropBy: null, newErrors: false },
      channels: [
        { type: 'webhook', id: saved.channels[0]!.id, url: 'https://hooks.example.com/a', secret: undefined },
        { type: 'email', id: saved.channels[1]!.id, to: ['ops@example.com', 'web@example.com'] },
      ],
    });
  });

  it('sends a new channel without an id, an empty threshold as off, and text that is not a number as typed', () => {
    const draft = {
      ...draftOf(saved),
      scoreBelow: ' ',
      scoreDropBy: 'ten',
      channels: [{ ...newChannel('webhook'), url: ' https://x.example/ ', secret: 's'.repeat(16) }],
    };
    const body = bodyOf(draft);
    assert.equal(body.conditions.scoreBelow, null);
    assert.equal(body.conditions.scoreDropBy, 'ten' as unknown as number);
    assert.deepEqual(body.channels, [{ type: 'webhook', id: undefined, url: 'https://x.example/', secret: 's'.repeat(16) }]);
  });

  it('reads recipients separated by commas, semicolons or lines, ignoring blanks', () => {
    assert.deepEqual(recipientsOf('a@x.com, b@x.com;\nc@x.com,, '), ['a@x.com', 'b@x.com', 'c@x.com']);
  });

  it("moves a recipient's message to the recipients field, naming the address", () => {
    const draft = draftOf(saved);
    const error = new LoupeError('validation_failed', {
      details: { fieldErrors: { 'channels.1.to.1': ['Invalid email address.'], 'channels.0.url': ['Not public.'] }, formErrors: [] },
    });
    const folded = withRecipientErrors(error, draft) as LoupeError;
    assert.deepEqual(folded.details?.fieldErrors, {
      'channels.1.to': ['“web@example.com”: Invalid email address.'],
      'channels.0.url': ['Not public.'],
    });
    assert.equal(folded.code, 'validation_failed');
    assert.equal(withRecipientErrors(null, draft), null);
  });

  it('knows which fields have a place in the form', () => {
    for (const field of ['enabled', 'conditions.scoreBelow', 'channels', 'channels.3.url', 'channels.0.to'])
      assert.equal(isFormField(field), true, field);
    for (const field of ['colour', 'conditions', 'channels.0.cc', 'channels.0.type']) assert.equal(isFormField(field), false, field);
  });
});
