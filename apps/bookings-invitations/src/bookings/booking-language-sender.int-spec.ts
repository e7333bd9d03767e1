import { randomUUID } from 'node:crypto';
import { startSmtpServer, type TestSmtpServer } from '@crm/testing';
import { InvoiceSenderStandIn } from '../invoices/test/invoice-test-kit';
import { FAST_MAIL_ENV } from '../mails/test/mail-test-kit';
import { BookingTestKit } from './test/booking-test-kit';

// Issue 20: a booking made with an invitation takes the invitation's language (its answer, its
// mails), and mails go out under the tenant's sender name with MAIL_FROM's address. The real
// service, its own NATS (a stand-in answers for the events service's invoice sender) and a real
// SMTP server.

jest.setTimeout(90_000);

let t: BookingTestKit;
let smtp: TestSmtpServer;
let senders: InvoiceSenderStandIn;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await BookingTestKit.start('bookings_invitations_it_booking_language_sender', {
    env: { SMTP_URL: smtp.url, ...FAST_MAIL_ENV },
  });
  senders = new InvoiceSenderStandIn(t.nc);
  await senders.start();
  // quotes and umlauts in the name: nodemailer must quote or encode them, not break the header
  senders.senders.set(t.A, {
    sender: { name: 'ACME "Events" Müller GmbH', city: 'Berlin' },
    currency: 'EUR',
    timeZone: 'Europe/Berlin',
  });
}, 90_000);
afterAll(async () => {
  await senders?.stop();
  await t?.close();
  await smtp?.stop();
});

async function invitation(eventId: string, language: string, tenant = t.A) {
  const id = randomUUID();
  const token = randomUUID().replace(/-/g, '');
  await t.sql(
    `INSERT INTO "Invitation" (id, "tenantId", "eventId", token, email, "emailKey", language,
       status, "createdBy", "modifiedBy")
     VALUES ($1, $2, $3, $4, $5, $5, $6, 'sent', 'test', 'test')`,
    [id, tenant, eventId, token, `${id}@example.org`, language],
  );
  return { id, token };
}

const confirmationTo = (email: string) =>
  smtp.waitFor((m) => m.to.includes(email) && m.parsed.attachments.length > 0, 30_000);

describe('a booking with an invitation', () => {
  it('takes the German invitation’s language over Accept-Language: booking, confirmation mail', async () => {
    const eventId = await t.event();
    const type = await t.ticketType(eventId, { price: '0' });
    const inv = await invitation(eventId, 'de');
    const email = `de-${randomUUID().slice(0, 8)}@example.org`;
    const res = await t.book(
      eventId,
      [{ ticketTypeId: type }],
      { invitationToken: inv.token, booker: { firstname: 'Jörg', lastname: 'Gast', email } },
      t.A,
      { 'Accept-Language': 'en' },
    );
    expect(res.status).toBe(201);
    expect(res.body.data.language).toBe('de');
    const [row] = await t.sql<{ language: string }>(
      `SELECT language FROM "Booking" WHERE id = $1::uuid`,
      [res.body.data.id],
    );
    expect(row.language).toBe('de');

    const mail = await confirmationTo(email);
    expect(mail.parsed.subject).toBe('Ihre Buchung: Summit');
    expect(mail.parsed.text).toContain('vielen Dank für Ihre Buchung');
    expect(mail.parsed.from?.value).toEqual([
      { name: 'ACME "Events" Müller GmbH', address: 'events@crm.localhost' },
    ]);
  });

  it('without an invitation keeps Accept-Language; a tenant without a sender name gets MAIL_FROM', async () => {
    const eventId = await t.event(t.B);
    const type = await t.ticketType(eventId, { price: '0' }, t.B);
    const email = `en-${randomUUID().slice(0, 8)}@example.org`;
    const res = await t.book(
      eventId,
      [{ ticketTypeId: type }],
      { booker: { firstname: 'Ann', lastname: 'Guest', email } },
      t.B,
      { 'Accept-Language': 'en' },
    );
    expect(res.status).toBe(201);
    expect(res.body.data.language).toBe('en');
    const mail = await confirmationTo(email);
    expect(mail.parsed.subject).toBe('Your booking: Summit');
    expect(mail.parsed.from?.value).toEqual([
      { name: 'CRM Events', address: 'events@crm.localhost' },
    ]);
  });
});
