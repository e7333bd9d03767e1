import { createPublicKey, randomUUID, verify } from 'node:crypto';
import { book, BookedEvent, ticketedEvent } from '../event-tickets/test/event-ticket-fixtures';
import { TicketTestKit } from '../ticket-types/test/ticket-test-kit';

// ET14, rotating an event's signing key, against the real service, PostgreSQL and (its own)
// NATS: new codes carry the new key, codes of the old key keep admitting (ET9, and offline with
// ET13's `keys`) until the event has ended, then ET9 refuses them. The clock is moved through
// data: the event's copy gets an end in the past (a newer events.events.changed snapshot).
// Concurrent rotations leave one current key; codes handed out while keys rotate all verify.

jest.setTimeout(180_000);

let t: TicketTestKit;
beforeAll(async () => {
  t = await TicketTestKit.start('bookings_invitations_it_key_rotation', {
    SALE_SWEEP_INTERVAL_MS: '0',
  });
}, 120_000);
afterAll(async () => t?.close());

const people = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ firstname: `P${i}`, lastname: 'Visitor' }));

const keyIdOf = (code: string) => code.split('.')[1];

async function codeOf(ticketId: string): Promise<string> {
  const res = await t.call('GET', `/event-tickets/${ticketId}`);
  expect(res.status).toBe(200);
  expect(res.body.data.code).toEqual(expect.any(String));
  return res.body.data.code;
}

const rotate = (eventId: string, tenant = t.A) =>
  t.call('POST', '/event-tickets/signing-keys/rotate', { eventId }, tenant);

const verification = async (eventId: string) => {
  const res = await t.call('GET', `/event-tickets/verification?eventId=${eventId}`);
  expect(res.status).toBe(200);
  return res.body.data;
};

interface PublishedKey {
  keyId: string;
  current: boolean;
  publicKey: string;
  publicKeyPem: string;
  publicKeyJwk: { kid: string; x: string };
  retiredAt: string | null;
  validUntil: string | null;
}

/** What an offline scanner does with ET13: a listed key, its signature, its validUntil. */
function verifiesOffline(keys: PublishedKey[], code: string, now = new Date()): boolean {
  const [v, kid, payload, sig] = code.split('.');
  const key = keys.find((k) => k.keyId === kid);
  if (!key) return false;
  if (key.validUntil && new Date(key.validUntil) <= now) return false;
  return verify(
    null,
    Buffer.from(`${v}.${kid}.${payload}`),
    createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.publicKey }, format: 'jwk' }),
    Buffer.from(sig!, 'base64url'),
  );
}

const checkIn = (code: string) =>
  t.call('POST', '/event-tickets/check-in', { code, nonce: randomUUID() });

const keyRows = (eventId: string) =>
  t.sql<{ keyId: string; retiredAt: Date | null }>(
    `SELECT "keyId", "retiredAt" FROM "EventSigningKey" WHERE "eventId" = $1::uuid`,
    [eventId],
  );

