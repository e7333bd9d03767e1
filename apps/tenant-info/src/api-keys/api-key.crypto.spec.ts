import {
  API_KEY_PREFIX,
  generateApiKey,
  hashApiKey,
  KEY_PREFIX_LENGTH,
  keyPrefix,
} from './api-key.crypto';

describe('api key crypto', () => {
  it('generates crm_ + 32 random bytes in base64url', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^crm_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(API_KEY_PREFIX.length), 'base64url')).toHaveLength(32);
  });

  it('never generates the same key twice', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
  });

  it('generated keys pass the contract rule for a given key', () => {
    expect(generateApiKey()).toMatch(/^[A-Za-z0-9_-]{24,200}$/);
  });

  it('hashes with SHA-256 in lower-case hex (NIST test vector)', () => {
    expect(hashApiKey('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hashApiKey(generateApiKey())).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps a short prefix that names the key kind but not the secret', () => {
    const key = generateApiKey();
    expect(keyPrefix(key)).toBe(key.slice(0, KEY_PREFIX_LENGTH));
    expect(keyPrefix(key).startsWith(API_KEY_PREFIX)).toBe(true);
    expect(KEY_PREFIX_LENGTH).toBeLessThanOrEqual(16); // column width
  });
});
