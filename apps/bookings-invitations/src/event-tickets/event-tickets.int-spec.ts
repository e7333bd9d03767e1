import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { createPublicKey, randomUUID, verify } from 'node:crypto';
import pg from 'pg';
import { pdfQrCodes, pdfText } from '@crm/testing';
import { Subjects } from '@crm/messaging';
import { asTenant } from '@crm/request-context';
import { MailAttachments } from '../mails/mail-attachments';
import { SigningKeys } from '../ticket-codes/signing-keys';
import { TicketTestKit } from '../ticket-types/test/ticket-test-kit';
import { book, bookMany, ticketedEvent } from './test/event-ticket-fixtures';

// ET1-ET13 against the real service, database and (its own) NATS. Bookings and tickets are
// written by the fixture as BK1 writes them.

jest.setTimeout(120000);

let t: TicketTestKit;
beforeAll(async () => {
  // no sale sweeps (holds, payment deadlines): their statements would count in the N+1 test
  t = await TicketTestKit.start('bookings_invitations_it_event_tickets', {
    SALE_SWEEP_INTERVAL_MS: '0',
  });
}, 60000);
afterAll(async () => t?.close());

const people = (n: number, prefix = 'P') =>
  Array.from({ length: n }, (_, i) => ({
    firstname: `${prefix}${i}`,
    lastname: 'Visitor',
    email: `${prefix.toLowerCase()}${i}@example.com`,
  }));

async function codeOf(ticketId: string, tenant = t.A): Promise<string> {
  const res = await t.call('GET', `/event-tickets/${ticketId}`, undefined, tenant);
  expect(res.status).toBe(200);
  return res.body.data.code;
}

describe('ET2, ET13 signed codes', () => {
  it('reads a ticket with a code that verifies offline with only the published key', async () => {
    const ev = await ticketedEvent(t, t.A);
    const { ticketIds, bookingId } = await book(t, t.A, ev, people(1));
    const res = await t.call('GET', `/event-tickets/${ticketIds[0]}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: ticketIds[0],
      eventId: ev.eventId,
      bookingId,
      ticketTypeId: ev.typeId,
      status: 'valid',
      participantFirstname: 'P0',
      price: { gross: '119.00', net: '100.00', tax: '19.00', currency: 'EUR' },
      checkIn: null,
      revokedAt: null,
    });
    const code: string = res.body.data.code;
    expect(code.length).toBeLessThan(200);

    const pub = await t.call('GET', `/event-tickets/verification?eventId=${ev.eventId}`);
    expect(pub.status).toBe(200);
    const { publicKey, publicKeyPem, keyId, algorithm, publicKeyJwk } = pub.body.data;
    expect(algorithm).toBe('Ed25519');
    expect(publicKeyJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: publicKey, kid: keyId });
    // offline: nothing but node:crypto and the published key
    const [v, k, payload, sig] = code.split('.');
    expect([v, k]).toEqual(['v1', keyId]);
    const signed = Buffer.from(`${v}.${k}.${payload}`);
    for (const key of [
      createPublicKey(publicKeyPem),
      createPublicKey({ key: publicKeyJwk, format: 'jwk' }),
    ]) {
      expect(verify(null, signed, key, Buffer.from(sig, 'base64url'))).toBe(true);
      const bytes = Buffer.from(payload, 'base64url');
      expect(bytes.subarray(0, 16).toString('hex')).toBe(ticketIds[0].replace(/-/g, ''));
      expect(bytes.subarray(16, 32).toString('hex')).toBe(ev.eventId.replace(/-/g, ''));
      // a day after the snapshot's end (2030-06-01T17:00Z)
      expect(bytes.readUInt32BE(32)).toBe(Date.parse('2030-06-02T17:00:00Z') / 1000);
      const tampered = Buffer.from(bytes);
      tampered[3] ^= 1;
      const bad = Buffer.from(`${v}.${k}.${tampered.toString('base64url')}`);
      expect(verify(null, bad, key, Buffer.from(sig, 'base64url'))).toBe(false);
    }
    // the same code every read (deterministic signature, one key per event)
    expect(await codeOf(ticketIds[0])).toBe(code);
    // another tenant sees neither the ticket nor the event's key
    expect((await t.call('GET', `/event-tickets/${ticketIds[0]}`, undefined, t.B)).status).toBe(
      404,
    );
    const foreign = await t.call(
      'GET',
      `/event-tickets/verification?eventId=${ev.eventId}`,
      undefined,
      t.B,
    );
    expect(foreign.status).toBe(404);
  });

  it('creates one key per event with its first ticket type, also when many types are created at once', async () => {
    const eventId = randomUUID();
    await t.snapshot(t.A, eventId);
    const keys = () =>
      t.count('EventSigningKey', `"tenantId" = $1 AND "eventId" = $2::uuid`, [t.A, eventId]);
    expect(await keys()).toBe(0);
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.call('POST', '/tickets', { eventId, name: `T${i}`, price: '10', currency: 'EUR' }),
      ),
    );
    expect(new Set(created.map((a) => a.status))).toEqual(new Set([201]));
    expect(await keys()).toBe(1);
    // a refused type writes no key either (validation before the transaction)
    const other = randomUUID();
    await t.snapshot(t.A, other);
    const refused = await t.call('POST', '/tickets', {
      eventId: other,
      name: 'X',
      price: 'abc',
      currency: 'EUR',
    });
    expect(refused.status).toBe(400);
    expect(await t.count('EventSigningKey', `"eventId" = $1::uuid`, [other])).toBe(0);
    // the code of every read is signed with that key
    const { ticketIds } = await book(
      t,
      t.A,
      { eventId, typeId: created[0].body.data.id },
      people(1),
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.call('GET', `/event-tickets/${ticketIds[0]}`)),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.body.data.code)).size).toBe(1);
    expect(answers[0].body.data.code).toEqual(expect.any(String));
    expect(await keys()).toBe(1);
  });

  it('never writes a key on a read: without one, codes and ET13 key fields are null; startup backfills it', async () => {
    const ev = await ticketedEvent(t, t.A);
    const { ticketIds } = await book(t, t.A, ev, people(1));
    // an event whose types predate keys written with the first type (never read, so not cached)
    await t.sql(`DELETE FROM "EventSigningKey" WHERE "eventId" = $1::uuid`, [ev.eventId]);
    const res = await t.call('GET', `/event-tickets/verification?eventId=${ev.eventId}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      algorithm: 'Ed25519',
      keyId: null,
      publicKey: null,
      publicKeyJwk: null,
      revoked: [],
    });
    const read = await t.call('GET', `/event-tickets/${ticketIds[0]}`);
    expect(read.status).toBe(200);
    expect(read.body.data.code).toBeNull();
    for (const path of [
      `/event-tickets/export?eventId=${ev.eventId}`,
      `/event-tickets/summary?eventId=${ev.eventId}`,
      `/event-tickets?eventId=${ev.eventId}`,
      `/event-tickets/${ticketIds[0]}/pdf`,
    ]) {
      expect((await t.call('GET', path)).status).toBe(200);
    }
    expect(await t.count('EventSigningKey', `"eventId" = $1::uuid`, [ev.eventId])).toBe(0);
    // the startup backfill gives such events their key; ET13 then publishes the one codes use
    await t.svc.app.get(SigningKeys).onApplicationBootstrap();
    expect(await t.count('EventSigningKey', `"eventId" = $1::uuid`, [ev.eventId])).toBe(1);
    const after = await t.call('GET', `/event-tickets/verification?eventId=${ev.eventId}`);
    expect(after.body.data.keyId).toEqual(expect.any(String));
    const code = await codeOf(ticketIds[0]);
    expect(code.split('.')[1]).toBe(after.body.data.keyId);
  });
});

