import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { canonicalSigningString, encodeImagePath, signCdnPath, verifyCdnSignature } from './url-signature.ts';

const secret = 'sk_current_0123456789';
const previous = 'sk_previous_9876543210';
const now = 1_790_000_000;

function hmac(key: string, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

async function signed(
  params: Record<string, string>,
  path = 'blog/cover.jpg',
  key = secret,
): Promise<Record<string, string> & { s: string }> {
  return { ...params, s: await signCdnPath(key, 'blog', path, params) };
}

describe('canonical signing string', () => {
  it('is /slug/path?query with parameters sorted by name', () => {
    assert.equal(
      canonicalSigningString('blog', 'covers/a.jpg', { w: '300', t: 'thumb', exp: '1790000000', f: 'webp' }),
      '/blog/covers/a.jpg?exp=1790000000&f=webp&t=thumb&w=300',
    );
  });

  it('does not depend on the order parameters are given in', () => {
    const a = canonicalSigningString('blog', 'a.jpg', { w: '1', h: '2', blur: '3', brightness: '-4' });
    const b = canonicalSigningString('blog', 'a.jpg', { brightness: '-4', blur: '3', w: '1', h: '2' });
    assert.equal(a, b);
    assert.equal(a, '/blog/a.jpg?blur=3&brightness=-4&h=2&w=1');
  });

  it('leaves out s', () => {
    assert.equal(canonicalSigningString('blog', 'a.jpg', { w: '1', s: 'abc' }), '/blog/a.jpg?w=1');
  });

  it('keeps the ? when there is no other parameter', () => {
    assert.equal(canonicalSigningString('blog', 'a.jpg', { s: 'abc' }), '/blog/a.jpg?');
  });

  it("percent-encodes spaces, unicode and !'()* in values, and sorts names by code unit", () => {
    assert.equal(
      canonicalSigningString('blog', 'a.jpg', { b: "it's (a)*!", a: 'café ☕', B: '+&=/' }),
      '/blog/a.jpg?B=%2B%26%3D%2F&a=caf%C3%A9%20%E2%98%95&b=it%27s%20%28a%29%2A%21',
    );
  });

  it('takes the path exactly as encoded, without decoding or re-encoding it', () => {
    assert.equal(canonicalSigningString('blog', 'a%20b/c(d).jpg', {}), '/blog/a%20b/c(d).jpg?');
  });
});

describe('encodeImagePath', () => {
  it("encodes each segment per RFC 3986, including !'()*, and keeps the slashes", () => {
    assert.equal(encodeImagePath("summer 2026/café/it's (final)*!.jpg"), 'summer%202026/caf%C3%A9/it%27s%20%28final%29%2A%21.jpg');
  });

  it('leaves unreserved characters alone and encodes ? # % +', () => {
    assert.equal(encodeImagePath('a-b_c.d~e/f?g#h%i+j'), 'a-b_c.d~e/f%3Fg%23h%25i%2Bj');
  });
});

describe('signCdnPath', () => {
  it('is the lowercase hex HMAC-SHA256 of the canonical string (known answer)', async () => {
    const params = { t: 'thumb', w: '300', exp: '1790000000', s: 'ignored' };
    const expected = hmac(secret, '/blog/caf%C3%A9/it%27s%20(1).jpg?exp=1790000000&t=thumb&w=300');
    assert.equal(await signCdnPath(secret, 'blog', 'caf%C3%A9/it%27s%20(1).jpg', params), expected);
    assert.match(expected, /^[0-9a-f]{64}$/);
  });

  it('uses the UTF-8 bytes of the secret and of the string', async () => {
    const expected = hmac('clé ☕', '/blog/a.jpg?q=%C3%A9');
    assert.equal(await signCdnPath('clé ☕', 'blog', 'a.jpg', { q: 'é' }), expected);
  });

  it('refuses an empty secret', async () => {
    await assert.rejects(signCdnPath('', 'blog', 'a.jpg', {}), TypeError);
  });
});

describe('verifyCdnSignature', () => {
  it('accepts a signature made with the current secret', async () => {
    const params = await signed({ w: '300', exp: String(now + 60) });
    assert.equal(await verifyCdnSignature([secret, previous], 'blog', 'blog/cover.jpg', params, now), 'valid');
  });

  it('accepts a signature made with the previous secret', async () => {
    const params = await signed({ w: '300' }, 'blog/cover.jpg', previous);
    assert.equal(await verifyCdnSignature([secret, previous], 'blog', 'blog/cover.jpg', params, now), 'valid');
  });

  it('rejects a signature made with a secret that is no longer a candidate', async () => {
    const params = await signed({ w: '300' }, 'blog/cover.jpg', previous);
    assert.equal(await verifyCdnSignature([secret], 'blog', 'blog/cover.jpg', params, now), 'invalid');
  });

  it('accepts a signature whatever the order the parameters arrive in', async () => {
    const params = await signed({ w: '300', t: 'thumb', f: 'webp' });
    const reordered = { s: params.s, f: 'webp', w: '300', t: 'thumb' };
    assert.equal(await verifyCdnSignature([secret], 'blog', 'blog/cover.jpg', reordered, now), 'valid');
  });

  it('accepts a signature without exp at any time', async () => {
    const params = await signed({ w: '300' });
    assert.equal(await verifyCdnSignature([secret], 'blog', 'blog/cover.jpg', params, now * 2), 'valid');
  });

  it('is expired from the second exp names on, valid the second before', async () => {
    const params = await signed({ w: '300', exp: String(now) });
    assert.equal(await verifyCdnSignature([secret], 'blog', 'blog/cover.jpg', params, now - 1), 'valid');
    assert.equal(await verifyCdnSignature([secret], 'blog', 'blog/cover.jpg', params, now), 'expired');
    assert.equal(await verifyCdnSignature([secret], 'blog', 'blog/cover.jpg', params, now + 3600), 'expired');
  });

  it('is missing without s', async () => {
    assert.equal(await verifyCdnSignature([secret], 'blog', 'blog/cover.jpg', { w: '300' }, now), 'missing');
  });

  it('is invalid when a parameter is changed, added or removed', async () => {
    const params = await signed({ w: '300', exp: String(now + 60) });
    const verify = (changed: Record<string, string>) => verifyCdnSignature([secret], 'blog', 'blog/cover.jpg', changed, now);
    assert.equal(await verify({ ...params, w: '3000' }), 'invalid');
    assert.equal(await verify({ ...params, exp: String(now + 3600) }), 'invalid');
    assert.equal(await verify({ ...params, h: '10' }), 'invalid');
    const { w: _w, ...withoutWidth } = params;
    assert.equal(await verify(withoutWidth), 'invalid');
  });

  it('is invalid, not expired, when a forged exp is in the past', async () => {
    const params = await signed({ w: '300', exp: String(now + 60) });
    const verdict = await verifyCdnSignature([secret], 'blog', 'blog/cover.jpg', { ...params, exp: '1' }, now);
    assert.equal(verdict, 'invalid');
  });

  it('is invalid for another path or project', async () => {
    const params = await signed({ w: '300' }, 'blog/cover.jpg');
    assert.equal(await verifyCdnSignature([secret], 'blog', 'blog/other.jpg', params, now), 'invalid');
    assert.equal(await verifyCdnSignature([secret], 'shop', 'blog/cover.jpg', params, now), 'invalid');
    // The path is signed as encoded: a different encoding of the same name is another path.
    assert.equal(await verifyCdnSignature([secret], 'blog', 'blog/cover%2Ejpg', params, now), 'invalid');
  });

  it('is invalid when the signature is tampered with, truncated or not hex', async () => {
    const params = await signed({ w: '300' });
    const flipped = params.s.slice(0, -1) + (params.s.endsWith('0') ? '1' : '0');
    const verify = (s: string) => verifyCdnSignature([secret], 'blog', 'blog/cover.jpg', { ...params, s }, now);
    assert.equal(await verify(flipped), 'invalid');
    assert.equal(await verify(params.s.slice(0, 62)), 'invalid');
    assert.equal(await verify(`${params.s}00`), 'invalid');
    assert.equal(await verify('z'.repeat(64)), 'invalid');
    assert.equal(await verify(''), 'invalid');
  });

  it('is invalid when exp is not a whole number of seconds, even if signed', async () => {
    for (const exp of ['1790000000.5', '1e10', '-1', ' 1790000000', '', 'soon']) {
      const params = await signed({ w: '300', exp });
      assert.equal(await verifyCdnSignature([secret], 'blog', 'blog/cover.jpg', params, now), 'invalid', exp);
    }
  });

  it('is invalid with no candidate secret', async () => {
    const params = await signed({ w: '300' });
    assert.equal(await verifyCdnSignature([], 'blog', 'blog/cover.jpg', params, now), 'invalid');
    assert.equal(await verifyCdnSignature([''], 'blog', 'blog/cover.jpg', params, now), 'invalid');
  });

  it('verifies an encoded unicode path and values', async () => {
    const path = encodeImagePath("été/l'île (1)*.jpg");
    const params = await signed({ t: 'thumb', bg: 'ffffff', x: 'a b ☕' }, path);
    assert.equal(await verifyCdnSignature([secret], 'blog', path, params, now), 'valid');
  });
});
