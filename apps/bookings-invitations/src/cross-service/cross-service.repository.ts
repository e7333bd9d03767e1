import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/prisma/client';

export type Tx = Prisma.TransactionClient;

/** Who a change made by another service's event is recorded as made by. */
export const SYSTEM = 'system';

/** A booking whose booker reference changed: what its history entry needs. */
export interface ChangedBooking {
  id: string;
  eventId: string;
  personId: string;
}

/**
 * The writes other services' events cause on bookings and invitations (src/cross-service): one
 * statement each, scoped to the tenant, changing only rows that still need the change, so a
 * repeated event changes nothing.
 */
@Injectable()
export class CrossServiceRepository {
  /**
   * Locks the events' ticket types in id order, the order a booking takes them in before the
   * event's capacity row, so a deletion and a booking of the event never wait on each other.
   */
  async lockTicketTypes(tx: Tx, tenantId: string, eventIds: string[]): Promise<void> {
    await tx.$queryRaw`
      SELECT id FROM "TicketType"
       WHERE "tenantId" = ${tenantId} AND "eventId" = ANY(${eventIds}::uuid[])
       ORDER BY id FOR UPDATE`;
  }

  /** The confirmed bookings of the events, oldest first (cancelled ones stay as they are). */
  async confirmedBookings(tx: Tx, tenantId: string, eventIds: string[]): Promise<string[]> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM "Booking"
       WHERE "tenantId" = ${tenantId} AND "eventId" = ANY(${eventIds}::uuid[])
         AND status = 'confirmed'
       ORDER BY "dateCreated", id`;
    return rows.map((r) => r.id);
  }

  /** Withdraws the invitations of the events that are not withdrawn yet; their ids. */
  async withdrawInvitationsOfEvents(
    tx: Tx,
    tenantId: string,
    eventIds: string[],
  ): Promise<string[]> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Invitation" SET status = 'withdrawn', "dateModified" = now(),
             "modifiedBy" = ${SYSTEM}, "modifiedByUserId" = NULL
       WHERE "tenantId" = ${tenantId} AND "eventId" = ANY(${eventIds}::uuid[])
         AND status <> 'withdrawn'
      RETURNING id::text`;
    return rows.map((r) => r.id);
  }

  /**
   * The queued mails of withdrawn invitations (the invitation, free texts to the invitee) are
   * not sent: `failed` with the reason, as BK17/IN17 show it. Mails of bookings still go.
   */
  dropInvitationMails(
    tx: Tx,
    tenantId: string,
    invitationIds: string[],
    reason: string,
  ): Promise<number> {
    if (!invitationIds.length) return Promise.resolve(0);
    return tx.$executeRaw`
      UPDATE "Mail" SET status = 'failed', "lastError" = ${reason}
       WHERE "tenantId" = ${tenantId} AND "invitationId" = ANY(${invitationIds}::uuid[])
         AND "bookingId" IS NULL AND status = 'queued'`;
  }

  /** W11: bookings and invitations of the events made through `from` now name `to`. */
  async migrateWebsite(
    tx: Tx,
    tenantId: string,
    eventIds: string[],
    from: string,
    to: string,
  ): Promise<{ bookings: number; invitations: number }> {
    const bookings = await tx.$executeRaw`
      UPDATE "Booking" SET "websiteId" = ${to}::uuid, "dateModified" = now()
       WHERE "tenantId" = ${tenantId} AND "eventId" = ANY(${eventIds}::uuid[])
         AND "websiteId" = ${from}::uuid`;
    const invitations = await tx.$executeRaw`
      UPDATE "Invitation" SET "websiteId" = ${to}::uuid, "dateModified" = now()
       WHERE "tenantId" = ${tenantId} AND "eventId" = ANY(${eventIds}::uuid[])
         AND "websiteId" = ${from}::uuid`;
    return { bookings, invitations };
  }

  /** P20: bookings and invitations of the merged people now name the target. */
  async repointPeople(
    tx: Tx,
    tenantId: string,
    sourceIds: string[],
    targetId: string,
  ): Promise<{ bookings: ChangedBooking[]; invitations: number }> {
    // the old value comes from a self-join: RETURNING sees the row as updated
    const bookings = await tx.$queryRaw<ChangedBooking[]>`
      UPDATE "Booking" b SET "bookerPersonId" = ${targetId}::uuid, "dateModified" = now(),
             "modifiedBy" = ${SYSTEM}, "modifiedByUserId" = NULL
        FROM "Booking" old
       WHERE old.id = b.id AND b."tenantId" = ${tenantId}
         AND b."bookerPersonId" = ANY(${sourceIds}::uuid[])
      RETURNING b.id::text, b."eventId"::text AS "eventId", old."bookerPersonId"::text AS "personId"`;
    const invitations = await tx.$executeRaw`
      UPDATE "Invitation" SET "personId" = ${targetId}::uuid, "dateModified" = now(),
             "modifiedBy" = ${SYSTEM}, "modifiedByUserId" = NULL
       WHERE "tenantId" = ${tenantId} AND "personId" = ANY(${sourceIds}::uuid[])`;
    return { bookings, invitations };
  }

  /**
   * P6, P10: the people are gone. Their invitations are withdrawn and lose the person; their
   * bookings lose the person and keep the booker's name and e-mail (accounting).
   */
  async forgetPeople(
    tx: Tx,
    tenantId: string,
    personIds: string[],
  ): Promise<{ bookings: ChangedBooking[]; invitations: string[] }> {
    const bookings = await tx.$queryRaw<ChangedBooking[]>`
      UPDATE "Booking" b SET "bookerPersonId" = NULL, "dateModified" = now(),
             "modifiedBy" = ${SYSTEM}, "modifiedByUserId" = NULL
        FROM "Booking" old
       WHERE old.id = b.id AND b."tenantId" = ${tenantId}
         AND b."bookerPersonId" = ANY(${personIds}::uuid[])
      RETURNING b.id::text, b."eventId"::text AS "eventId", old."bookerPersonId"::text AS "personId"`;
    const invitations = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Invitation" SET "personId" = NULL, status = 'withdrawn', "dateModified" = now(),
             "modifiedBy" = ${SYSTEM}, "modifiedByUserId" = NULL
       WHERE "tenantId" = ${tenantId} AND "personId" = ANY(${personIds}::uuid[])
      RETURNING id::text`;
    return { bookings, invitations: invitations.map((r) => r.id) };
  }
}
