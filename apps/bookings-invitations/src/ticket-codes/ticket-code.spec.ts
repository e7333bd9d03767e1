import { generateKeyPairSync, randomUUID, verify } from 'node:crypto';
import {
  encodePayload,
  eventEndOf,
  parseTicketCode,
  publicKeyFromRaw,
  signTicketCode,
  validUntilOf,
  verifyTicketCode,
} from './ticket-code';

const keys = generateKeyPairSync('ed25519');
const raw = keys.publicKey.export({ format: 'jwk' }).x!;
const claims = { ticketId: randomUUID(), eventId: randomUUID(), validUntil: 1_900_000_000 };

describe('ticket codes', () => {
  it('round-trips the claims and verifies with only the raw public key', () => {
    const code = signTicketCode(keys.privateKey, 'k1', claims);
    expect(code).toMatch(/^v1\.k1\.[A-Za-z0-9_-]{48}\.[A-Za-z0-9_-]{86}$/);
    const parsed = parseTicketCode(code)!;
    expect(parsed).toMatchObject({ keyId: 'k1', ...claims });
    expect(verifyTicketCode(publicKeyFromRaw(raw), parsed)).toBe(true);
    // what a vendor does by hand: split, verify the signature over the first three parts
    const [v, k, p, s] = code.split('.');
    const ok = verify(
      null,
      Buffer.from(`${v}.${k}.${p}`),
      publicKeyFromRaw(raw),
      Buffer.from(s, 'base64url'),
    );
    expect(ok).toBe(true);
  });

  it('is deterministic (Ed25519): the same claims give the same code', () => {
    expect(signTicketCode(keys.privateKey, 'k1', claims)).toBe(
      signTicketCode(keys.privateKey, 'k1', claims),
    );
  });

  it('refuses a tampered payload, signature, key id or version', () => {
    const code = signTicketCode(keys.privateKey, 'k1', claims);
    const [v, k, p, s] = code.split('.');
    const otherPayload = encodePayload({ ...claims, ticketId: randomUUID() });
    const flipped = (x: string) => {
      const b = Buffer.from(x, 'base64url');
      b[3] ^= 1;
      return b.toString('base64url');
    };
    const pub = publicKeyFromRaw(raw);
    for (const bad of [
      `${v}.${k}.${otherPayload}.${s}`,
      `${v}.${k}.${flipped(p)}.${s}`,
      `${v}.${k}.${p}.${flipped(s)}`,
      `${v}.k2.${p}.${s}`,
    ]) {
      const parsed = parseTicketCode(bad);
      expect(parsed === null || !verifyTicketCode(pub, parsed)).toBe(true);
    }
    expect(parseTicketCode(`v2.${k}.${p}.${s}`)).toBeNull();
    const other = generateKeyPairSync('ed25519').publicKey;
    expect(verifyTicketCode(other, parseTicketCode(code)!)).toBe(false);
  });

  it('parses nothing but the exact format', () => {
    const code = signTicketCode(keys.privateKey, 'k1', claims);
    for (const bad of [
      null,
      42,
      '',
      'v1',
      'v1...',
      `${code}.x`,
      `${code}=`,
      code.replace(/\.[^.]+$/, '.AAAA'),
      'v1.k1.' + 'A'.repeat(48) + '.' + 'A'.repeat(86) + '!',
      'x'.repeat(10_000),
      { code },
    ]) {
      expect(parseTicketCode(bad)).toBeNull();
    }
  });

  it('is valid until a day after the event ends, else after it starts, else without end', () => {
    const end = new Date('2030-06-01T17:00:00Z');
    expect(validUntilOf({ startsAt: null, endsAt: end })).toBe(end.getTime() / 1000 + 86400);
    expect(validUntilOf({ startsAt: end, endsAt: null })).toBe(end.getTime() / 1000 + 86400);
    expect(validUntilOf({ startsAt: null, endsAt: null })).toBe(0);
    expect(validUntilOf(null)).toBe(0);
  });

  it('ends an event (retired keys refused) at its end, else a day after its start, else never', () => {
    const start = new Date('2030-06-01T08:00:00.000Z');
    const end = new Date('2030-06-01T17:00:00.000Z');
    expect(eventEndOf({ startsAt: start, endsAt: end })).toEqual(end);
    expect(eventEndOf({ startsAt: start, endsAt: null })).toEqual(
      new Date('2030-06-02T08:00:00.000Z'),
    );
    expect(eventEndOf({ startsAt: null, endsAt: null })).toBeNull();
    expect(eventEndOf(null)).toBeNull();
  });
});
