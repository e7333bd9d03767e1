import { pdfText, startSmtpServer, type TestSmtpServer } from '@crm/testing';
import { randomUUID } from 'node:crypto';
import { Client as Pg } from 'pg';
import {
  BOOKING_SERVICES,
  Client,
  eventually,
  inDays,
  startIsolatedClient,
  TestTenant,
} from './client';

// BK10, BK11, BK16, BK17 through the gateway with the events service beside bookings-invitations
// and a real SMTP server: a visitor books publicly, the invoice carries the invoice sender of the
// tenant's event settings (asked of events over NATS), and the invoice mail arrives with the PDF.
// The stack has a nats-server of its own; websites are written straight into the events database.

jest.setTimeout(120_000);

let smtp: TestSmtpServer;
let client: Client;
let pg: Pg;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  smtp = await startSmtpServer();
  client = await startIsolatedClient('invoices', BOOKING_SERVICES, {
    SMTP_URL: smtp.url,
    MAIL_POLL_INTERVAL_MS: '200',
    MAIL_RETRY_FIRST_MS: '200',
  });
  pg = new Pg({ connectionString: client.stack.processes.get('events')!.env.DATABASE_URL });
  await pg.connect();
  a = await client.tenant();
  b = await client.tenant();
}, 150_000);
afterAll(async () => {
  await pg?.end();
  await client?.stack.shutdown();
  await smtp?.stop();
}, 30_000);

/** A published event of `t` with one ticket type at `price`, bookable once its copy arrived. */
async function bookableEvent(t: TestTenant, price: string) {
  const key = `portal-${randomUUID().slice(0, 8)}.example`;
  const { rows } = await pg.query(
    `INSERT INTO "Website" (id, "tenantId", name, url, "urlKey", published, "dateModified")
     VALUES (gen_random_uuid(), $1, 'Portal', $2, $3, true, now()) RETURNING id::text AS id`,
    [t.id, `https://${key}/`, key],
  );
  const created = await client.rest(t, 'POST', '/events', {
    title: 'Invoice gala',
    startsAt: inDays(30, 18),
    endsAt: inDays(30, 21),
    timeZone: 'Europe/Berlin',
    capacity: 100,
    taxRateId: 'de-standard',
    status: 'scheduled', // a draft is not open for booking
    venue: { name: 'Hall', city: 'Berlin', country: 'DE' },
  });
  if (created.status !== 201) throw new Error(`create event: ${JSON.stringify(created.body)}`);
  const eventId = created.body.data.id as string;
  // publication needs an active ticket type (the events service asks bookings-invitations)
  const type = await client.rest(t, 'POST', '/tickets', {
    eventId,
    name: 'Standard',
    price,
    currency: 'EUR',
    quota: 50,
  });
  if (type.status !== 201) throw new Error(`ticket type: ${JSON.stringify(type.body)}`);
  const pub = await client.rest(t, 'PUT', `/events/${eventId}/publication`, {
    published: true,
    websiteIds: [rows[0].id],
  });
  if (pub.status !== 200) throw new Error(`publish: ${JSON.stringify(pub.body)}`);
  return { eventId, ticketTypeId: type.body.data.id as string };
}

/** BK1 as a visitor (no API key), retried until the published copy of the event has arrived. */
async function book(t: TestTenant, eventId: string, ticketTypeId: string, n = 2) {
  let booking: Record<string, unknown> & { id: string } = { id: '' };
  await eventually(async () => {
    const res = await client.rest(
      t,
      'POST',
      '/bookings/public',
      {
        eventId,
        booker: { firstname: 'Grace', lastname: 'Hopper', email: 'grace@example.test' },
        tickets: Array.from({ length: n }, (_, i) => ({
          ticketTypeId,
          participant: { firstname: `Guest${i + 1}`, lastname: 'Hopper' },
        })),
      },
      { Authorization: undefined },
    );
    if (res.status !== 201) throw new Error(`book: ${res.status} ${JSON.stringify(res.body)}`);
    booking = res.body.data;
  }, 20_000);
  return booking;
}

