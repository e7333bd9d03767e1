import { Injectable } from '@nestjs/common';
import type { MessageArgs } from '@crm/errors';
import { SettingsReferences, SettingsStore } from '@crm/settings-lists';
import { PrismaService } from '../database/prisma.service';
import { EventSettingsList, Prisma } from '../generated/prisma/client';
import { EventsChangedNotifier } from './events-changed';
import type { Tx } from '../database/tx';

/** A client or transaction of this service, as the settings engine runs its queries on. */
export type Db = Tx | PrismaService;

/** The table of the event settings lists, for the engine. */
export function eventSettingsStore(prisma: PrismaService): SettingsStore<EventSettingsList, Db> {
  return {
    client: prisma,
    transaction: (fn) => prisma.$transaction(fn),
    table: (db) => db.eventSettingsEntry,
    sql: { table: 'EventSettingsEntry', listEnum: 'EventSettingsList' },
  };
}

/** Lists whose entry an event holds in one column of its own. */
const EVENT_COLUMN = {
  EVENT_CATEGORIES: 'categoryId',
  BOOKING_FORM_FIELD_SETS: 'bookingFormFieldSetId',
  CANCELLATION_CONDITIONS: 'cancellationConditionId',
} as const satisfies Partial<Record<EventSettingsList, keyof Prisma.EventWhereInput>>;

type ColumnList = keyof typeof EVENT_COLUMN;
const isColumnList = (list: EventSettingsList): list is ColumnList => list in EVENT_COLUMN;

type Counted = { id: string; n: number }[];

/** `contributors` as an array even if a row holds something else (jsonb_array_elements never fails). */
const CONTRIBUTORS = Prisma.sql`(CASE WHEN jsonb_typeof(e."contributors") = 'array'
  THEN e."contributors" ELSE '[]'::jsonb END)`;

/**
 * What uses the entries of the event settings lists, for the engine's S4/S5 (ES5 delete): events,
 * by a column (category, booking form field set, cancellation condition), by their contributors'
 * roles or by their tags. Every query is scoped to the tenant.
 */
@Injectable()
export class EventSettingsRepository implements SettingsReferences<EventSettingsList, Db, number> {
  constructor(
    private readonly prisma: PrismaService,
    private readonly notifier: EventsChangedNotifier,
  ) {}

  /** "used by N events". */
  usageMessage(_list: EventSettingsList, count: number): { messageKey: string; args: MessageArgs } {
    return { messageKey: 'settings.entry.usage.events', args: { count } };
  }

  /** How many events use each entry (entries nobody uses are absent), in one query. */
  async usage(
    tx: Tx,
    tenantId: string,
    list: EventSettingsList,
    ids: string[],
  ): Promise<Map<string, number>> {
    const rows = await this.countUsage(tx, tenantId, list, ids);
    return new Map(rows.map((r) => [r.id, Number(r.n)]));
  }

  private countUsage(
    tx: Tx,
    tenantId: string,
    list: EventSettingsList,
    ids: string[],
  ): Promise<Counted> {
    if (isColumnList(list)) {
      const col = Prisma.raw(`"${EVENT_COLUMN[list]}"`);
      return tx.$queryRaw<Counted>`
        SELECT ${col}::text AS "id", count(*)::int AS "n" FROM "Event"
        WHERE "tenantId" = ${tenantId} AND ${col} = ANY(${ids}::uuid[])
        GROUP BY ${col}`;
    }
    switch (list) {
      case 'ORGA_TAGS':
      case 'PORTAL_TAGS':
        // (eventId, entryId) is the key: one row per event
        return tx.$queryRaw<Counted>`
          SELECT "entryId"::text AS "id", count(*)::int AS "n" FROM "EventTag"
          WHERE "tenantId" = ${tenantId} AND "entryId" = ANY(${ids}::uuid[])
          GROUP BY "entryId"`;
      case 'CONTRIBUTOR_ROLES':
        return tx.$queryRaw<Counted>`
          SELECT lower(c->>'roleId') AS "id", count(DISTINCT e."id")::int AS "n"
          FROM "Event" e CROSS JOIN LATERAL jsonb_array_elements(${CONTRIBUTORS}) AS c
          WHERE e."tenantId" = ${tenantId} AND e."contributors" <> '[]'::jsonb
            AND lower(c->>'roleId') = ANY(${ids}::text[])
          GROUP BY 1`;
    }
  }

