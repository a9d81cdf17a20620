import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { parseSignatureHeader, signWebhook, verifyWebhookSignature } from './webhook-signature.ts';

const secret = 'whsec_0123456789abcdef';
const body = '{"event":"crawl.alert","test":true}';
const t = 1_790_000_000;

function hmac(key: string, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

describe('signing a webhook', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', async () => {
    assert.equal(await signWebhook(secret, t, body), `t=${t},v1=${hmac(secret, `${t}.${body}`)}`);
  });

  it('signs the body byte for byte, non-ASCII included', async () => {
    const text = '{"project":"Café ✓"}';
    assert.equal(await signWebhook(secret, t, text), `t=${t},v1=${hmac(secret, `${t}.${text}`)}`);
  });

  it('refuses an empty secret and a time that is not whole seconds', async () => {
    await assert.rejects(signWebhook('', t, body), TypeError);
    await assert.rejects(signWebhook(secret, 1.5, body), TypeError);
    await assert.rejects(signWebhook(secret, -1, body), TypeError);
  });
});

describe('verifying a webhook', () => {
  it('accepts its own signature within the tolerance, at both edges', async () => {
    const header = await signWebhook(secret, t, body);
    assert.equal(await verifyWebhookSignature(secret, header, body, { nowSeconds: t }), 'valid');
    assert.equal(await verifyWebhookSignature(secret, header, body, { nowSeconds: t + 300 }), 'valid');
    assert.equal(await verifyWebhookSignature(secret, header, body, { nowSeconds: t - 300 }), 'valid');
  });

  it('calls a genuine signature outside the tolerance stale', async () => {
    const header = await signWebhook(secret, t, body);
    assert.equal(await verifyWebhookSignature(secret, header, body, { nowSeconds: t + 301 }), 'stale');
    assert.equal(await verifyWebhookSignature(secret, header, body, { nowSeconds: t + 10, toleranceSeconds: 5 }), 'stale');
  });

  it('refuses another body, another secret and a moved timestamp', async () => {
    const header = await signWebhook(secret, t, body);
    assert.equal(await verifyWebhookSignature(secret, header, `${body} `, { nowSeconds: t }), 'invalid');
    assert.equal(await verifyWebhookSignature('whsec_another_secret_00', header, body, { nowSeconds: t }), 'invalid');
    const moved = header.replace(`t=${t}`, `t=${t + 1}`);
    assert.equal(await verifyWebhookSignature(secret, moved, body, { nowSeconds: t }), 'invalid');
  });

  it('accepts the header when any of several v1 digests matches', async () => {
    const header = `t=${t},v1=${'0'.repeat(64)},v1=${hmac(secret, `${t}.${body}`)}`;
    assert.equal(await verifyWebhookSignature(secret, header, body, { nowSeconds: t }), 'valid');
  });

  it('calls a header without t or v1, or with malformed parts, malformed', async () => {
    for (const header of [
      undefined,
      null,
      '',
      `t=${t}`,
      `v1=${'a'.repeat(64)}`,
      `t=x,v1=${'a'.repeat(64)}`,
      `t=${t},v1=ABC`,
      `t=${t},v0=${'a'.repeat(64)}`,
    ]) {
      assert.equal(await verifyWebhookSignature(secret, header, body, { nowSeconds: t }), 'malformed', String(header));
    }
  });

  it('parses spaces around the parts', () => {
    assert.deepEqual(parseSignatureHeader(` t=${t} , v1=${'b'.repeat(64)} `), { timestamp: t, digests: ['b'.repeat(64)] });
  });
});