it('BK16, BK10, BK17: a public booking’s invoice has the settings’ sender; its mail arrives with the PDF', async () => {
  const settings = await client.rest(a, 'PUT', '/event-settings', {
    invoiceSender: { name: 'Gala Events GmbH', city: 'Berlin', vatId: 'DE987654321' },
  });
  expect(settings.status).toBe(200);
  const { eventId, ticketTypeId } = await bookableEvent(a, '119');
  const booking = await book(a, eventId, ticketTypeId);
  const number = booking.invoiceNumber as string;
  expect(number).toMatch(/^\d{4}-\d{6}$/);

  // BK16
  const pdf = await fetch(`${client.stack.gatewayUrl}/v1/crm/bookings/${booking.id}/invoice`, {
    headers: {
      'X-Service-TenantId': a.id,
      'X-Integration-Name': 'e2e',
      'X-Integration-Provider': 'tests',
      Authorization: `Bearer ${a.key}`,
    },
  });
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  expect(pdf.headers.get('content-disposition')).toContain(`invoice-${number}.pdf`);
  const bytes = await pdf.arrayBuffer();
  const text = (await pdfText(Buffer.from(bytes))).text.replace(/\u00a0/g, ' ');
  expect(text).toContain(`Invoice number: ${number}`);
  expect(text).toContain('Gala Events GmbH');
  expect(text).toContain('VAT ID: DE987654321');
  expect(text).toContain('Total €238.00');
  expect(text).toContain('Total tax €38.00');

  // BK10
  const queued = await client.rest(a, 'POST', `/bookings/${booking.id}/invoice-mail`);
  expect(queued.status).toBe(202);
  expect(queued.body.data).toMatchObject({
    kind: 'invoice',
    status: 'queued',
    to: 'grace@example.test',
  });
  const mail = await smtp.waitFor(
    (m) => m.parsed.headers.get('x-crm-mail-id') === queued.body.data.id,
    20_000,
  );
  expect(mail.parsed.subject).toBe(`Your invoice ${number}`);
  const attached = mail.parsed.attachments.find((x) => x.filename === `invoice-${number}.pdf`);
  expect(attached).toBeDefined();
  const mailed = (await pdfText(attached!.content)).text.replace(/\u00a0/g, ' ');
  expect(mailed).toContain(`Invoice number: ${number}`);
  expect(mailed).toContain('Total €238.00');

  // BK17: the confirmation of BK1 and the invoice mail, newest first; the invoice mail sent
  await eventually(async () => {
    const list = await client.rest(a, 'GET', `/bookings/${booking.id}/mails`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((m: { kind: string }) => m.kind)).toEqual([
      'invoice',
      'booking-confirmation',
    ]);
    expect(list.body.data[0]).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
  }, 15_000);

  // another tenant sees and changes nothing of it
  for (const [method, sub, body] of [
    ['GET', '/invoice', undefined],
    ['GET', '/mails', undefined],
    ['POST', '/invoice-mail', undefined],
    ['PUT', '/invoice-number', { invoiceNumber: 'EXT-1' }],
  ] as const) {
    const res = await client.rest(b, method, `/bookings/${booking.id}${sub}`, body);
    expect(res.status).toBe(404);
  }
  const list = await client.rest(a, 'GET', `/bookings/${booking.id}/mails`);
  expect(list.body.metaData.totalResults).toBe(2);
});

it('BK11 sets the number of a booking invoiced elsewhere; one the service assigned is a 409', async () => {
  const free = await bookableEvent(a, '0');
  const external = await book(a, free.eventId, free.ticketTypeId, 1);
  expect(external.invoiceNumber).toBeNull();
  const none = await client.rest(a, 'GET', `/bookings/${external.id}/invoice`);
  expect(none.status).toBe(404);
  const noMail = await client.rest(a, 'POST', `/bookings/${external.id}/invoice-mail`);
  expect(noMail.status).toBe(409);

  const set = await client.rest(a, 'PUT', `/bookings/${external.id}/invoice-number`, {
    invoiceNumber: 'EXT-2030-17',
  });
  expect(set.status).toBe(200);
  expect(set.body.data).toMatchObject({ bookingId: external.id, invoiceNumber: 'EXT-2030-17' });
  const read = await client.rest(a, 'GET', `/bookings/${external.id}`);
  expect(read.body.data.invoiceNumber).toBe('EXT-2030-17');
  const bad = await client.rest(
    a,
    'PUT',
    `/bookings/${external.id}/invoice-number`,
    { invoiceNumber: 'no spaces' },
    { 'Accept-Language': 'de' },
  );
  expect(bad.status).toBe(400);
  expect(bad.body.errors[0]).toMatchObject({ field: 'invoiceNumber', rule: 'invoiceNumber' });

  const paid = await bookableEvent(a, '10');
  const assigned = await book(a, paid.eventId, paid.ticketTypeId, 1);
  const refused = await client.rest(a, 'PUT', `/bookings/${assigned.id}/invoice-number`, {
    invoiceNumber: 'EXT-2030-18',
  });
  expect(refused.status).toBe(409);
  expect(refused.body.message).toContain(assigned.invoiceNumber as string);
});