  /**
   * Removes every reference to the entries (ES5 delete with force=true), one statement: tags come
   * off the events, the columns become null, contributors keep their place without the role.
   * The events' sequence grows (their calendar view may change) and dateModified is set.
   */
  async removeReferences(
    tx: Tx,
    tenantId: string,
    list: EventSettingsList,
    ids: string[],
  ): Promise<void> {
    if (isColumnList(list)) {
      const col = Prisma.raw(`"${EVENT_COLUMN[list]}"`);
      const changed = await tx.$queryRaw<{ id: string }[]>`
        UPDATE "Event" SET ${col} = NULL, "sequence" = "sequence" + 1,
          "dateModified" = (now() AT TIME ZONE 'UTC')
        WHERE "tenantId" = ${tenantId} AND ${col} = ANY(${ids}::uuid[])
        RETURNING "id"::text AS "id"`;
      // the category is no part of the snapshot other services keep
      if (list !== 'EVENT_CATEGORIES')
        await this.notifier.changed(
          tx,
          tenantId,
          changed.map((r) => r.id),
        );
      return;
    }
    switch (list) {
      case 'ORGA_TAGS':
      case 'PORTAL_TAGS':
        await tx.eventTag.deleteMany({ where: { tenantId, entryId: { in: ids } } });
        return;
      case 'CONTRIBUTOR_ROLES':
        await tx.$executeRaw`
          UPDATE "Event" e SET
            "contributors" = (
              SELECT jsonb_agg(CASE WHEN lower(x.c->>'roleId') = ANY(${ids}::text[])
                THEN jsonb_set(x.c, '{roleId}', 'null'::jsonb) ELSE x.c END ORDER BY x.i)
              FROM jsonb_array_elements(e."contributors") WITH ORDINALITY AS x(c, i)),
            "sequence" = e."sequence" + 1,
            "dateModified" = (now() AT TIME ZONE 'UTC')
          WHERE e."tenantId" = ${tenantId} AND EXISTS (
            SELECT 1 FROM jsonb_array_elements(${CONTRIBUTORS}) AS c
            WHERE lower(c->>'roleId') = ANY(${ids}::text[]))`;
        return;
    }
  }

  /**
   * The data of entry `id` of a list whose data is part of the events' snapshot changed (the
   * tiers of a cancellation condition, the fields of a booking form field set): the events using
   * it get a new sequence and their snapshots are announced (bookings made from now on use them).
   */
  async snapshotDataChanged(
    tx: Tx,
    tenantId: string,
    list: 'CANCELLATION_CONDITIONS' | 'BOOKING_FORM_FIELD_SETS',
    id: string,
  ): Promise<void> {
    const col = Prisma.raw(`"${EVENT_COLUMN[list]}"`);
    const changed = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Event" SET "sequence" = "sequence" + 1, "dateModified" = (now() AT TIME ZONE 'UTC')
      WHERE "tenantId" = ${tenantId} AND ${col} = ${id}::uuid
      RETURNING "id"::text AS "id"`;
    await this.notifier.changed(
      tx,
      tenantId,
      changed.map((r) => r.id),
    );
  }

  /** The `data` of the tenant's entries among `ids` (entries without data are absent). */
  async dataOf(
    tenantId: string,
    ids: string[],
    db: Db = this.prisma,
  ): Promise<Map<string, unknown>> {
    if (!ids.length) return new Map();
    const rows = await db.eventSettingsEntry.findMany({
      where: { tenantId, id: { in: ids } },
      select: { id: true, data: true },
    });
    return new Map(rows.filter((r) => r.data !== null).map((r) => [r.id, r.data]));
  }

  /** One entry's `data` if it is the tenant's entry of `list`; undefined otherwise. */
  async entryData(
    tenantId: string,
    list: EventSettingsList,
    id: string,
    db: Db = this.prisma,
  ): Promise<unknown> {
    const row = await db.eventSettingsEntry.findFirst({
      where: { tenantId, list, id },
      select: { data: true },
    });
    return row ? row.data : undefined;
  }
}
