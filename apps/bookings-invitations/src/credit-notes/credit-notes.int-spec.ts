import { randomUUID } from 'node:crypto';
import { pdfText } from '@crm/testing';
import { asTenant } from '@crm/request-context';
import { BookingsRepository } from '../bookings/bookings.repository';
import { Transactions } from '../database/transactions';
import { InvoiceTestKit } from '../invoices/test/invoice-test-kit';
import { CreditNotes } from './credit-notes';

// Credit notes (CN1, CN2, Booking.creditNotes) against the real service, PostgreSQL, its own NATS
// (a stand-in answers for the events service's invoice sender) and a real SMTP server: bookings
// are written straight into the database, then cancelled through BK8.

jest.setTimeout(120_000);

let t: InvoiceTestKit;
beforeAll(async () => {
  t = await InvoiceTestKit.start('bookings_invitations_it_credit_notes');
  t.senders.senders.set(t.A, {
    sender: { name: 'Events GmbH', city: 'Berlin', vatId: 'DE123456789' },
    currency: 'EUR',
    timeZone: 'Europe/Berlin',
  });
}, 120_000);
afterAll(async () => t?.close());

/** Two standard tickets at 19 % and a workshop at 7 %: 238.00 + 53.50 = 291.50. */
const TICKETS = [
  { gross: '119.00', rate: '19', firstname: 'Ada', lastname: 'Lovelace' },
  { gross: '119.00', rate: '19', firstname: 'Charles', lastname: 'Babbage' },
  { gross: '53.50', rate: '7', ticketTypeName: 'Workshop', firstname: 'Ada', lastname: 'Lovelace' },
];
/** 10 % until the start (the fixture's event starts in 2030): a fee of 29.15 on 291.50. */
const TEN_PERCENT = [{ daysBeforeStart: 0, feePercent: 10, feeFixed: '0' }];

const text = async (pdf: Buffer) => (await pdfText(pdf)).text.replace(/\u00a0/g, ' ');
const cancel = (id: string, tenant = t.A, body: Record<string, unknown> = {}) =>
  t.call('POST', `/bookings/${id}/cancel`, body, tenant);
const creditNotes = (id: string, tenant = t.A) =>
  t.call('GET', `/bookings/${id}/credit-notes`, undefined, tenant);
const NUMBER = /^(\d{4})-C(\d{6})$/;

describe('an issued invoice never changes', () => {
  it('renders the same text before and after the booking is cancelled (every ticket, totals at issue)', async () => {
    const b = await t.booking(t.A, {
      invoiceNumber: 'RE-2030-000100',
      tickets: TICKETS,
      cancellationTiers: TEN_PERCENT,
    });
    const before = await t.call('GET', `/bookings/${b.id}/invoice`);
    expect(before.status).toBe(200);
    expect((await cancel(b.id)).status).toBe(200);
    const after = await t.call('GET', `/bookings/${b.id}/invoice`);
    expect(after.status).toBe(200);
    const [was, is] = [await text(before.bytes), await text(after.bytes)];
    expect(is).toBe(was);
    expect(is).toContain('Charles Babbage');
    expect(is).toContain('Total €291.50');
    expect(is.toLowerCase()).not.toContain('cancel');
  });
});

