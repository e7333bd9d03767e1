import { randomUUID } from 'node:crypto';
import type { TicketTestKit } from '../../ticket-types/test/ticket-test-kit';

// Bookings and their tickets written straight into the database, as BK1 writes them (one
// EventTicket per participant, status valid, the seats taken on both counters), so the event
// tickets' tests do not depend on the bookings domain.

export interface Participant {
  firstname: string;
  lastname: string;
  email?: string | null;
}

export interface BookedEvent {
  eventId: string;
  typeId: string;
}

/** An event copied to the service with one ticket type (quota 100). */
export async function ticketedEvent(
  t: TicketTestKit,
  tenant: string,
  over: Record<string, unknown> = {},
): Promise<BookedEvent> {
  const eventId = randomUUID();
  await t.snapshot(tenant, eventId, over);
  const res = await t.call(
    'POST',
    '/tickets',
    { eventId, name: 'Regular', price: '119', currency: 'EUR', quota: 100 },
    tenant,
  );
  if (res.status !== 201) throw new Error(`ticket type: ${JSON.stringify(res.body)}`);
  return { eventId, typeId: res.body.data.id };
}

/** A booking of the participants, its tickets valid, the seats taken. Returns the ticket ids. */
export async function book(
  t: TicketTestKit,
  tenant: string,
  ev: BookedEvent,
  participants: Participant[],
  booker: { email?: string; language?: string; personId?: string | null } = {},
): Promise<{ bookingId: string; ticketIds: string[] }> {
  const bookingId = randomUUID();
  await t.sql(
    `INSERT INTO "Booking" (id, "tenantId", "eventId", status, "paymentStatus", "bookerFirstname",
       "bookerLastname", "bookerEmail", "bookerPersonId", language, currency, "totalNet", "totalTax",
       "totalGross", "confirmationToken", "createdBy", "modifiedBy")
     VALUES ($1, $2, $3, 'confirmed', 'open', 'Bea', 'Booker', $4, $5, $6, 'EUR', 0, 0, 0, $7, 'test', 'test')`,
    [
      bookingId,
      tenant,
      ev.eventId,
      booker.email ?? 'booker@example.com',
      booker.personId ?? null,
      booker.language ?? 'en',
      randomUUID(),
    ],
  );
  const ticketIds: string[] = [];
  for (const p of participants) {
    const id = randomUUID();
    ticketIds.push(id);
    await t.sql(
      `INSERT INTO "EventTicket" (id, "tenantId", "eventId", "bookingId", "ticketTypeId",
         "ticketTypeName", "priceGross", "priceNet", "priceTax", "taxRatePercent", "taxRateId",
         status, "participantFirstname", "participantLastname", "participantEmail")
       VALUES ($1, $2, $3, $4, $5, 'Regular', 119, 100, 19, 19, 'de-standard', 'valid', $6, $7, $8)`,
      [id, tenant, ev.eventId, bookingId, ev.typeId, p.firstname, p.lastname, p.email ?? null],
    );
  }
  await t.sql(`UPDATE "TicketType" SET sold = sold + $1 WHERE id = $2`, [
    participants.length,
    ev.typeId,
  ]);
  await t.sql(`UPDATE "EventCopy" SET sold = sold + $1 WHERE "tenantId" = $2 AND "eventId" = $3`, [
    participants.length,
    tenant,
    ev.eventId,
  ]);
  return { bookingId, ticketIds };
}

/** Many tickets at once (one booking per 100), for the export. */
export async function bookMany(
  t: TicketTestKit,
  tenant: string,
  ev: BookedEvent,
  count: number,
): Promise<void> {
  await t.sql(
    `WITH b AS (
       INSERT INTO "Booking" (id, "tenantId", "eventId", status, "paymentStatus", "bookerFirstname",
         "bookerLastname", "bookerEmail", language, currency, "totalNet", "totalTax", "totalGross",
         "confirmationToken", "createdBy", "modifiedBy")
       SELECT gen_random_uuid(), $1, $2::uuid, 'confirmed', 'open', 'Bulk', 'Booker',
              'bulk' || g || '@example.com', 'en', 'EUR', 0, 0, 0, md5(random()::text), 'test', 'test'
         FROM generate_series(1, ceil($4::int / 100.0)::int) g
       RETURNING id)
     INSERT INTO "EventTicket" (id, "tenantId", "eventId", "bookingId", "ticketTypeId",
       "ticketTypeName", "priceGross", "priceNet", "priceTax", "taxRatePercent", status,
       "participantFirstname", "participantLastname", "dateCreated")
     SELECT gen_random_uuid(), $1, $2::uuid, (SELECT id FROM b ORDER BY id LIMIT 1), $3::uuid,
            'Regular', 119, 100, 19, 19, 'valid', 'P' || g, 'Bulk',
            -- many share a creation time: the keyset must order by (dateCreated, id)
            timestamp '2030-01-01' + (g / 7) * interval '1 second'
       FROM generate_series(1, $4::int) g`,
    [tenant, ev.eventId, ev.typeId, count],
  );
}
