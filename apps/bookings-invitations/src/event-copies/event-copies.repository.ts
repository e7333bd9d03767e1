import { Injectable } from '@nestjs/common';
import type { EventChangedEvent } from '@crm/messaging';
import { PrismaService } from '../database/prisma.service';
import type { EventCopy } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

export type EventCopyRecord = EventCopy;

/** EventCopy rows: this service's own copy of what it needs of the events service's events. */
@Injectable()
export class EventCopiesRepository {
  constructor(private readonly prisma: PrismaService) {}

  find(tenantId: string, eventId: string, db: Tx = this.prisma): Promise<EventCopy | null> {
    return db.eventCopy.findUnique({ where: { tenantId_eventId: { tenantId, eventId } } });
  }

  /**
   * Whether the event is deleted here, holding its copy (if any) against a concurrent deletion
   * until the transaction ends: the deletion waits, then removes what this transaction wrote.
   */
  /** The websites' invitation links of the tenant's copies of `eventIds`: event id -> links. */
  async websiteLinksOf(
    tenantId: string,
    eventIds: string[],
    db: Tx = this.prisma,
  ): Promise<Map<string, unknown>> {
    if (!eventIds.length) return new Map();
    const rows = await db.eventCopy.findMany({
      where: { tenantId, eventId: { in: eventIds } },
      select: { eventId: true, websiteLinks: true },
    });
    return new Map(rows.map((r) => [r.eventId, r.websiteLinks]));
  }

  /** What an invoice says of the event (null: no copy). */
  invoiceFacts(tenantId: string, eventId: string) {
    return this.prisma.eventCopy.findUnique({
      where: { tenantId_eventId: { tenantId, eventId } },
      select: { title: true, startsAt: true, timeZone: true },
    });
  }

  /** Title and dates of the tenant's copies of `eventIds` (ticket codes and PDFs). */
  datesOf(tenantId: string, eventIds: string[]) {
    return this.prisma.eventCopy.findMany({
      where: { tenantId, eventId: { in: eventIds } },
      select: { eventId: true, title: true, startsAt: true, endsAt: true },
    });
  }

  async deletedForShare(tx: Tx, tenantId: string, eventId: string): Promise<boolean> {
    const rows = await tx.$queryRaw<{ deleted: boolean }[]>`
      SELECT deleted FROM "EventCopy"
       WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid FOR SHARE`;
    return rows[0]?.deleted ?? false;
  }

