import { pdfText } from '@crm/testing';
import { asTenant } from '@crm/request-context';
import { PrismaService } from '../database/prisma.service';
import { MailsRepository } from '../mails/mails.repository';
import { eventually } from '../mails/test/mail-test-kit';
import { InvoiceTestKit } from './test/invoice-test-kit';

// BK10, BK11, BK16, BK17 against the real service, PostgreSQL, its own NATS (a stand-in answers
// for the events service's invoice sender) and a real SMTP server.

jest.setTimeout(90_000);

let t: InvoiceTestKit;
beforeAll(async () => {
  t = await InvoiceTestKit.start('bookings_invitations_it_invoices');
  t.senders.senders.set(t.A, {
    sender: {
      name: 'Events GmbH',
      street: 'Hauptstr. 1',
      zip: '10115',
      city: 'Berlin',
      vatId: 'DE123456789',
    },
    currency: 'EUR',
    timeZone: 'Europe/Berlin',
  });
}, 90_000);
afterAll(async () => t?.close());

/** Two standard tickets at 19 % and a workshop at 7 %: 238.00 + 53.50 = 291.50. */
const TICKETS = [
  { gross: '119.00', rate: '19', firstname: 'Ada', lastname: 'Lovelace' },
  { gross: '119.00', rate: '19', firstname: 'Charles', lastname: 'Babbage' },
  { gross: '53.50', rate: '7', ticketTypeName: 'Workshop', firstname: 'Ada', lastname: 'Lovelace' },
];

const text = async (pdf: Buffer) => (await pdfText(pdf)).text.replace(/\u00a0/g, ' ');

