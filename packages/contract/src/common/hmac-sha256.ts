/**
 * HMAC-SHA256 over WebCrypto, so the contract runs unchanged in Node and browsers (the SDK
 * signs CDN URLs and checks webhooks with it). Used by CDN URL signatures and alert webhooks.
 */
export async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.sign('HMAC', await hmacKey(secret, 'sign'), utf8(message));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether any of `secrets` signed `message` with the hex `digest`; compared by
 * `crypto.subtle.verify`, constant-time by construction. Empty secrets are skipped.
 */
export async function hmacSha256Matches(secrets: readonly string[], message: string, digests: readonly string[]): Promise<boolean> {
  const signed = utf8(message);
  for (const secret of secrets) {
    if (secret === '') continue;
    const key = await hmacKey(secret, 'verify');
    for (const digest of digests) {
      if (await globalThis.crypto.subtle.verify('HMAC', key, hexBytes(digest), signed)) return true;
    }
  }
  return false;
}

function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}
