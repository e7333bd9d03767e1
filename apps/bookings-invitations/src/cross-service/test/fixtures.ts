import { randomBytes, randomUUID } from 'node:crypto';
import type { TicketTestKit } from '../../ticket-types/test/ticket-test-kit';

/** A kit with SQL on the service's database (the ticket types' or the bookings' kit). */
type Sql = Pick<TicketTestKit, 'sql'>;

// Rows of other domains written straight into the database: the cross-service tests are about
// what other services' events do to bookings and invitations, not about how those are made.

export interface BookingRow {
  id: string;
  eventId: string;
}

export async function insertBooking(
  t: Sql,
  tenantId: string,
  eventId: string,
  over: { personId?: string | null; websiteId?: string | null; email?: string } = {},
): Promise<BookingRow> {
  const id = randomUUID();
  await t.sql(
    `INSERT INTO "Booking" (id, "tenantId", "eventId", status, "paymentStatus", "bookerFirstname",
       "bookerLastname", "bookerEmail", "bookerPersonId", language, "websiteId", currency,
       "totalNet", "totalTax", "totalGross", "confirmationToken", "createdBy", "modifiedBy")
     VALUES ($1, $2, $3, 'confirmed', 'open', 'Erika', 'Muster', $4, $5, 'de', $6, 'EUR',
       '84.03', '15.97', '100.00', $7, 'test', 'test')`,
    [
      id,
      tenantId,
      eventId,
      over.email ?? 'erika@example.com',
      over.personId ?? null,
      over.websiteId ?? null,
      randomBytes(16).toString('base64url'),
    ],
  );
  return { id, eventId };
}

export async function insertInvitation(
  t: Sql,
  tenantId: string,
  eventId: string,
  over: { personId?: string | null; websiteId?: string | null; status?: string } = {},
): Promise<string> {
  const id = randomUUID();
  const email = `guest-${id.slice(0, 8)}@example.com`;
  await t.sql(
    `INSERT INTO "Invitation" (id, "tenantId", "eventId", token, "personId", email, "emailKey",
       language, status, "websiteId", "createdBy", "modifiedBy")
     VALUES ($1, $2, $3, $4, $5, $6, $6, 'en', $7, $8, 'test', 'test')`,
    [
      id,
      tenantId,
      eventId,
      randomBytes(16).toString('base64url'),
      over.personId ?? null,
      email,
      over.status ?? 'sent',
      over.websiteId ?? null,
    ],
  );
  return id;
}

export const bookingRow = (t: Sql, id: string) =>
  t
    .sql<Record<string, unknown>>(`SELECT * FROM "Booking" WHERE id = $1::uuid`, [id])
    .then((r) => r[0]);

export const invitationRow = (t: Sql, id: string) =>
  t
    .sql<Record<string, unknown>>(`SELECT * FROM "Invitation" WHERE id = $1::uuid`, [id])
    .then((r) => r[0]);

export const historyOf = (t: Sql, bookingId: string) =>
  t.sql<{ action: string; actor: string; data: Record<string, unknown> }>(
    `SELECT action, actor, data FROM "BookingHistory" WHERE "bookingId" = $1::uuid ORDER BY at, id`,
    [bookingId],
  );

/** A queued mail of an invitation (as the invitations domain queues IN9). */
export async function queueInvitationMail(
  t: Sql,
  tenantId: string,
  invitationId: string,
  eventId: string,
): Promise<string> {
  const id = randomUUID();
  await t.sql(
    `INSERT INTO "Mail" (id, "tenantId", kind, "toAddress", language, subject, text,
       "invitationId", "eventId", status)
     VALUES ($1, $2, 'invitation', 'guest@example.com', 'en', 'You are invited', 'Come', $3, $4,
       'queued')`,
    [id, tenantId, invitationId, eventId],
  );
  return id;
}

export const mailRow = (t: Sql, id: string) =>
  t
    .sql<{ status: string; lastError: string | null }>(
      `SELECT status, "lastError" FROM "Mail" WHERE id = $1::uuid`,
      [id],
    )
    .then((r) => r[0]);