/** An instant as a wall clock in Europe/Berlin (the kit's events' zone) in a locale. */
const wallClock = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Berlin',
  }).format(new Date(iso));

describe('ET9 check-in', () => {
  it('checks in once: history and outbox event; second scan 409 with when and where; retried nonce 200', async () => {
    const personId = randomUUID();
    const ev = await ticketedEvent(t, t.A);
    const { ticketIds, bookingId } = await book(t, t.A, ev, people(1), { personId });
    const code = await codeOf(ticketIds[0]);
    const first = await t.call('POST', '/event-tickets/check-in', {
      code,
      nonce: 'scan-1',
      location: 'Gate 1',
      eventId: ev.eventId,
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      ticketId: ticketIds[0],
      bookingId,
      participantFirstname: 'P0',
      location: 'Gate 1',
      retried: false,
    });
    const retry = await t.call('POST', '/event-tickets/check-in', { code, nonce: 'scan-1' });
    expect(retry.status).toBe(200);
    expect(retry.body.data).toMatchObject({
      retried: true,
      checkedInAt: first.body.data.checkedInAt,
    });

    const second = await t.call(
      'POST',
      '/event-tickets/check-in',
      { code, nonce: 'scan-2', location: 'Gate 2' },
      t.A,
      { 'Accept-Language': 'de' },
    );
    expect(second.status).toBe(409);
    // an error like every other (data null); the first check-in's when and where are in the
    // translated message and in the field error
    expect(second.body.data).toBeNull();
    // the time as the gate reads it: the event's zone (Europe/Berlin), German, never raw UTC
    const deTime = wallClock(first.body.data.checkedInAt, 'de-DE');
    expect(deTime).toMatch(/^\d\d\.\d\d\.\d{4}, \d\d:\d\d$/);
    expect(second.body.message).toBe(
      `Ticket ${ticketIds[0]} wurde bereits am ${deTime} eingecheckt (Ort: Gate 1)`,
    );
    expect(second.body.message).not.toContain(first.body.data.checkedInAt);
    expect(second.body.errors).toHaveLength(1);
    expect(second.body.errors[0]).toEqual({
      field: 'code',
      rule: 'alreadyCheckedIn',
      message: `code: Das Ticket wurde bereits am ${deTime} eingecheckt (Ort: Gate 1)`,
    });
    // no nonce is never a retry; in English the same moment reads the English way
    const en = await t.call('POST', '/event-tickets/check-in', { code });
    expect(en.status).toBe(409);
    expect(en.body.message).toBe(
      `Ticket ${ticketIds[0]} was already checked in on ${wallClock(first.body.data.checkedInAt, 'en-US')} (location: Gate 1)`,
    );

    const history = await t.sql(
      `SELECT action, data FROM "BookingHistory" WHERE "bookingId" = $1::uuid`,
      [bookingId],
    );
    expect(history).toEqual([
      { action: 'checked-in', data: { ticketId: ticketIds[0], location: 'Gate 1' } },
    ]);
    const outbox = await t.sql<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM "OutboxEvent" WHERE subject = $1 AND payload->>'ticketId' = $2`,
      [Subjects.bookingsInvitations.ticketCheckedIn, ticketIds[0]],
    );
    expect(outbox.map((o) => o.payload)).toEqual([
      expect.objectContaining({
        tenantId: t.A,
        eventId: ev.eventId,
        eventTitle: 'Summit',
        personId,
        bookingId,
        location: 'Gate 1',
        at: first.body.data.checkedInAt,
      }),
    ]);
    // the relay was notified and published it
    for (let i = 0; ; i++) {
      const published = await t.count(
        'OutboxEvent',
        `subject = $1 AND payload->>'ticketId' = $2 AND "publishedAt" IS NOT NULL`,
        [Subjects.bookingsInvitations.ticketCheckedIn, ticketIds[0]],
      );
      if (published === 1) break;
      if (i > 100) throw new Error('the check-in event was not published');
      await new Promise((r) => setTimeout(r, 100));
    }
    const read = await t.call('GET', `/event-tickets/${ticketIds[0]}`);
    expect(read.body.data.checkIn).toMatchObject({
      location: 'Gate 1',
      checkedInAt: first.body.data.checkedInAt,
    });
  });

  it('lets exactly one of 100 concurrent check-ins of one code through', async () => {
    const ev = await ticketedEvent(t, t.A);
    const { ticketIds } = await book(t, t.A, ev, people(1));
    const code = await codeOf(ticketIds[0]);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.call('POST', '/event-tickets/check-in', { code, nonce: `n${i}`, location: `L${i}` }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(99);
    const winner = answers.find((a) => a.status === 200)!.body.data;
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.body.data).toBeNull();
      expect(a.body.message).toContain(wallClock(winner.checkedInAt, 'en-US'));
      expect(a.body.message).toContain(`(location: ${winner.location})`);
    }
    expect(await t.count('CheckIn', `"ticketId" = $1::uuid`, [ticketIds[0]])).toBe(1);
    expect(
      await t.count('OutboxEvent', `subject = $1 AND payload->>'ticketId' = $2`, [
        Subjects.bookingsInvitations.ticketCheckedIn,
        ticketIds[0],
      ]),
    ).toBe(1);
  });

  it('refuses tampered codes (400), other tenants’ codes, other events (409) and cancelled tickets (409)', async () => {
    const ev = await ticketedEvent(t, t.A);
    const other = await ticketedEvent(t, t.A);
    const { ticketIds } = await book(t, t.A, ev, people(2));
    const code = await codeOf(ticketIds[0]);
    const [v, k, p, s] = code.split('.');
    const bytes = Buffer.from(p, 'base64url');
    bytes[0] ^= 1;
    const sigBytes = Buffer.from(s, 'base64url');
    sigBytes[0] ^= 1;
    for (const bad of [
      `${v}.${k}.${bytes.toString('base64url')}.${s}`,
      `${v}.${k}.${p}.${sigBytes.toString('base64url')}`,
      `${v}.AAAA.${p}.${s}`,
      'not a code',
    ]) {
      const res = await t.call('POST', '/event-tickets/check-in', { code: bad }, t.A, {
        'Accept-Language': 'de',
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ field: 'code', rule: 'invalidCode' }),
      ]);
      expect(res.body.errors[0].message).toContain('Ticketcode');
    }
    // tenant B cannot check in A's ticket: its code is no code of B's
    const b = await t.call('POST', '/event-tickets/check-in', { code }, t.B);
    expect(b.status).toBe(400);
    // a scanner of another event
    const wrong = await t.call('POST', '/event-tickets/check-in', { code, eventId: other.eventId });
    expect(wrong.status).toBe(409);
    expect(wrong.body.message).toContain(other.eventId);
    // cancelled
    const code2 = await codeOf(ticketIds[1]);
    await t.call('PUT', '/event-tickets/status', { ids: [ticketIds[1]], status: 'cancelled' });
    const cancelled = await t.call('POST', '/event-tickets/check-in', { code: code2 });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.message).toContain('cancelled');
    expect(await t.count('CheckIn', `"eventId" = $1::uuid`, [ev.eventId])).toBe(0);
  });

  it('answers 404 for a genuine code whose booking was deleted (BK5)', async () => {
    const ev = await ticketedEvent(t, t.A);
    const { ticketIds, bookingId } = await book(t, t.A, ev, people(1));
    const code = await codeOf(ticketIds[0]);
    expect((await t.call('DELETE', `/bookings/${bookingId}`)).status).toBe(200);
    const res = await t.call('POST', '/event-tickets/check-in', { code });
    expect(res.status).toBe(404);
    expect(res.body.message).toContain(ticketIds[0]);
  });
});

describe('ET5 status', () => {
  it('cancels tickets: seats freed, codes revoked (ET13), an emptied booking cancelled', async () => {
    const ev = await ticketedEvent(t, t.A);
    const one = await book(t, t.A, ev, people(2));
    const two = await book(t, t.A, ev, people(1, 'Q'));
    const soldOf = async () => ({
      type: (
        await t.sql<{ sold: number }>(`SELECT sold FROM "TicketType" WHERE id = $1`, [ev.typeId])
      )[0].sold,
      event: (await t.copy(t.A, ev.eventId))!.sold,
    });
    expect(await soldOf()).toEqual({ type: 3, event: 3 });
    const before = await t.call('GET', `/event-tickets/verification?eventId=${ev.eventId}`);
    expect(before.body.data.revoked).toEqual([]);

    const res = await t.call('PUT', '/event-tickets/status', {
      ids: [one.ticketIds[0], two.ticketIds[0], two.ticketIds[0].toUpperCase()],
      status: 'cancelled',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ changed: 2, cancelledBookingIds: [two.bookingId] });
    expect(await soldOf()).toEqual({ type: 1, event: 1 });
    const bookings = await t.sql<{ id: string; status: string }>(
      `SELECT id::text, status FROM "Booking" WHERE id = ANY($1::uuid[]) ORDER BY id`,
      [[one.bookingId, two.bookingId]],
    );
    expect(Object.fromEntries(bookings.map((b) => [b.id, b.status]))).toEqual({
      [one.bookingId]: 'confirmed',
      [two.bookingId]: 'cancelled',
    });
    const history = await t.sql(
      `SELECT "bookingId"::text, action, data FROM "BookingHistory" WHERE "eventId" = $1::uuid ORDER BY "bookingId"`,
      [ev.eventId],
    );
    expect(history.filter((h) => h.action === 'tickets-status-changed')).toHaveLength(2);
    // the emptied booking is cancelled as BK8 cancels it: by the organiser, without a fee
    expect(history.filter((h) => h.action === 'cancelled')).toEqual([
      expect.objectContaining({
        bookingId: two.bookingId,
        data: expect.objectContaining({ reason: 'organiser', fee: '0.00' }),
      }),
    ]);
    expect(
      await t.count('OutboxEvent', `subject = $1 AND payload->>'bookingId' = $2`, [
        Subjects.bookingsInvitations.bookingCancelled,
        two.bookingId,
      ]),
    ).toBe(1);
    expect(history).toContainEqual({
      bookingId: two.bookingId,
      action: 'tickets-status-changed',
      data: { status: 'cancelled', ticketIds: [two.ticketIds[0]], bookingCancelled: true },
    });
    // twice is once
    const again = await t.call('PUT', '/event-tickets/status', {
      ids: [one.ticketIds[0]],
      status: 'cancelled',
    });
    expect(again.body.data).toEqual({ changed: 0, cancelledBookingIds: [] });
    expect(await soldOf()).toEqual({ type: 1, event: 1 });

    const after = await t.call(
      'GET',
      `/event-tickets/verification?eventId=${ev.eventId}&since=${before.body.data.nextSince}`,
    );
    expect(after.body.data.revoked.map((r: { ticketId: string }) => r.ticketId).sort()).toEqual(
      [one.ticketIds[0], two.ticketIds[0]].sort(),
    );
    const later = await t.call(
      'GET',
      `/event-tickets/verification?eventId=${ev.eventId}&since=${new Date(Date.now() + 3600_000).toISOString()}`,
    );
    expect(later.body.data.revoked).toEqual([]);
    const read = await t.call('GET', `/event-tickets/${one.ticketIds[0]}`);
    expect(read.body.data).toMatchObject({ status: 'cancelled', code: null });
    expect(read.body.data.revokedAt).toEqual(expect.any(String));
  });

  it('is all or nothing: a cancelled ticket never becomes valid (409), unknown ids are 404 by index', async () => {
    const ev = await ticketedEvent(t, t.A);
    const { ticketIds } = await book(t, t.A, ev, people(2));
    await t.call('PUT', '/event-tickets/status', { ids: [ticketIds[0]], status: 'cancelled' });
    const back = await t.call('PUT', '/event-tickets/status', {
      ids: [ticketIds[1], ticketIds[0]],
      status: 'valid',
    });
    expect(back.status).toBe(409);
    expect(back.body.errors).toEqual([
      expect.objectContaining({ field: 'ids[1]', rule: 'cannotRevalidate' }),
    ]);
    expect(back.body.errors[0].message).toContain('book');

    const foreign = await book(t, t.B, await ticketedEvent(t, t.B), people(1));
    const mixed = await t.call('PUT', '/event-tickets/status', {
      ids: [ticketIds[1], foreign.ticketIds[0], randomUUID()],
      status: 'cancelled',
    });
    expect(mixed.status).toBe(404);
    expect(mixed.body.errors.map((e: { field: string }) => e.field)).toEqual(['ids[1]', 'ids[2]']);
    const statuses = await t.sql<{ status: string }>(
      `SELECT status FROM "EventTicket" WHERE id = ANY($1::uuid[]) ORDER BY status`,
      [[ticketIds[1], foreign.ticketIds[0]]],
    );
    expect(statuses.map((s) => s.status)).toEqual(['valid', 'valid']);
  });
  it('races with BK8 and with check-ins without a deadlock or a seat counted twice', async () => {
    const ev = await ticketedEvent(t, t.A);
    const booked = await Promise.all(Array.from({ length: 8 }, () => book(t, t.A, ev, people(2))));
    const codes = await Promise.all(booked.map((b) => codeOf(b.ticketIds[1])));
    const answers = await Promise.all(
      booked.flatMap((b, i) => [
        t.call('PUT', '/event-tickets/status', { ids: b.ticketIds, status: 'cancelled' }),
        t.call('POST', `/bookings/${b.bookingId}/cancel`, {}),
        t.call('POST', '/event-tickets/check-in', { code: codes[i] }),
      ]),
    );
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    for (let i = 0; i < booked.length; i++) {
      const [status, bk8] = [answers[i * 3].status, answers[i * 3 + 1].status];
      // one of the two cancels the booking; the other finds it cancelled (409) or nothing to do
      expect([200, 409]).toContain(status);
      expect([200, 409]).toContain(bk8);
    }
    const valid = await t.count('EventTicket', `"eventId" = $1::uuid AND status = 'valid'`, [
      ev.eventId,
    ]);
    expect(valid).toBe(0);
    const [{ sold }] = await t.sql<{ sold: number }>(
      `SELECT sold FROM "TicketType" WHERE id = $1`,
      [ev.typeId],
    );
    expect(sold).toBe(0);
    expect((await t.copy(t.A, ev.eventId))!.sold).toBe(0);
    expect(
      await t.count('OutboxEvent', `subject = $1 AND payload->>'eventId' = $2`, [
        Subjects.bookingsInvitations.bookingCancelled,
        ev.eventId,
      ]),
    ).toBe(8);
  });
});

describe('ET1, ET3, ET4, ET10', () => {
  it('lists with filters, search, paging and the total; another tenant’s tickets never appear', async () => {
    const ev = await ticketedEvent(t, t.A);
    const a = await book(t, t.A, ev, people(3));
    const b = await book(t, t.A, ev, [{ firstname: 'Zoe', lastname: 'Unique', email: null }]);
    await book(t, t.B, await ticketedEvent(t, t.B), people(2));
    await t.call('PUT', '/event-tickets/status', { ids: [a.ticketIds[2]], status: 'cancelled' });
    await t.call('POST', '/event-tickets/check-in', { code: await codeOf(a.ticketIds[0]) });

    const list = async (q: string) => {
      const res = await t.call('GET', `/event-tickets?eventId=${ev.eventId}&${q}`);
      expect(res.status).toBe(200);
      return res;
    };
    const all = await list('pageSize=2&sort=participantFirstname');
    expect(all.body.metaData.totalResults).toBe(4);
    expect(
      all.body.data.map((x: { participantFirstname: string }) => x.participantFirstname),
    ).toEqual(['P0', 'P1']);
    expect((await list('status=cancelled')).body.data.map((x: { id: string }) => x.id)).toEqual([
      a.ticketIds[2],
    ]);
    expect((await list('checkedIn=true')).body.data.map((x: { id: string }) => x.id)).toEqual([
      a.ticketIds[0],
    ]);
    expect((await list('checkedIn=false')).body.metaData.totalResults).toBe(3);
    expect((await list(`bookingId=${b.bookingId}`)).body.data).toHaveLength(1);
    expect((await list('q=uniq')).body.data.map((x: { id: string }) => x.id)).toEqual(b.ticketIds);
    expect((await list(`ticketTypeId=${ev.typeId}`)).body.metaData.totalResults).toBe(4);
    const bList = await t.call('GET', `/event-tickets?eventId=${ev.eventId}`, undefined, t.B);
    expect(bList.body.data).toEqual([]);
  });

  it('lists and resolves GraphQL pages with the same statements for 2 or 40 tickets (no N+1)', async () => {
    const statementsFor = async (n: number, read: (eventId: string) => Promise<unknown>) => {
      const ev = await ticketedEvent(t, t.A);
      const { ticketIds } = await book(t, t.A, ev, people(n));
      await codeOf(ticketIds[0]); // the event's key exists (made once, on first need)
      const spy = jest.spyOn(pg.Client.prototype, 'query');
      try {
        await read(ev.eventId);
        return spy.mock.calls
          .map(([q]) => (typeof q === 'string' ? q : String((q as { text?: string })?.text)))
          .filter((q) => /"(EventTicket|EventCopy|EventSigningKey|CheckIn|Booking)"/.test(q))
          .length;
      } finally {
        spy.mockRestore();
      }
    };
    const rest = async (eventId: string) => {
      const res = await t.call('GET', `/event-tickets?eventId=${eventId}&pageSize=100`);
      expect(res.body.data.every((x: { code: string }) => x.code.startsWith('v1.'))).toBe(true);
    };
    const gql = async (eventId: string) => {
      const res = await t.gql(
        `query($e: ID!) { eventTickets(eventId: $e, pageSize: 100) { items { id code event { id } checkIn { location } integrationData } } }`,
        { e: eventId },
      );
      expect(res.body.errors).toBeUndefined();
    };
    for (const read of [rest, gql]) {
      const few = await statementsFor(2, read);
      expect(few).toBeGreaterThan(0);
      expect(await statementsFor(40, read)).toBe(few);
    }
  });

  it('summarises by ticket type and status with check-ins', async () => {
    const ev = await ticketedEvent(t, t.A);
    const vip = await t.call('POST', '/tickets', {
      eventId: ev.eventId,
      name: 'VIP',
      price: '300',
      currency: 'EUR',
    });
    const a = await book(t, t.A, ev, people(3));
    const v = await book(t, t.A, { eventId: ev.eventId, typeId: vip.body.data.id }, people(2, 'V'));
    await t.call('PUT', '/event-tickets/status', { ids: [a.ticketIds[1]], status: 'cancelled' });
    await t.call('POST', '/event-tickets/check-in', { code: await codeOf(a.ticketIds[0]) });
    await t.call('POST', '/event-tickets/check-in', { code: await codeOf(v.ticketIds[0]) });
    const res = await t.call('GET', `/event-tickets/summary?eventId=${ev.eventId}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ total: 5, valid: 4, cancelled: 1, checkedIn: 2 });
    expect(res.body.data.ticketTypes).toEqual(
      expect.arrayContaining([
        {
          ticketTypeId: ev.typeId,
          ticketTypeName: 'Regular',
          total: 3,
          valid: 2,
          cancelled: 1,
          checkedIn: 1,
        },
        {
          ticketTypeId: vip.body.data.id,
          ticketTypeName: 'Regular',
          total: 2,
          valid: 2,
          cancelled: 0,
          checkedIn: 1,
        },
      ]),
    );
    const b = await t.call('GET', `/event-tickets/summary?eventId=${ev.eventId}`, undefined, t.B);
    expect(b.status).toBe(404);
  });

  it('keeps integration data up to 16 KB (413 above, 400 when not an object)', async () => {
    const ev = await ticketedEvent(t, t.A);
    const { ticketIds } = await book(t, t.A, ev, people(1));
    const path = `/event-tickets/${ticketIds[0]}/integration-data`;
    const ok = await t.call('PUT', path, { crmRef: 'X-1', nested: { n: [1, 2] } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.integrationData).toEqual({ crmRef: 'X-1', nested: { n: [1, 2] } });
    const big = await t.call('PUT', path, { blob: 'x'.repeat(16 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body.message).toContain('16384');
    for (const body of [[1, 2], 'text', 7]) {
      const res = await t.call('PUT', path, body);
      expect(res.status).toBe(400);
    }
    expect(
      (await t.call('GET', `/event-tickets/${ticketIds[0]}`)).body.data.integrationData,
    ).toEqual({
      crmRef: 'X-1',
      nested: { n: [1, 2] },
    });
    expect((await t.call('PUT', path, { a: 1 }, t.B)).status).toBe(404);
  });

  it('sets participant information; null clears e-mail and information', async () => {
    const ev = await ticketedEvent(t, t.A);
    const { ticketIds } = await book(t, t.A, ev, people(1));
    const path = `/event-tickets/${ticketIds[0]}/participant-information`;
    const res = await t.call('PUT', path, {
      firstname: ' Ada ',
      email: 'ada@example.com',
      information: { diet: 'vegan' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      participantFirstname: 'Ada',
      participantLastname: 'Visitor',
      participantEmail: 'ada@example.com',
      participantInformation: { diet: 'vegan' },
    });
    const cleared = await t.call('PUT', path, { email: null, information: null });
    expect(cleared.body.data).toMatchObject({
      participantEmail: null,
      participantInformation: null,
    });
    const bad = await t.call('PUT', path, { email: 'nope', firstname: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'email',
      'firstname',
    ]);
    expect((await t.call('PUT', path, { information: { x: 'y'.repeat(17000) } })).status).toBe(413);
    expect((await t.call('PUT', path, { firstname: 'X' }, t.B)).status).toBe(404);
  });
});

describe('ET6-ET8 mails, ET12 PDF', () => {
  it('resends tickets: one mail per recipient and booking with the PDFs, in the booking’s language', async () => {
    const ev = await ticketedEvent(t, t.A);
    const { ticketIds, bookingId } = await book(
      t,
      t.A,
      ev,
      [
        { firstname: 'Ada', lastname: 'L', email: 'ada@example.com' },
        { firstname: 'Bob', lastname: 'M', email: null },
        { firstname: 'Cy', lastname: 'N', email: null },
      ],
      { email: 'booker@example.com', language: 'de' },
    );
    const res = await t.call('POST', '/event-tickets/resend', { ids: ticketIds });
    expect(res.status).toBe(200);
    expect(res.body.data.queued).toBe(2);
    const mails = await t.sql<{
      toAddress: string;
      subject: string;
      attachments: { kind: string; ticketId: string }[];
      language: string;
      kind: string;
    }>(
      `SELECT "toAddress", subject, attachments, language, kind FROM "Mail" WHERE "bookingId" = $1::uuid ORDER BY "toAddress"`,
      [bookingId],
    );
    expect(mails).toEqual([
      {
        toAddress: 'ada@example.com',
        subject: 'Ihr Ticket für Summit',
        attachments: [{ kind: 'ticket', ticketId: ticketIds[0] }],
        language: 'de',
        kind: 'tickets',
      },
      {
        toAddress: 'booker@example.com',
        subject: 'Ihre 2 Tickets für Summit',
        attachments: [
          { kind: 'ticket', ticketId: ticketIds[1] },
          { kind: 'ticket', ticketId: ticketIds[2] },
        ],
        language: 'de',
        kind: 'tickets',
      },
    ]);
    // the worker renders the attachment through the registry, as the mail's tenant
    const file = await asTenant(t.A, async () =>
      t.svc.app.get(MailAttachments).render(t.A, { kind: 'ticket', ticketId: ticketIds[0] }, 'de'),
    );
    expect(file?.contentType).toBe('application/pdf');
    const { text } = await pdfText(file!.content);
    expect(text).toContain('Summit');
    expect(text).toContain('Teilnehmer/in');

    await t.call('PUT', '/event-tickets/status', { ids: [ticketIds[2]], status: 'cancelled' });
    const refused = await t.call('POST', '/event-tickets/resend', { ids: ticketIds });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'ids[2]' })]);
    const foreign = await t.call('POST', '/event-tickets/resend', { ids: [ticketIds[0]] }, t.B);
    expect(foreign.status).toBe(404);
    expect(await t.count('Mail', `"bookingId" = $1::uuid AND kind = 'tickets'`, [bookingId])).toBe(
      2,
    );
    // the booker is told of the ticket the organiser cancelled (issue 20: ET5 cancels as BK22)
    expect(
      await t.count('Mail', `"bookingId" = $1::uuid AND kind = 'tickets-cancellation'`, [
        bookingId,
      ]),
    ).toBe(1);
  });

  it('mails free text to listed and to filtered participants, once per address, framed in their language', async () => {
    const ev = await ticketedEvent(t, t.A);
    const en = await book(t, t.A, ev, people(2), { language: 'en' });
    const de = await book(
      t,
      t.A,
      ev,
      [
        { firstname: 'Dora', lastname: 'D', email: null },
        { firstname: 'Emil', lastname: 'E', email: null },
      ],
      { language: 'de', email: 'familie@example.com' },
    );
    const listed = await t.call('POST', '/event-tickets/mails', {
      ids: [...en.ticketIds, ...de.ticketIds],
      subject: 'Parking',
      text: 'Use lot B.',
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data.queued).toBe(3);
    const rows = await t.sql<{ toAddress: string; text: string; subject: string }>(
      `SELECT "toAddress", text, subject FROM "Mail" WHERE id = ANY($1::uuid[]) ORDER BY "toAddress"`,
      [listed.body.data.mailIds],
    );
    expect(rows.map((r) => r.toAddress)).toEqual([
      'familie@example.com',
      'p0@example.com',
      'p1@example.com',
    ]);
    expect(rows[0].text).toMatch(/^Hallo Bea Booker,\n\nUse lot B\.\n\n--\nSie erhalten/);
    expect(rows[1].text).toMatch(/^Hello P0 Visitor,\n\nUse lot B\.\n\n--\nYou receive/);

    await t.call('POST', '/event-tickets/check-in', { code: await codeOf(en.ticketIds[0]) });
    const filtered = await t.call('POST', '/event-tickets/mails/filtered', {
      filter: { eventId: ev.eventId, checkedIn: false, status: 'valid' },
      subject: 'Doors open at 9',
      text: 'Come early.',
    });
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.queued).toBe(2); // p1 and the family
    const foreign = await t.call(
      'POST',
      '/event-tickets/mails/filtered',
      { filter: { eventId: ev.eventId }, subject: 's', text: 't' },
      t.B,
    );
    expect(foreign.status).toBe(404);
  });

  it('renders the ticket PDF with event, date in its zone, participant, type and the code (text and QR)', async () => {
    const ev = await ticketedEvent(t, t.A, { title: 'Jazz Night' });
    const { ticketIds } = await book(t, t.A, ev, [{ firstname: 'Jörg', lastname: 'Öhler' }]);
    const code = await codeOf(ticketIds[0]);
    const res = await t.call('GET', `/event-tickets/${ticketIds[0]}/pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const { text } = await pdfText(res.bytes);
    expect(text).toContain('Jazz Night');
    expect(text).toContain('Jörg Öhler');
    expect(text).toContain('Regular');
    expect(text).toContain('Europe/Berlin');
    expect(text).toContain('10:00'); // 08:00Z is 10:00 in Berlin in June
    expect(text.replace(/\s+/g, '')).toContain(code);
    // what the door's scanner reads is the signed code itself
    expect(await pdfQrCodes(res.bytes)).toEqual([code]);
    expect((await t.call('GET', `/event-tickets/${ticketIds[0]}/pdf`, undefined, t.B)).status).toBe(
      404,
    );
  });
});

describe('ET11 export', () => {
  it('streams every one of 2,500 tickets as CSV and as XLSX', async () => {
    const ev = await ticketedEvent(t, t.A);
    await bookMany(t, t.A, ev, 2500);
    const csv = await t.call('GET', `/event-tickets/export?eventId=${ev.eventId}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(
      `attachment; filename="tickets-${ev.eventId}.csv"`,
    );
    const records: Record<string, string>[] = parse(csv.text.replace(/^\uFEFF/, ''), {
      columns: true,
    });
    expect(records).toHaveLength(2500);
    expect(new Set(records.map((r) => r.ticketId)).size).toBe(2500);
    expect(new Set(records.map((r) => r.firstname))).toEqual(
      new Set(Array.from({ length: 2500 }, (_, i) => `P${i + 1}`)),
    );
    expect(records[0].code).toMatch(/^v1\./);

    const xlsx = await t.call('GET', `/event-tickets/export?eventId=${ev.eventId}&format=xlsx`);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-disposition')).toContain('.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(2501);
    const ids = new Set<string>();
    sheet.eachRow((row, n) => {
      if (n > 1) ids.add(String(row.getCell(1).value));
    });
    expect(ids.size).toBe(2500);

    expect(
      (await t.call('GET', `/event-tickets/export?eventId=${ev.eventId}`, undefined, t.B)).status,
    ).toBe(404);
  });

  it('defuses cells a spreadsheet would run as formulas', async () => {
    const ev = await ticketedEvent(t, t.A);
    await book(t, t.A, ev, [{ firstname: '=HYPERLINK("x")', lastname: '+1', email: null }]);
    const csv = await t.call('GET', `/event-tickets/export?eventId=${ev.eventId}`);
    const [row] = parse(csv.text.replace(/^\uFEFF/, ''), { columns: true }) as Record<
      string,
      string
    >[];
    expect(row.firstname).toBe(`'=HYPERLINK("x")`);
    expect(row.lastname).toBe(`'+1`);
  });

  it('answers Accept-Language de with German headers, `;` and a decimal comma (CSV) and German headers with number cells (XLSX)', async () => {
    const ev = await ticketedEvent(t, t.A);
    await book(t, t.A, ev, [{ firstname: '=Jörg', lastname: 'Ölmann', email: null }]);
    const de = { 'Accept-Language': 'de' };
    const path = `/event-tickets/export?eventId=${ev.eventId}`;
    const csv = await t.call('GET', `${path}&format=csv`, undefined, t.A, de);
    expect(csv.status).toBe(200);
    expect(csv.text.startsWith('\uFEFF')).toBe(true);
    const [head] = csv.text.slice(1).split(/\r?\n/);
    expect(head.split(';').slice(0, 9)).toEqual([
      'Ticket-ID',
      'Buchungs-ID',
      'Ticketart-ID',
      'Ticketart',
      'Status',
      'Vorname',
      'Nachname',
      'E-Mail',
      'Preis brutto',
    ]);
    const [row] = parse(csv.text.slice(1), { columns: true, delimiter: ';' }) as Record<
      string,
      string
    >[];
    expect(row['Preis brutto']).toBe('119,00');
    expect(row['Vorname']).toBe(`'=Jörg`);
    expect(row['Nachname']).toBe('Ölmann');
    expect(row['Währung']).toBe('EUR');

    // English stays as it was: column keys, `,` and `119.00`
    const en = await t.call('GET', `${path}&format=csv`, undefined, t.A, {
      'Accept-Language': 'en',
    });
    const [enRow] = parse(en.text.replace(/^\uFEFF/, ''), { columns: true }) as Record<
      string,
      string
    >[];
    expect(enRow.priceGross).toBe('119.00');

    const xlsx = await t.call('GET', `${path}&format=xlsx`, undefined, t.A, de);
    expect(xlsx.status).toBe(200);
    const book_ = new ExcelJS.Workbook();
    await book_.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = book_.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe('Ticket-ID');
    expect(sheet.getRow(1).getCell(9).value).toBe('Preis brutto');
    expect(sheet.getRow(2).getCell(9).value).toBe(119);
  });
});