it('GraphQL: setInvoiceNumber, sendInvoiceMail and bookingMails with the mail’s event from events', async () => {
  const free = await bookableEvent(a, '0');
  const booking = await book(a, free.eventId, free.ticketTypeId, 1);
  const set = await client.graphql(
    a,
    `mutation($id: ID!) { setInvoiceNumber(id: $id, invoiceNumber: "GQL-9") { invoiceNumber } }`,
    { id: booking.id },
  );
  expect(set.body.data.setInvoiceNumber).toEqual({ invoiceNumber: 'GQL-9' });
  const sent = await client.graphql(
    a,
    `mutation($id: ID!) { sendInvoiceMail(id: $id) { id kind } }`,
    {
      id: booking.id,
    },
  );
  expect(sent.body.data.sendInvoiceMail.kind).toBe('invoice');
  const list = await client.graphql(
    a,
    `query($id: ID!) { bookingMails(bookingId: $id) { totalResults items { kind event { id title } } } }`,
    { id: booking.id },
  );
  expect(list.body.errors).toBeUndefined();
  expect(list.body.data.bookingMails.items[0]).toEqual({
    kind: 'invoice',
    event: { id: free.eventId, title: 'Invoice gala' },
  });
  const foreign = await client.graphql(
    b,
    `query($id: ID!) { bookingMails(bookingId: $id) { totalResults } }`,
    {
      id: booking.id,
    },
  );
  expect(foreign.body.errors[0].extensions.statusCode).toBe(404);
});

it('CN1, CN2, Booking.creditNotes: a cancelled booking gets a credit note; its invoice stays as issued', async () => {
  const { eventId, ticketTypeId } = await bookableEvent(a, '119');
  const booking = await book(a, eventId, ticketTypeId);
  const invoiceNumber = booking.invoiceNumber as string;
  const pdf = async (t: TestTenant, path: string) => {
    const res = await fetch(`${client.stack.gatewayUrl}/v1/crm/bookings/${booking.id}${path}`, {
      headers: {
        'X-Service-TenantId': t.id,
        'X-Integration-Name': 'e2e',
        'X-Integration-Provider': 'tests',
        Authorization: `Bearer ${t.key}`,
      },
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { res, text: res.ok ? (await pdfText(bytes)).text.replace(/\u00a0/g, ' ') : '' };
  };
  const before = await pdf(a, '/invoice');
  expect(before.res.status).toBe(200);

  const cancelled = await client.rest(a, 'POST', `/bookings/${booking.id}/cancel`, {});
  expect(cancelled.status).toBe(200);
  expect((await pdf(a, '/invoice')).text).toBe(before.text);

  const list = await client.rest(a, 'GET', `/bookings/${booking.id}/credit-notes`);
  expect(list.status).toBe(200);
  expect(list.body.data).toHaveLength(1);
  const note = list.body.data[0];
  expect(note).toMatchObject({
    invoiceNumber,
    currency: 'EUR',
    fee: '0.00',
    totalGross: '-238.00',
  });
  expect(note.number).toMatch(/^\d{4}-C\d{6}$/);
  expect(note.ticketIds).toHaveLength(2);

  const file = await pdf(a, `/credit-notes/${note.id}/pdf`);
  expect(file.res.status).toBe(200);
  expect(file.res.headers.get('content-type')).toBe('application/pdf');
  expect(file.text).toContain(`Credit note number: ${note.number}`);
  expect(file.text).toContain(`Cancels invoice: ${invoiceNumber}`);
  expect(file.text).toContain('Total credited -€238.00');

  const gql = await client.graphql(
    a,
    `query($id: ID!) { booking(id: $id) { creditNotes { id number totalGross ticketIds } } }`,
    { id: booking.id },
  );
  expect(gql.body.errors).toBeUndefined();
  expect(gql.body.data.booking.creditNotes).toEqual([
    { id: note.id, number: note.number, totalGross: '-238.00', ticketIds: note.ticketIds },
  ]);

  // the cancellation mail carries the credit note
  const mail = await smtp.waitFor(
    (m) => m.parsed.attachments.some((x) => x.filename === `credit-note-${note.number}.pdf`),
    20_000,
  );
  expect(mail.to).toEqual(['grace@example.test']);

  // another tenant sees none of it
  expect((await client.rest(b, 'GET', `/bookings/${booking.id}/credit-notes`)).status).toBe(404);
  expect((await pdf(b, `/credit-notes/${note.id}/pdf`)).res.status).toBe(404);
});