describe('ET14 signing key rotation', () => {
  let ev: BookedEvent;
  let ticketIds: string[];
  let oldKeyId: string;
  let oldCodes: string[];
  let newKeyId: string;

  it('rotates: new codes carry the new key, the old code still checks in, ET13 publishes both', async () => {
    ev = await ticketedEvent(t, t.A);
    ({ ticketIds } = await book(t, t.A, ev, people(4)));
    oldCodes = await Promise.all(ticketIds.map(codeOf));
    oldKeyId = keyIdOf(oldCodes[0]!);
    const before = await verification(ev.eventId);
    expect(before.keyId).toBe(oldKeyId);
    expect(before.keys).toHaveLength(1);

    const res = await rotate(ev.eventId);
    expect(res.status).toBe(200);
    const { current, retired } = res.body.data;
    newKeyId = current.keyId;
    expect(newKeyId).not.toBe(oldKeyId);
    expect(current).toMatchObject({ current: true, retiredAt: null, validUntil: null });
    // the fixture's event ends 2030-06-01T17:00Z: the old key's codes admit until then
    expect(retired).toMatchObject({
      keyId: oldKeyId,
      current: false,
      retiredAt: expect.any(String),
      validUntil: '2030-06-01T17:00:00.000Z',
    });
    expect(await keyRows(ev.eventId)).toHaveLength(2);

    // every code read from now on is signed with the new key, also of tickets issued before
    const fresh = await codeOf(ticketIds[1]!);
    expect(keyIdOf(fresh)).toBe(newKeyId);
    const { ticketIds: later } = await book(t, t.A, ev, people(1));
    expect(keyIdOf(await codeOf(later[0]!))).toBe(newKeyId);

    // ET13: the current key in the key fields, both in `keys`; both codes verify offline
    const pub = await verification(ev.eventId);
    expect(pub.keyId).toBe(newKeyId);
    expect(pub.publicKeyJwk.kid).toBe(newKeyId);
    expect(pub.keys.map((k: PublishedKey) => [k.keyId, k.current])).toEqual([
      [newKeyId, true],
      [oldKeyId, false],
    ]);
    expect(pub.keys[0].publicKey).toBe(pub.publicKey);
    expect(pub.keys[1].validUntil).toBe('2030-06-01T17:00:00.000Z');
    expect(verifiesOffline(pub.keys, oldCodes[0]!)).toBe(true);
    expect(verifiesOffline(pub.keys, fresh)).toBe(true);

    // online: the old code of ticket 0 and the new code of ticket 1 both check in
    expect((await checkIn(oldCodes[0]!)).status).toBe(200);
    expect((await checkIn(fresh)).status).toBe(200);
  });

  it('refuses the old key’s codes once the event has ended; the current key’s still admit', async () => {
    // the event's copy now ends in the past (a newer snapshot of the event)
    await t.snapshot(t.A, ev.eventId, {
      sequence: 2,
      startsAt: '2020-06-01T08:00:00.000Z',
      endsAt: '2020-06-01T17:00:00.000Z',
    });
    const old = await checkIn(oldCodes[2]!);
    expect(old.status).toBe(400);
    expect(old.body.errors).toEqual([
      expect.objectContaining({ field: 'code', rule: 'retiredKey' }),
    ]);
    expect(await t.count('CheckIn', `"ticketId" = $1::uuid`, [ticketIds[2]])).toBe(0);
    const pub = await verification(ev.eventId);
    expect(pub.keys[1]).toMatchObject({ keyId: oldKeyId, validUntil: '2020-06-01T17:00:00.000Z' });
    expect(verifiesOffline(pub.keys, oldCodes[3]!)).toBe(false);
    // the same ticket's current code (new key) admits: the key, not the ticket, is refused
    const current = await codeOf(ticketIds[2]!);
    expect(keyIdOf(current)).toBe(newKeyId);
    expect(verifiesOffline(pub.keys, current)).toBe(true);
    expect((await checkIn(current)).status).toBe(200);
  });

  it('over GraphQL too; another tenant’s or an unknown event is a 404 and keeps its key', async () => {
    const other = await ticketedEvent(t, t.A);
    const keysBefore = await keyRows(other.eventId);
    const foreign = await rotate(other.eventId, t.B);
    expect(foreign.status).toBe(404);
    expect((await rotate(randomUUID())).status).toBe(404);
    const gqlForeign = await t.gql(
      `mutation($e: ID!) { rotateTicketSigningKey(input: { eventId: $e }) { current { keyId } } }`,
      { e: other.eventId },
      t.B,
    );
    expect(gqlForeign.body.errors?.[0]?.extensions?.statusCode).toBe(404);
    expect(await keyRows(other.eventId)).toEqual(keysBefore);

    const gql = await t.gql(
      `mutation($e: ID!) { rotateTicketSigningKey(input: { eventId: $e }) {
         eventId current { keyId current validUntil } retired { keyId current validUntil } } }`,
      { e: other.eventId },
    );
    expect(gql.body.errors).toBeUndefined();
    const r = gql.body.data.rotateTicketSigningKey;
    expect(r.retired).toMatchObject({ keyId: keysBefore[0]!.keyId, current: false });
    expect(r.current).toMatchObject({ current: true, validUntil: null });
    const q = await t.gql(
      `query($e: ID!) { ticketVerification(eventId: $e) { keyId keys { keyId current } } }`,
      { e: other.eventId },
    );
    expect(q.body.data.ticketVerification).toEqual({
      keyId: r.current.keyId,
      keys: [
        { keyId: r.current.keyId, current: true },
        { keyId: keysBefore[0]!.keyId, current: false },
      ],
    });
  });

  it('concurrent rotations of one event leave exactly one current key, each retiring the one before', async () => {
    const e = await ticketedEvent(t, t.A);
    const [first] = await keyRows(e.eventId);
    const n = 8;
    const answers = await Promise.all(Array.from({ length: n }, () => rotate(e.eventId)));
    expect(answers.map((a) => a.status)).toEqual(Array(n).fill(200));
    const rows = await keyRows(e.eventId);
    expect(rows).toHaveLength(n + 1);
    expect(rows.filter((r) => r.retiredAt === null)).toHaveLength(1);
    // a chain: every key but the last written was retired by exactly one rotation
    const made = answers.map((a) => a.body.data.current.keyId as string);
    const retired = answers.map((a) => a.body.data.retired.keyId as string);
    expect(new Set(made).size).toBe(n);
    expect(new Set(retired).size).toBe(n);
    expect(new Set([first!.keyId, ...made])).toEqual(new Set([...retired, ...made]));
    const current = rows.find((r) => r.retiredAt === null)!.keyId;
    expect(made).toContain(current);
    expect(retired).not.toContain(current);
    expect((await verification(e.eventId)).keyId).toBe(current);
  });

  it('codes handed out while the key rotates all verify, online and offline', async () => {
    const e = await ticketedEvent(t, t.A);
    const { ticketIds: ids } = await book(t, t.A, e, people(24));
    const codes: string[] = [];
    // six waves, each a rotation racing reads of four codes (how a code is issued: ET2, mails,
    // PDF, export) and a booking written meanwhile: waves two apart see different keys
    for (let w = 0; w < 6; w++) {
      const wave = ids.slice(w * 4, w * 4 + 4);
      const [rotated, ...read] = await Promise.all([
        rotate(e.eventId),
        ...wave.map(codeOf),
        book(t, t.A, e, people(1)).then((b) => codeOf(b.ticketIds[0]!)),
      ]);
      expect((rotated as { status: number }).status).toBe(200);
      codes.push(...(read as string[]));
    }
    expect(codes).toHaveLength(30);
    expect(new Set(codes.map(keyIdOf)).size).toBeGreaterThanOrEqual(3);
    expect((await keyRows(e.eventId)).filter((r) => r.retiredAt === null)).toHaveLength(1);
    const pub = await verification(e.eventId);
    expect(pub.keys).toHaveLength(7);
    for (const code of codes) expect(verifiesOffline(pub.keys, code)).toBe(true);
    const scans = await Promise.all(codes.map(checkIn));
    expect(scans.map((s) => s.status)).toEqual(Array(codes.length).fill(200));
  });
});