describe('GraphQL', () => {
  it('reads tickets with their federated event, summary and verification; checks in; conflicts carry the first check-in', async () => {
    const ev = await ticketedEvent(t, t.A);
    const { ticketIds } = await book(t, t.A, ev, people(2));
    const read = await t.gql(
      `query($id: ID!, $e: ID!) {
        eventTicket(id: $id) { id code status event { id } integrationData checkIn { location } }
        eventTickets(eventId: $e, pageSize: 1) { totalResults items { id } }
        eventTicketSummary(eventId: $e) { total valid }
        ticketVerification(eventId: $e) { algorithm keyId publicKey revoked { ticketId } }
      }`,
      { id: ticketIds[0], e: ev.eventId },
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.eventTicket).toMatchObject({
      id: ticketIds[0],
      status: 'valid',
      event: { id: ev.eventId },
    });
    expect(read.body.data.eventTickets.totalResults).toBe(2);
    expect(read.body.data.eventTicketSummary).toEqual({ total: 2, valid: 2 });
    expect(read.body.data.ticketVerification.algorithm).toBe('Ed25519');

    const checkIn = `mutation($code: String!) { checkIn(input: { code: $code, location: "Hall" }) { ticketId location retried } }`;
    const ok = await t.gql(checkIn, { code: read.body.data.eventTicket.code });
    expect(ok.body.data.checkIn).toEqual({
      ticketId: ticketIds[0],
      location: 'Hall',
      retried: false,
    });
    const again = await t.gql(checkIn, { code: read.body.data.eventTicket.code }, t.A, {
      'Accept-Language': 'de',
    });
    expect(again.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
    const [first] = await t.sql<{ at: string }>(
      `SELECT to_char("checkedInAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
         FROM "CheckIn" WHERE "ticketId" = $1::uuid`,
      [ticketIds[0]],
    );
    expect(again.body.errors[0].message).toBe(
      `Ticket ${ticketIds[0]} wurde bereits am ${wallClock(first.at, 'de-DE')} eingecheckt (Ort: Hall)`,
    );

    const data = await t.gql(
      `mutation($id: ID!) { setTicketIntegrationData(id: $id, data: "{\\"a\\":1}") { integrationData } }`,
      { id: ticketIds[1] },
    );
    expect(data.body.data.setTicketIntegrationData.integrationData).toBe('{"a":1}');
    const info = await t.gql(
      `mutation($id: ID!) { setParticipantInformation(id: $id, email: "bad") { id } }`,
      { id: ticketIds[1] },
    );
    expect(info.body.errors[0].extensions.statusCode).toBe(400);
    const status = await t.gql(
      `mutation($ids: [ID!]!) { setTicketsStatus(input: { ids: $ids, status: "cancelled" }) { changed } }`,
      { ids: [ticketIds[1]] },
    );
    expect(status.body.data.setTicketsStatus.changed).toBe(1);
    const mails = await t.gql(
      `mutation($ids: [ID!]!, $e: ID!) {
        resendTickets(input: { ids: $ids }) { queued }
        mailTickets(input: { ids: $ids, subject: "s", text: "t" }) { queued }
        mailTicketsFiltered(input: { filter: { eventId: $e }, subject: "s", text: "t" }) { queued }
      }`,
      { ids: [ticketIds[0]], e: ev.eventId },
    );
    expect(mails.body.errors).toBeUndefined();
    expect(mails.body.data).toEqual({
      resendTickets: { queued: 1 },
      mailTickets: { queued: 1 },
      mailTicketsFiltered: { queued: 2 },
    });
    const foreign = await t.gql(
      `query($id: ID!) { eventTicket(id: $id) { id } }`,
      { id: ticketIds[0] },
      t.B,
    );
    expect(foreign.body.errors[0].extensions.statusCode).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('documents every event ticket operation with its row id', async () => {
    const res = await t.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const ops = Object.entries(
      res.body.paths as Record<string, Record<string, { summary?: string }>>,
    )
      .filter(([p]) => p.includes('/event-tickets'))
      .flatMap(([, methods]) => Object.values(methods).map((m) => m.summary?.split(' ')[0]));
    expect(ops.sort()).toEqual(
      [
        'ET1',
        'ET2',
        'ET3',
        'ET4',
        'ET5',
        'ET6',
        'ET7',
        'ET8',
        'ET9',
        'ET10',
        'ET11',
        'ET12',
        'ET13',
        'ET14',
      ].sort(),
    );
    const verification = res.body.paths['/v1/crm/event-tickets/verification'].get.description;
    expect(verification).toContain('Ed25519');
    expect(verification).toContain('base64url');
  });
});
