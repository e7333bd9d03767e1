import { randomBytes } from 'node:crypto';
import { SecretBox, SecretOpenError } from './secret-box';

const key = () => randomBytes(32).toString('base64');
const K1 = `k1:${key()}`;
const K2 = `k2:${key()}`;
const WHSEC = `whsec_${randomBytes(32).toString('base64')}`;

describe('SecretBox', () => {
  it('seals as v1:<keyId>:<iv>:<ciphertext>:<tag> in base64url and opens it again', () => {
    const box = SecretBox.fromText(K1);
    const sealed = box.seal(WHSEC);
    expect(sealed).toMatch(/^v1:k1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]{22}$/);
    expect(sealed).not.toContain(WHSEC);
    expect(sealed).not.toContain(WHSEC.slice(6, 20));
    expect(box.open(sealed)).toBe(WHSEC);
    // a fresh IV each time: the same secret never seals to the same text
    expect(box.seal(WHSEC)).not.toBe(sealed);
    // a PEM key, several lines and non-ASCII text survive too
    const pem = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI\n-----END PRIVATE KEY-----\n';
    expect(box.open(box.seal(pem))).toBe(pem);
    expect(box.open(box.seal('Grüße ✓'))).toBe('Grüße ✓');
  });

  it('keeps a webhook secret sealed within its 200-character column with the longest key id', () => {
    const box = SecretBox.fromText(`${'x'.repeat(32)}:${key()}`);
    expect(box.seal(WHSEC).length).toBeLessThanOrEqual(200);
  });

  it('detects tampering with the ciphertext, the tag, the IV and the key id', () => {
    const box = SecretBox.fromText(`${K1},k9:${K1.slice(3)}`);
    const sealed = box.seal(WHSEC);
    const parts = sealed.split(':');
    const flip = (i: number) => {
      const bytes = Buffer.from(parts[i]!, 'base64url');
      bytes[0] ^= 1;
      return parts.map((p, j) => (j === i ? bytes.toString('base64url') : p)).join(':');
    };
    for (const i of [2, 3, 4]) {
      expect(() => box.open(flip(i))).toThrow(SecretOpenError);
      expect(() => box.open(flip(i))).toThrow('fails authentication');
    }
    // the same key material under another id: the id is authenticated with the ciphertext
    const renamed = ['v1', 'k9', ...parts.slice(2)].join(':');
    expect(() => box.open(renamed)).toThrow('fails authentication');
    expect(() => box.open(sealed.slice(0, -4))).toThrow(SecretOpenError);
    expect(() => box.open('v1:k1:abc')).toThrow('malformed sealed value');
  });

  it('refuses a value sealed with a key id SECRETS_KEY does not hold, naming the id', () => {
    const sealed = SecretBox.fromText(K2).seal(WHSEC);
    const box = SecretBox.fromText(K1);
    expect(() => box.open(sealed)).toThrow(SecretOpenError);
    expect(() => box.open(sealed)).toThrow('value sealed with key id "k2"');
    try {
      box.open(sealed);
    } catch (err) {
      expect((err as SecretOpenError).keyId).toBe('k2');
      // never the clear value
      expect((err as Error).message).not.toContain(WHSEC);
    }
  });

  it('rotates with two keys: the first seals, both open, reseal moves old values to the first', () => {
    const old = SecretBox.fromText(K1);
    const sealedOld = old.seal(WHSEC);
    const rotated = SecretBox.fromText(`${K2},${K1}`);
    expect(rotated.currentKeyId).toBe('k2');
    expect(rotated.keyIds).toEqual(['k2', 'k1']);
    expect(rotated.open(sealedOld)).toBe(WHSEC);
    expect(rotated.needsReseal(sealedOld)).toBe(true);
    const resealed = rotated.reseal(sealedOld);
    expect(SecretBox.keyIdOf(resealed)).toBe('k2');
    expect(rotated.needsReseal(resealed)).toBe(false);
    expect(rotated.reseal(resealed)).toBe(resealed); // idempotent
    // the new key alone opens what was resealed, not what was not
    const onlyNew = SecretBox.fromText(K2);
    expect(onlyNew.open(resealed)).toBe(WHSEC);
    expect(() => onlyNew.open(sealedOld)).toThrow('key id "k1"');
  });

  it('reads a plain legacy value as it is and reseals it', () => {
    const box = SecretBox.fromText(K1);
    expect(SecretBox.isSealed(WHSEC)).toBe(false);
    expect(SecretBox.keyIdOf(WHSEC)).toBeNull();
    expect(box.open(WHSEC)).toBe(WHSEC);
    expect(box.needsReseal(WHSEC)).toBe(true);
    const sealed = box.reseal(WHSEC);
    expect(SecretBox.keyIdOf(sealed)).toBe('k1');
    expect(box.open(sealed)).toBe(WHSEC);
  });
});