describe('BK16 GET /bookings/{id}/invoice', () => {
  it('answers the PDF named after the number, with sender, tickets, tax per rate and totals', async () => {
    const b = await t.booking(t.A, { invoiceNumber: 'RE-2030-000001', tickets: TICKETS });
    const res = await t.call('GET', `/bookings/${b.id}/invoice`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('invoice-RE-2030-000001.pdf');
    expect(res.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const s = await text(res.bytes);
    for (const part of [
      'Invoice number: RE-2030-000001',
      'Events GmbH',
      '10115 Berlin',
      'Summit 2030',
      'Charles Babbage',
      'Workshop',
      'Tax 19 % on €200.00 €38.00',
      'Tax 7 % on €50.00 €3.50',
      'Total net €250.00',
      'Total tax €41.50',
      'Total €291.50',
      'VAT ID: DE123456789',
    ]) {
      expect(s).toContain(part);
    }
  });

  it('speaks the booking’s language, says when no sender is set, shows a cancelled booking as invoiced', async () => {
    const b = await t.booking(t.B, {
      language: 'de',
      invoiceNumber: 'B-7',
      tickets: [{ gross: '119.00', rate: '19' }],
      cancelled: { fee: '11.90', refund: '107.10' },
    });
    const res = await t.call('GET', `/bookings/${b.id}/invoice`, undefined, t.B);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('Rechnung-B-7.pdf');
    const s = await text(res.bytes);
    expect(s).toContain('Rechnung');
    expect(s).toContain('kein Rechnungssteller');
    expect(s).toContain('Gesamtbetrag 119,00 €');
    // the cancellation is the credit note's business: the invoice stays as issued
    expect(s).not.toContain('storniert');
    expect(s).not.toContain('Stornogebühr');
    expect(s).not.toContain('Erstattung');
  });

  it('404 for a booking without invoice number, an unknown id, another tenant’s booking', async () => {
    const none = await t.booking(t.A, { invoiceNumber: null });
    const theirs = await t.booking(t.B);
    for (const [id, tenant] of [
      [none.id, t.A],
      ['6a1c1f4e-0000-4000-8000-000000000000', t.A],
      ['not-a-uuid', t.A],
      [theirs.id, t.A],
    ]) {
      const res = await t.call('GET', `/bookings/${id}/invoice`, undefined, tenant);
      expect(res.status).toBe(404);
      expect(res.body.data).toBeNull();
    }
    const de = await t.call('GET', `/bookings/${none.id}/invoice`, undefined, t.A, {
      'Accept-Language': 'de',
    });
    expect(de.body.message).toContain('keine Rechnung');
  });

  it('503 naming events when the invoice sender cannot be asked', async () => {
    const b = await t.booking(t.A);
    await t.senders.stop();
    try {
      const res = await t.call('GET', `/bookings/${b.id}/invoice`);
      expect(res.status).toBe(503);
      expect(res.body.message).toContain('events');
    } finally {
      await t.senders.start();
    }
  });
});

describe('BK10 POST /bookings/{id}/invoice-mail', () => {
  it('queues the invoice mail; it arrives with the PDF holding the number and totals; history', async () => {
    const b = await t.booking(t.A, {
      invoiceNumber: 'RE-2030-000010',
      tickets: TICKETS,
      bookerEmail: 'grace@example.test',
      bookerFirstname: 'Grace',
      bookerLastname: 'Hopper',
    });
    const res = await t.call('POST', `/bookings/${b.id}/invoice-mail`);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      bookingId: b.id,
      eventId: b.eventId,
      kind: 'invoice',
      to: 'grace@example.test',
      toName: 'Grace Hopper',
      subject: 'Your invoice RE-2030-000010',
      status: 'queued',
      attempts: 0,
      lastError: null,
      sentAt: null,
    });
    const mailId = res.body.data.id;
    const got = await t.smtp.waitFor((m) => m.parsed.headers.get('x-crm-mail-id') === mailId);
    expect(got.to).toEqual(['grace@example.test']);
    expect(got.parsed.text).toContain('Hello Grace Hopper');
    expect(got.parsed.attachments).toHaveLength(1);
    const [pdf] = got.parsed.attachments;
    expect(pdf.filename).toBe('invoice-RE-2030-000010.pdf');
    expect(pdf.contentType).toBe('application/pdf');
    const s = await text(pdf.content);
    expect(s).toContain('Invoice number: RE-2030-000010');
    expect(s).toContain('Total €291.50');
    expect(s).toContain('Total tax €41.50');
    expect(await t.history(b.id)).toEqual([
      {
        action: 'invoice-mailed',
        actor: 'test-suite',
        data: { mailId, to: 'grace@example.test', invoiceNumber: 'RE-2030-000010' },
      },
    ]);
    await eventually(async () => {
      const list = await t.call('GET', `/bookings/${b.id}/mails`);
      expect(list.body.data[0]).toMatchObject({ id: mailId, status: 'sent', attempts: 1 });
    });
  });

  it('writes the mail in the booker’s language', async () => {
    const b = await t.booking(t.A, { language: 'de', invoiceNumber: 'DE-1' });
    const res = await t.call('POST', `/bookings/${b.id}/invoice-mail`);
    expect(res.status).toBe(202);
    expect(res.body.data.subject).toBe('Ihre Rechnung DE-1');
    const got = await t.smtp.waitFor(
      (m) => m.parsed.headers.get('x-crm-mail-id') === res.body.data.id,
    );
    expect(got.parsed.attachments[0].filename).toBe('Rechnung-DE-1.pdf');
    expect(got.parsed.text).toContain('anbei erhalten Sie die Rechnung DE-1');
  });

  it('409 without an invoice number, 404 for another tenant’s booking; nothing queued', async () => {
    const none = await t.booking(t.A, { invoiceNumber: null });
    const theirs = await t.booking(t.B);
    const conflict = await t.call('POST', `/bookings/${none.id}/invoice-mail`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toContain(none.id);
    expect(conflict.body.errors).toEqual([
      {
        field: 'invoiceNumber',
        rule: 'noNumber',
        message: 'invoiceNumber: the booking has no invoice number',
      },
    ]);
    const foreign = await t.call('POST', `/bookings/${theirs.id}/invoice-mail`);
    expect(foreign.status).toBe(404);
    const rows = await t.sql(`SELECT 1 FROM "Mail" WHERE "bookingId" = ANY($1::uuid[])`, [
      [none.id, theirs.id],
    ]);
    expect(rows).toEqual([]);
    expect(await t.history(none.id)).toEqual([]);
  });
});

describe('the invoice attachment of a queued mail (booking confirmation)', () => {
  const queue = (tenantId: string, bookingId: string) =>
    asTenant(tenantId, async () =>
      t.svc.app.get(PrismaService).$transaction((tx) =>
        t.svc.app.get(MailsRepository).enqueue(tx, {
          tenantId,
          kind: 'booking-confirmation',
          toAddress: 'booker@example.test',
          language: 'en',
          subject: 'Your booking',
          text: 'Thank you',
          attachments: [{ kind: 'invoice', bookingId }],
          bookingId,
        }),
      ),
    );
  const row = (id: string) =>
    t.sql<{ status: string; attempts: number; lastError: string | null }>(
      `SELECT status, attempts, "lastError" FROM "Mail" WHERE id = $1::uuid`,
      [id],
    );

  it('attaches the invoice rendered when sent, omits it for a booking without invoice number', async () => {
    const withNumber = await t.booking(t.A, { invoiceNumber: 'CONF-1' });
    const without = await t.booking(t.A, { invoiceNumber: null });
    const [a, b] = [await queue(t.A, withNumber.id), await queue(t.A, without.id)];
    const got = await t.smtp.waitFor((m) => m.parsed.headers.get('x-crm-mail-id') === a);
    expect(got.parsed.attachments.map((x) => x.filename)).toEqual(['invoice-CONF-1.pdf']);
    const bare = await t.smtp.waitFor((m) => m.parsed.headers.get('x-crm-mail-id') === b);
    expect(bare.parsed.attachments).toEqual([]);
  });

  it('gives a mail up at once when its booking is gone; retries while events does not answer', async () => {
    const gone = await t.booking(t.A);
    await t.sql(`DELETE FROM "Booking" WHERE id = $1::uuid`, [gone.id]);
    const goneMail = await queue(t.A, gone.id);
    const b = await t.booking(t.A);
    await t.senders.stop();
    let waiting = '';
    try {
      waiting = await queue(t.A, b.id);
      await eventually(async () => {
        const [r] = await row(waiting);
        expect(r.attempts).toBeGreaterThanOrEqual(2);
        expect(r.status).toBe('queued');
        expect(r.lastError).toContain('events');
      });
    } finally {
      await t.senders.start();
    }
    await eventually(async () => expect((await row(waiting))[0].status).toBe('sent'), 20_000);
    const [g] = await eventually(async () => {
      const r = await row(goneMail);
      expect(r[0].status).not.toBe('queued');
      return r;
    });
    expect(g).toMatchObject({ status: 'failed', attempts: 1 });
    expect(g.lastError).toContain('no longer exists');
  });
});

describe('BK11 PUT /bookings/{id}/invoice-number', () => {
  it('sets the number of a booking without one; history; the same number again is answered as set', async () => {
    const b = await t.booking(t.A, { invoiceNumber: null });
    const res = await t.call('PUT', `/bookings/${b.id}/invoice-number`, {
      invoiceNumber: ' EXT/2030.01_A ',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      bookingId: b.id,
      invoiceNumber: 'EXT/2030.01_A',
      invoiceDate: expect.any(String),
    });
    const again = await t.call('PUT', `/bookings/${b.id}/invoice-number`, {
      invoiceNumber: 'EXT/2030.01_A',
    });
    expect(again.status).toBe(200);
    expect(again.body.data.invoiceDate).toBe(res.body.data.invoiceDate);
    expect(await t.history(b.id)).toEqual([
      {
        action: 'invoice-number-set',
        actor: 'test-suite',
        data: { invoiceNumber: 'EXT/2030.01_A' },
      },
    ]);
    const pdf = await t.call('GET', `/bookings/${b.id}/invoice`);
    expect(await text(pdf.bytes)).toContain('Invoice number: EXT/2030.01_A');
  });

  it('409 for a booking that has a number (assigned or set), naming it', async () => {
    const b = await t.booking(t.A, { invoiceNumber: 'RE-2030-000099' });
    const res = await t.call('PUT', `/bookings/${b.id}/invoice-number`, { invoiceNumber: 'EXT-1' });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('RE-2030-000099');
    expect(res.body.errors).toEqual([
      {
        field: 'invoiceNumber',
        rule: 'hasNumber',
        message: 'invoiceNumber: the booking already has the invoice number RE-2030-000099',
      },
    ]);
    const [row] = await t.sql(`SELECT "invoiceNumber" FROM "Booking" WHERE id = $1::uuid`, [b.id]);
    expect(row.invoiceNumber).toBe('RE-2030-000099');
  });

  it('409 naming the number when another booking of the tenant has it; another tenant may use it', async () => {
    await t.booking(t.A, { invoiceNumber: 'SHARED-1' });
    const b = await t.booking(t.A, { invoiceNumber: null });
    const res = await t.call(
      'PUT',
      `/bookings/${b.id}/invoice-number`,
      { invoiceNumber: 'SHARED-1' },
      t.A,
      {
        'Accept-Language': 'de',
      },
    );
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('SHARED-1');
    expect(res.body.message).toContain('schon an eine andere Buchung vergeben');
    expect(res.body.errors).toEqual([
      { field: 'invoiceNumber', rule: 'unique', message: expect.stringContaining('SHARED-1') },
    ]);
    const other = await t.booking(t.B, { invoiceNumber: null });
    const ok = await t.call(
      'PUT',
      `/bookings/${other.id}/invoice-number`,
      { invoiceNumber: 'SHARED-1' },
      t.B,
    );
    expect(ok.status).toBe(200);
  });

  it('400 naming the field and the rule for a number out of pattern, in the caller’s language', async () => {
    const b = await t.booking(t.A, { invoiceNumber: null });
    for (const bad of ['', '-lead', 'trail-', 'with space', 'x'.repeat(51), 'ümlaut']) {
      const res = await t.call('PUT', `/bookings/${b.id}/invoice-number`, { invoiceNumber: bad });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ field: 'invoiceNumber', rule: 'invoiceNumber' });
      expect(res.body.errors[0].message).toContain('50');
    }
    // the form the service assigns (year-number) would take a number of its counter
    const assigned = await t.call('PUT', `/bookings/${b.id}/invoice-number`, {
      invoiceNumber: '2030-000007',
    });
    expect(assigned.status).toBe(400);
    expect(assigned.body.errors[0]).toMatchObject({ field: 'invoiceNumber', rule: 'assignedForm' });
    const de = await t.call(
      'PUT',
      `/bookings/${b.id}/invoice-number`,
      { invoiceNumber: '#' },
      t.A,
      {
        'Accept-Language': 'de',
      },
    );
    expect(de.body.errors[0].message).toContain('Buchstaben');
  });

  it('404 for another tenant’s booking, which keeps its state', async () => {
    const theirs = await t.booking(t.B, { invoiceNumber: null });
    const res = await t.call('PUT', `/bookings/${theirs.id}/invoice-number`, {
      invoiceNumber: 'X-1',
    });
    expect(res.status).toBe(404);
    const [row] = await t.sql(`SELECT "invoiceNumber" FROM "Booking" WHERE id = $1::uuid`, [
      theirs.id,
    ]);
    expect(row.invoiceNumber).toBeNull();
  });

  it('20 bookings racing for one number: exactly one gets it, 19 get 409', async () => {
    const bookings = await Promise.all(
      Array.from({ length: 20 }, () => t.booking(t.A, { invoiceNumber: null })),
    );
    const answers = await Promise.all(
      bookings.map((b) =>
        t.call('PUT', `/bookings/${b.id}/invoice-number`, { invoiceNumber: 'RACE-1' }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    const rows = await t.sql(
      `SELECT id FROM "Booking" WHERE "tenantId" = $1 AND "invoiceNumber" = 'RACE-1'`,
      [t.A],
    );
    expect(rows).toHaveLength(1);
  });

  it('20 numbers racing for one booking: exactly one is set, with one history entry', async () => {
    const b = await t.booking(t.A, { invoiceNumber: null });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.call('PUT', `/bookings/${b.id}/invoice-number`, { invoiceNumber: `ONE-${i}` }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    const [row] = await t.sql(`SELECT "invoiceNumber" FROM "Booking" WHERE id = $1::uuid`, [b.id]);
    expect(row.invoiceNumber).toBe(ok[0].body.data.invoiceNumber);
    expect(await t.history(b.id)).toHaveLength(1);
  });
});

describe('BK17 GET /bookings/{id}/mails', () => {
  it('lists the booking’s mails newest first, paged and sortable; not another booking’s', async () => {
    const b = await t.booking(t.A);
    const other = await t.booking(t.A);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await t.call('POST', `/bookings/${b.id}/invoice-mail`)).body.data.id);
    await t.call('POST', `/bookings/${other.id}/invoice-mail`);
    const list = await t.call('GET', `/bookings/${b.id}/mails`);
    expect(list.status).toBe(200);
    expect(list.body.metaData.totalResults).toBe(3);
    expect(list.body.data.map((m: { id: string }) => m.id)).toEqual([...ids].reverse());
    const page = await t.call('GET', `/bookings/${b.id}/mails?page=2&pageSize=2&sort=dateCreated`);
    expect(page.body.metaData.totalResults).toBe(3);
    expect(page.body.data.map((m: { id: string }) => m.id)).toEqual([ids[2]]);
    const bad = await t.call('GET', `/bookings/${b.id}/mails?sort=password`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('sort');
  });

  it('404 for another tenant’s booking', async () => {
    const theirs = await t.booking(t.B);
    await t.call('POST', `/bookings/${theirs.id}/invoice-mail`, undefined, t.B);
    const res = await t.call('GET', `/bookings/${theirs.id}/mails`);
    expect(res.status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('setInvoiceNumber, sendInvoiceMail and bookingMails, with the mail’s event as a reference', async () => {
    const b = await t.booking(t.A, { invoiceNumber: null });
    const set = await t.gql(
      `mutation($id: ID!) { setInvoiceNumber(id: $id, invoiceNumber: "GQL-1") { bookingId invoiceNumber } }`,
      { id: b.id },
    );
    expect(set.body.data.setInvoiceNumber).toEqual({ bookingId: b.id, invoiceNumber: 'GQL-1' });
    const sent = await t.gql(`mutation($id: ID!) { sendInvoiceMail(id: $id) { id kind status } }`, {
      id: b.id,
    });
    expect(sent.body.data.sendInvoiceMail).toMatchObject({ kind: 'invoice', status: 'queued' });
    const list = await t.gql(
      `query($id: ID!) { bookingMails(bookingId: $id, pageSize: 10) { totalResults items { id subject event { id } } } }`,
      { id: b.id },
    );
    expect(list.body.data.bookingMails).toEqual({
      totalResults: 1,
      items: [
        {
          id: sent.body.data.sendInvoiceMail.id,
          subject: 'Your invoice GQL-1',
          event: { id: b.eventId },
        },
      ],
    });
    const foreign = await t.gql(
      `query($id: ID!) { bookingMails(bookingId: $id) { totalResults } }`,
      { id: b.id },
      t.B,
    );
    expect(foreign.body.errors[0].extensions.statusCode).toBe(404);
    const taken = await t.gql(
      `mutation($id: ID!) { setInvoiceNumber(id: $id, invoiceNumber: "GQL-2") { invoiceNumber } }`,
      { id: b.id },
    );
    expect(taken.body.errors[0].extensions.statusCode).toBe(409);
  });
});