  /**
   * Keeps the snapshot when it is newer than the copy (a higher sequence): JetStream may
   * redeliver an older one after a newer one. A deleted event stays deleted. A snapshot without
   * `bookingFormFields` (an older producer) keeps the fields the copy has; one without the sale
   * terms (`holdMinutes`, `paymentDeadlineHours`, `paymentReminderHours`, `maxTicketsPerBuyer`,
   * `waitingListOfferMinutes`) keeps the copy's terms, a new copy the column defaults (15
   * minutes, no deadline, no reminder, no limit per buyer, offers of 1440 minutes).
   */
  async applySnapshot(tx: Tx, e: EventChangedEvent): Promise<boolean> {
    const hasFields = e.bookingFormFields !== undefined;
    const fields = e.bookingFormFields == null ? null : JSON.stringify(e.bookingFormFields);
    const hold = e.holdMinutes ?? null;
    const hasDeadline = e.paymentDeadlineHours !== undefined;
    const hasReminder = e.paymentReminderHours !== undefined;
    const hasMax = e.maxTicketsPerBuyer !== undefined;
    const offerMinutes = e.waitingListOfferMinutes ?? null;
    const hasLinks = e.websites !== undefined;
    const links = hasLinks
      ? JSON.stringify(Object.fromEntries(e.websites!.map((w) => [w.id, w.invitationLink])))
      : null;
    // a website of an older producer has no waiting-list link: the fallback serves its entries
    const waitingLinks = hasLinks
      ? JSON.stringify(
          Object.fromEntries(
            e.websites!.filter((w) => w.waitingListLink).map((w) => [w.id, w.waitingListLink]),
          ),
        )
      : null;
    const n = await tx.$executeRaw`
      INSERT INTO "EventCopy" ("tenantId", "eventId", sequence, title, "startsAt", "endsAt",
        "timeZone", capacity, published, status, "taxRateId", "cancellationTiers",
        "bookingFormFieldSetId", "bookingFormFields", "websiteIds", "holdMinutes",
        "paymentDeadlineHours", "paymentReminderHours", "maxTicketsPerBuyer", "websiteLinks",
        "waitingListOfferMinutes", "waitingListLinks", deleted, "dateModified")
      VALUES (${e.tenantId}, ${e.eventId}::uuid, ${e.sequence}, ${e.title},
        ${e.startsAt ? new Date(e.startsAt) : null}, ${e.endsAt ? new Date(e.endsAt) : null},
        ${e.timeZone}, ${e.capacity ?? null}, ${e.published}, ${e.status}, ${e.taxRateId ?? null},
        ${e.cancellationTiers == null ? null : JSON.stringify(e.cancellationTiers)}::jsonb,
        ${e.bookingFormFieldSetId ?? null}::uuid, ${fields}::jsonb, ${e.websiteIds}::uuid[],
        -- 15: the column's default, for a snapshot without it
        coalesce(${hold}::int, 15), ${e.paymentDeadlineHours ?? null}::int,
        ${e.paymentReminderHours ?? null}::int, ${e.maxTicketsPerBuyer ?? null}::int,
        ${links}::jsonb, coalesce(${offerMinutes}::int, 1440), ${waitingLinks}::jsonb, false,
        now())
      ON CONFLICT ("tenantId", "eventId") DO UPDATE SET
        sequence = excluded.sequence, title = excluded.title, "startsAt" = excluded."startsAt",
        "endsAt" = excluded."endsAt", "timeZone" = excluded."timeZone",
        capacity = excluded.capacity, published = excluded.published, status = excluded.status,
        "taxRateId" = excluded."taxRateId", "cancellationTiers" = excluded."cancellationTiers",
        "bookingFormFieldSetId" = excluded."bookingFormFieldSetId",
        "bookingFormFields" = CASE WHEN ${hasFields} THEN excluded."bookingFormFields"
          ELSE "EventCopy"."bookingFormFields" END,
        "websiteIds" = excluded."websiteIds",
        "holdMinutes" = CASE WHEN ${hold !== null} THEN excluded."holdMinutes"
          ELSE "EventCopy"."holdMinutes" END,
        "paymentDeadlineHours" = CASE WHEN ${hasDeadline} THEN excluded."paymentDeadlineHours"
          ELSE "EventCopy"."paymentDeadlineHours" END,
        "paymentReminderHours" = CASE WHEN ${hasReminder} THEN excluded."paymentReminderHours"
          ELSE "EventCopy"."paymentReminderHours" END,
        "maxTicketsPerBuyer" = CASE WHEN ${hasMax} THEN excluded."maxTicketsPerBuyer"
          ELSE "EventCopy"."maxTicketsPerBuyer" END,
        "waitingListOfferMinutes" = CASE WHEN ${offerMinutes !== null}
          THEN excluded."waitingListOfferMinutes" ELSE "EventCopy"."waitingListOfferMinutes" END,
        "websiteLinks" = CASE WHEN ${hasLinks} THEN excluded."websiteLinks"
          ELSE "EventCopy"."websiteLinks" END,
        "waitingListLinks" = CASE WHEN ${hasLinks} THEN excluded."waitingListLinks"
          ELSE "EventCopy"."waitingListLinks" END,
        "dateModified" = now()
      WHERE excluded.sequence > "EventCopy".sequence AND NOT "EventCopy".deleted`;
    return n > 0;
  }

  /**
   * Marks the events deleted; an event this service never saw gets a tombstone, so a late
   * snapshot of it cannot bring it back.
   */
  async markDeleted(tx: Tx, tenantId: string, eventIds: string[]): Promise<void> {
    await tx.$executeRaw`
      INSERT INTO "EventCopy" ("tenantId", "eventId", sequence, title, "timeZone", published,
        status, "websiteIds", deleted, "dateModified")
      SELECT ${tenantId}, id, 0, '', 'UTC', false, 'deleted', '{}'::uuid[], true, now()
        FROM unnest(${eventIds}::uuid[]) AS id
      ON CONFLICT ("tenantId", "eventId") DO UPDATE SET deleted = true, published = false,
        "dateModified" = now()`;
  }

  /** W11: the events' references to `websiteId` now name `targetWebsiteId` (each once). */
  async migrateWebsite(
    tx: Tx,
    tenantId: string,
    eventIds: string[],
    websiteId: string,
    targetWebsiteId: string,
  ): Promise<number> {
    return tx.$executeRaw`
      UPDATE "EventCopy" SET "dateModified" = now(), "websiteIds" = ARRAY(
          SELECT DISTINCT w FROM unnest(
            array_replace("websiteIds", ${websiteId}::uuid, ${targetWebsiteId}::uuid)) AS w
          ORDER BY w)
        WHERE "tenantId" = ${tenantId} AND "eventId" = ANY(${eventIds}::uuid[])
          AND ${websiteId}::uuid = ANY("websiteIds")`;
  }
}
