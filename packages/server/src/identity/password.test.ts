import assert from 'node:assert/strict';
import { randomBytes, scryptSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { hashPassword, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('verifies the password it hashed', async () => {
    const stored = await hashPassword('correct horse battery');
    assert.equal(await verifyPassword('correct horse battery', stored), true);
  });

  it('refuses another password', async () => {
    const stored = await hashPassword('correct horse battery');
    assert.equal(await verifyPassword('correct horse batterY', stored), false);
    assert.equal(await verifyPassword('', stored), false);
  });

  it('salts each hash, so one password hashed twice gives two different hashes that both verify', async () => {
    const [first, second] = await Promise.all([hashPassword('same password'), hashPassword('same password')]);
    assert.notEqual(first, second);
    assert.equal(await verifyPassword('same password', first), true);
    assert.equal(await verifyPassword('same password', second), true);
  });

  it('never stores the password itself, and names its scheme and cost', async () => {
    const stored = await hashPassword('plain-text-secret');
    assert.equal(stored.includes('plain-text-secret'), false);
    assert.match(stored, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
  });

  it('treats the composed and decomposed forms of an accented password as the same', async () => {
    const stored = await hashPassword('caf\u00e9-password');
    assert.equal(await verifyPassword('cafe\u0301-password', stored), true);
  });

  it('verifies a hash made at another cost, reading the cost from the hash', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('made at N=2^14', salt, 32, { N: 16384, r: 8, p: 1 });
    const stored = ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    assert.equal(await verifyPassword('made at N=2^14', stored), true);
    assert.equal(await verifyPassword('made at N=2^15', stored), false);
  });

  for (const [label, stored] of [
    ['an empty string', ''],
    ['another scheme', 'bcrypt$2b$10$abcdefghijklmnopqrstuv'],
    ['too few fields', 'scrypt$32768$8$1$c2FsdA'],
    ['a cost that is not a power of two', 'scrypt$30000$8$1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5'],
    ['a cost beyond the memory cap', 'scrypt$1048576$32$1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5'],
    ['a key shorter than 16 bytes', 'scrypt$32768$8$1$c2FsdHNhbHRzYWx0$a2V5'],
    ['an empty salt', 'scrypt$32768$8$1$$a2V5a2V5a2V5a2V5a2V5a2V5'],
  ] as const) {
    it(`answers false, without throwing, for ${label}`, async () => {
      assert.equal(await verifyPassword('anything', stored), false);
    });
  }
});