describe('the credit note of a cancellation', () => {
  it('is issued with its own number, the invoice number, a reversal per ticket, the fee and totals', async () => {
    const b = await t.booking(t.A, {
      invoiceNumber: 'RE-2030-000101',
      tickets: TICKETS,
      cancellationTiers: TEN_PERCENT,
    });
    const res = await cancel(b.id);
    expect(res.body.data).toMatchObject({ cancellationFee: '29.15' });
    const list = await creditNotes(b.id);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const note = list.body.data[0];
    const tickets = await t.sql<{ id: string }>(
      `SELECT id::text FROM "EventTicket" WHERE "bookingId" = $1::uuid`,
      [b.id],
    );
    expect(note).toMatchObject({
      bookingId: b.id,
      invoiceNumber: 'RE-2030-000101',
      currency: 'EUR',
      reason: 'organiser',
      fee: '29.15',
      totalGross: '-262.35', // -(291.50 - 29.15)
    });
    expect(note.number).toMatch(NUMBER);
    expect(new Date(note.issuedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect([...note.ticketIds].sort()).toEqual(tickets.map((x) => x.id).sort());
    // the fee is split over the rates by gross: 23.80 at 19 %, 5.35 at 7 %
    expect(note.lines.filter((l: { kind: string }) => l.kind === 'fee')).toEqual([
      expect.objectContaining({ rate: '19', gross: '23.80', net: '20.00', tax: '3.80' }),
      expect.objectContaining({ rate: '7', gross: '5.35', net: '5.00', tax: '0.35' }),
    ]);
    expect(note.taxes).toEqual([
      { rate: '19', net: '-180.00', tax: '-34.20', gross: '-214.20' },
      { rate: '7', net: '-45.00', tax: '-3.15', gross: '-48.15' },
    ]);
    expect([note.totalNet, note.totalTax]).toEqual(['-225.00', '-37.35']);

    const pdf = await t.call('GET', `/bookings/${b.id}/credit-notes/${note.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toContain(`credit-note-${note.number}.pdf`);
    const s = await text(pdf.bytes);
    for (const part of [
      'Credit note',
      `Credit note number: ${note.number}`,
      'Cancels invoice: RE-2030-000101',
      'Events GmbH',
      'Cancelled: Workshop',
      'Charles Babbage',
      '-€119.00',
      'Cancellation fee kept',
      '€23.80',
      'Tax 19 % on -€180.00 -€34.20',
      'Total net -€225.00',
      'Total credited -€262.35',
      'VAT ID: DE123456789',
    ]) {
      expect(s).toContain(part);
    }
  });

  it('a cancellation of single tickets (BK22) credits those tickets only; the rest gets a note of its own', async () => {
    const b = await t.booking(t.A, {
      invoiceNumber: 'RE-2030-000110',
      tickets: TICKETS,
      cancellationTiers: TEN_PERCENT,
    });
    const tickets = await t.sql<{ id: string; priceGross: string }>(
      `SELECT id::text, "priceGross"::text AS "priceGross" FROM "EventTicket"
        WHERE "bookingId" = $1::uuid ORDER BY "EventTicket"."priceGross"`,
      [b.id],
    );
    const workshop = tickets[0]; // 53.50
    const first = await t.call('POST', `/bookings/${b.id}/tickets/cancel`, {
      ticketIds: [workshop.id],
    });
    expect(first.status).toBe(200);
    let notes = (await creditNotes(b.id)).body.data;
    expect(notes).toHaveLength(1);
    // 10 % of 53.50 kept: 5.35
    expect(notes[0]).toMatchObject({ ticketIds: [workshop.id], fee: '5.35', totalGross: '-48.15' });
    expect((await cancel(b.id)).status).toBe(200);
    notes = (await creditNotes(b.id)).body.data;
    expect(notes).toHaveLength(2);
    const second = notes.find((n: { ticketIds: string[] }) => n.ticketIds.length === 2);
    // the two standard tickets: 238.00, 10 % kept
    expect(second).toMatchObject({ fee: '23.80', totalGross: '-214.20' });
    expect([...second.ticketIds].sort()).toEqual(
      tickets
        .slice(1)
        .map((x) => x.id)
        .sort(),
    );
    const [n1, n2] = notes
      .map((n: { number: string }) => Number(NUMBER.exec(n.number)![2]))
      .sort((x: number, y: number) => x - y);
    expect(n2).toBe(n1 + 1);
  });

  it('is in the booking’s language and is mailed with the cancellation, rendered by the mail worker', async () => {
    const b = await t.booking(t.A, {
      language: 'de',
      invoiceNumber: 'RE-2030-000102',
      bookerEmail: 'grete@example.test',
      tickets: [{ gross: '119.00', rate: '19' }],
    });
    expect((await cancel(b.id)).status).toBe(200);
    const [note] = (await creditNotes(b.id)).body.data;
    expect(note).toMatchObject({ fee: '0.00', totalGross: '-119.00' });
    const got = await t.smtp.waitFor(
      (m) => m.to.includes('grete@example.test') && m.parsed.attachments.length > 0,
    );
    const [file] = got.parsed.attachments;
    expect(file.filename).toBe(`Stornorechnung-${note.number}.pdf`);
    const s = await text(file.content);
    expect(s).toContain(`Stornorechnungsnummer: ${note.number}`);
    expect(s).toContain('Storniert Rechnung: RE-2030-000102');
    expect(s).toContain('Gutschriftsbetrag -119,00 €');
    // both documents stay readable afterwards
    const again = await t.call('GET', `/bookings/${b.id}/credit-notes/${note.id}/pdf`);
    expect(await text(again.bytes)).toBe(s);
    expect((await t.call('GET', `/bookings/${b.id}/invoice`)).status).toBe(200);
  });

  it('is not issued for a booking without invoice number; its cancellation mail has no attachment', async () => {
    const b = await t.booking(t.A, { invoiceNumber: null, bookerEmail: 'free@example.test' });
    expect((await cancel(b.id)).status).toBe(200);
    expect((await creditNotes(b.id)).body.data).toEqual([]);
    const got = await t.smtp.waitFor((m) => m.to.includes('free@example.test'));
    expect(got.parsed.attachments).toEqual([]);
  });

  it('is issued for a booking with an external invoice number (BK11)', async () => {
    const b = await t.booking(t.A, { invoiceNumber: null });
    const set = await t.call('PUT', `/bookings/${b.id}/invoice-number`, {
      invoiceNumber: 'EXT-77',
    });
    expect(set.status).toBe(200);
    expect((await cancel(b.id, t.A, { waiveFee: true })).status).toBe(200);
    expect((await creditNotes(b.id)).body.data[0]).toMatchObject({
      invoiceNumber: 'EXT-77',
      totalGross: '-119.00',
    });
  });

  it('BK11 refuses an external number of the credit notes’ form', async () => {
    const b = await t.booking(t.A, { invoiceNumber: null });
    const res = await t.call('PUT', `/bookings/${b.id}/invoice-number`, {
      invoiceNumber: '2026-C000001',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ field: 'invoiceNumber', rule: 'assignedForm' });
  });
});

describe('tenants and bad ids', () => {
  it('another tenant sees neither the list nor the PDF; unknown and malformed ids are 404', async () => {
    const b = await t.booking(t.A, { invoiceNumber: 'RE-2030-000200' });
    const other = await t.booking(t.A, { invoiceNumber: 'RE-2030-000201' });
    await cancel(b.id);
    const [note] = (await creditNotes(b.id)).body.data;
    const theirs = await creditNotes(b.id, t.B);
    expect(theirs.status).toBe(404);
    expect(theirs.body.data).toBeNull();
    expect(
      (await t.call('GET', `/bookings/${b.id}/credit-notes/${note.id}/pdf`, undefined, t.B)).status,
    ).toBe(404);
    for (const [booking, id] of [
      [other.id, note.id], // a credit note of another booking
      [b.id, randomUUID()],
      [b.id, 'not-a-uuid'],
      ['not-a-uuid', note.id],
    ]) {
      const res = await t.call('GET', `/bookings/${booking}/credit-notes/${id}/pdf`);
      expect(res.status).toBe(404);
      expect(res.body.data).toBeNull();
    }
    const de = await t.call(
      'GET',
      `/bookings/${b.id}/credit-notes/${randomUUID()}/pdf`,
      undefined,
      t.A,
      {
        'Accept-Language': 'de',
      },
    );
    expect(de.body.message).toContain('Stornorechnung');
    // tenant B's cancellation does not touch A's sequence: its own starts at 1
    const mine = await t.booking(t.B, { invoiceNumber: 'B-1' });
    await cancel(mine.id, t.B);
    const [bNote] = (await creditNotes(mine.id, t.B)).body.data;
    expect(bNote.number.match(NUMBER)?.[2]).toBe('000001');
  });
});

describe('concurrency', () => {
  it('30 bookings of one tenant cancelled at once: 30 credit notes, numbers unique and gap-free', async () => {
    const tenant = `tenant-c-${randomUUID().slice(0, 8)}`;
    const bookings = [];
    for (let i = 0; i < 30; i++) {
      bookings.push(await t.booking(tenant, { invoiceNumber: `C-${i}` }));
    }
    const answers = await Promise.all(bookings.map((b) => cancel(b.id, tenant)));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    const rows = await t.sql<{ number: string }>(
      `SELECT number FROM "CreditNote" WHERE "tenantId" = $1 ORDER BY number`,
      [tenant],
    );
    const seq = rows.map((r) => Number(r.number.match(NUMBER)![2]));
    expect(seq).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('one booking cancelled 10 times at once: exactly one cancellation, one credit note', async () => {
    const tenant = `tenant-d-${randomUUID().slice(0, 8)}`;
    const b = await t.booking(tenant, { invoiceNumber: 'D-1', tickets: TICKETS });
    const answers = await Promise.all(Array.from({ length: 10 }, () => cancel(b.id, tenant)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    const rows = await t.sql<{ number: string }>(
      `SELECT number FROM "CreditNote" WHERE "tenantId" = $1`,
      [tenant],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].number).toMatch(/-C000001$/);
  });
});

describe('numbers', () => {
  it('take the year of the cancellation in the event’s zone; a rolled-back issue leaves no gap', async () => {
    const tenant = `tenant-y-${randomUUID().slice(0, 8)}`;
    const b = await t.booking(tenant, { invoiceNumber: 'Y-1', timeZone: 'Europe/Berlin' });
    const c = await t.booking(tenant, { invoiceNumber: 'Y-2', timeZone: 'Europe/Berlin' });
    const tx = t.svc.app.get(Transactions);
    const repo = t.svc.app.get(BookingsRepository);
    const issuer = t.svc.app.get(CreditNotes);
    // the issuer runs in its caller's transaction, as the tenant
    const issue = (id: string, at: Date) =>
      asTenant(tenant, async () =>
        tx.run(async (db) => {
          const booking = (await repo.lock(db, tenant, id))!;
          return issuer.issue(db, tenant, {
            booking,
            cancelledTicketIds: booking.tickets.map((x) => x.id),
            fee: '0.00',
            reason: 'organiser',
            at,
          });
        }),
      );
    // 23:30 UTC on New Year's Eve is already 2027 in Berlin
    const newYear = new Date('2026-12-31T23:30:00Z');
    await expect(
      asTenant(tenant, async () =>
        tx.run(async (db) => {
          const booking = (await repo.lock(db, tenant, b.id))!;
          await issuer.issue(db, tenant, {
            booking,
            cancelledTicketIds: booking.tickets.map((x) => x.id),
            fee: '0.00',
            reason: 'organiser',
            at: newYear,
          });
          throw new Error('the cancellation fails after the credit note');
        }),
      ),
    ).rejects.toThrow('fails after');
    expect((await issue(b.id, newYear))?.number).toBe('2027-C000001');
    expect((await issue(c.id, new Date('2026-12-31T22:30:00Z')))?.number).toBe('2026-C000001');
  });
});

describe('GraphQL', () => {
  it('Booking.creditNotes, and NOT_FOUND for another tenant’s booking', async () => {
    const b = await t.booking(t.A, { invoiceNumber: 'RE-2030-000300', tickets: TICKETS });
    await cancel(b.id, t.A, { waiveFee: true });
    const rest = (await creditNotes(b.id)).body.data;
    const res = await t.gql(
      `query($id: ID!) { booking(id: $id) { id creditNotes { id number invoiceNumber totalGross fee ticketIds taxes { rate gross } } } }`,
      { id: b.id },
    );
    expect(res.body.data.booking.creditNotes).toEqual([
      {
        id: rest[0].id,
        number: rest[0].number,
        invoiceNumber: 'RE-2030-000300',
        totalGross: '-291.50',
        fee: '0.00',
        ticketIds: rest[0].ticketIds,
        taxes: [
          { rate: '19', gross: '-238.00' },
          { rate: '7', gross: '-53.50' },
        ],
      },
    ]);
    const foreign = await t.gql(
      `query($id: ID!) { booking(id: $id) { creditNotes { id } } }`,
      { id: b.id },
      t.B,
    );
    expect(foreign.body.errors[0].extensions.statusCode).toBe(404);
  });
});
