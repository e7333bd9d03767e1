import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Invitation as InvitationRow, Prisma } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

export type { InvitationRow };

export const INVITATION_SORT_FIELDS = [
  'firstname',
  'lastname',
  'email',
  'status',
  'language',
  'sentAt',
  'respondedAt',
  'dateCreated',
  'dateModified',
  'id',
] as const;

export interface InvitationFilter {
  eventId?: string;
  status?: string;
  q?: string;
}

/** A row of an import, ready to insert (IN14). */
export interface NewInvitation {
  id: string;
  token: string;
  personId: string | null;
  email: string;
  firstname: string | null;
  lastname: string | null;
  language: string;
}

/** Who a change made by another service's event is recorded as made by. */
const SYSTEM = 'system';

/** Invitation rows; every query is scoped to the tenant. */
@Injectable()
export class InvitationsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  where(tenantId: string, f: InvitationFilter): Prisma.InvitationWhereInput {
    const q = f.q?.trim();
    return {
      tenantId,
      ...(f.eventId ? { eventId: f.eventId } : {}),
      ...(f.status ? { status: f.status } : {}),
      ...(q
        ? {
            OR: [
              { firstname: { contains: q, mode: 'insensitive' } },
              { lastname: { contains: q, mode: 'insensitive' } },
              { email: { contains: q, mode: 'insensitive' } },
            ],
          }
        : {}),
    };
  }

  page(
    tenantId: string,
    filter: InvitationFilter,
    opts: { skip: number; take: number; orderBy: Prisma.InvitationOrderByWithRelationInput[] },
  ): Promise<[InvitationRow[], number]> {
    const where = this.where(tenantId, filter);
    return this.prisma.$transaction([
      this.prisma.invitation.findMany({ where, ...opts }),
      this.prisma.invitation.count({ where }),
    ]);
  }

  find(tenantId: string, id: string, db: Tx = this.prisma): Promise<InvitationRow | null> {
    return db.invitation.findFirst({ where: { tenantId, id } });
  }

  findByToken(tenantId: string, token: string): Promise<InvitationRow | null> {
    return this.prisma.invitation.findFirst({ where: { tenantId, token } });
  }

  /** The tenant's invitations among `ids` (any order). */
  findMany(tenantId: string, ids: string[], db: Tx = this.prisma): Promise<InvitationRow[]> {
    return db.invitation.findMany({ where: { tenantId, id: { in: ids } } });
  }

  /** The invitation of the token, locked until the transaction ends (null: not the tenant's). */
  async lockByToken(tx: Tx, tenantId: string, token: string): Promise<InvitationRow | null> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM "Invitation" WHERE "tenantId" = ${tenantId} AND token = ${token}
      FOR UPDATE`;
    return rows.length ? this.find(tenantId, rows[0].id, tx) : null;
  }

  /** The event's invitations of `tokens`, locked in id order (a batch of public bookings). */
  lockByTokens(
    tx: Tx,
    tenantId: string,
    eventId: string,
    tokens: string[],
  ): Promise<
    {
      id: string;
      token: string;
      personId: string | null;
      status: string;
      bookingId: string | null;
      language: string;
    }[]
  > {
    return tx.$queryRaw`
      SELECT id::text, token, "personId"::text, status, "bookingId"::text, language
        FROM "Invitation"
       WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid
         AND token = ANY(${tokens}::text[])
       ORDER BY id FOR UPDATE`;
  }

  /** A public booking accepted the invitation (locked by lockByTokens). */
  async acceptByBooking(tx: Tx, id: string, bookingId: string): Promise<void> {
    await tx.$executeRaw`
        UPDATE "Invitation" SET status = 'accepted', "respondedAt" = now(),
               "bookingId" = ${bookingId}::uuid, "dateModified" = now(), "modifiedBy" = 'public'
         WHERE id = ${id}::uuid`;
  }

  /**
   * The booking of the invitation was cancelled: the invitee may book again with the same token
   * (the invitation stays accepted).
   */
  async detachBooking(tx: Tx, tenantId: string, id: string, bookingId: string): Promise<void> {
    await tx.$executeRaw`
        UPDATE "Invitation" SET "bookingId" = NULL, "dateModified" = now()
         WHERE "tenantId" = ${tenantId} AND id = ${id}::uuid
           AND "bookingId" = ${bookingId}::uuid`;
  }

  /** Withdraws the invitations of the events that are not withdrawn yet (deleted events); their ids. */
  async withdrawOfEvents(tx: Tx, tenantId: string, eventIds: string[]): Promise<string[]> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Invitation" SET status = 'withdrawn', "dateModified" = now(),
             "modifiedBy" = ${SYSTEM}, "modifiedByUserId" = NULL
       WHERE "tenantId" = ${tenantId} AND "eventId" = ANY(${eventIds}::uuid[])
         AND status <> 'withdrawn'
      RETURNING id::text`;
    return rows.map((r) => r.id);
  }

  /** W11: invitations of the events made through website `from` now name `to`; how many. */
  migrateWebsite(
    tx: Tx,
    tenantId: string,
    eventIds: string[],
    from: string,
    to: string,
  ): Promise<number> {
    return tx.$executeRaw`
      UPDATE "Invitation" SET "websiteId" = ${to}::uuid, "dateModified" = now()
       WHERE "tenantId" = ${tenantId} AND "eventId" = ANY(${eventIds}::uuid[])
         AND "websiteId" = ${from}::uuid`;
  }

  /** P20: invitations of the merged people now name the target; how many. */
  repointPeople(tx: Tx, tenantId: string, sourceIds: string[], targetId: string): Promise<number> {
    return tx.$executeRaw`
      UPDATE "Invitation" SET "personId" = ${targetId}::uuid, "dateModified" = now(),
             "modifiedBy" = ${SYSTEM}, "modifiedByUserId" = NULL
       WHERE "tenantId" = ${tenantId} AND "personId" = ANY(${sourceIds}::uuid[])`;
  }

  /** P6, P10: invitations of the people are withdrawn and lose the person; their ids. */
  async forgetPeople(tx: Tx, tenantId: string, personIds: string[]): Promise<string[]> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Invitation" SET "personId" = NULL, status = 'withdrawn', "dateModified" = now(),
             "modifiedBy" = ${SYSTEM}, "modifiedByUserId" = NULL
       WHERE "tenantId" = ${tenantId} AND "personId" = ANY(${personIds}::uuid[])
      RETURNING id::text`;
    return rows.map((r) => r.id);
  }

  /** The tenant's invitations among `ids`, locked (in id order, so two batches cannot deadlock). */
  async lockMany(tx: Tx, tenantId: string, ids: string[]): Promise<InvitationRow[]> {
    if (!ids.length) return [];
    await tx.$queryRaw`
      SELECT id FROM "Invitation" WHERE "tenantId" = ${tenantId} AND id = ANY(${ids}::uuid[])
      ORDER BY id FOR UPDATE`;
    return tx.invitation.findMany({ where: { tenantId, id: { in: ids } } });
  }

  /** Every invitation of the filter, locked (IN10 sends to each). */
  async lockFiltered(tx: Tx, tenantId: string, filter: InvitationFilter): Promise<InvitationRow[]> {
    const rows = await tx.invitation.findMany({
      where: this.where(tenantId, filter),
      select: { id: true },
    });
    return this.lockMany(
      tx,
      tenantId,
      rows.map((r) => r.id),
    );
  }

  create(tx: Tx, data: Prisma.InvitationUncheckedCreateInput): Promise<InvitationRow> {
    return tx.invitation.create({ data });
  }

  update(tx: Tx, id: string, data: Prisma.InvitationUncheckedUpdateInput): Promise<InvitationRow> {
    return tx.invitation.update({ where: { id }, data });
  }

  async updateMany(
    tx: Tx,
    tenantId: string,
    ids: string[],
    data: Prisma.InvitationUncheckedUpdateManyInput,
  ): Promise<number> {
    return (await tx.invitation.updateMany({ where: { tenantId, id: { in: ids } }, data })).count;
  }

  async deleteMany(tx: Tx, tenantId: string, ids: string[]): Promise<number> {
    return (await tx.invitation.deleteMany({ where: { tenantId, id: { in: ids } } })).count;
  }

  async emailTaken(tenantId: string, eventId: string, emailKey: string): Promise<boolean> {
    const row = await this.prisma.invitation.findFirst({
      where: { tenantId, eventId, emailKey },
      select: { id: true },
    });
    return !!row;
  }

  /** Which of the addresses (lower case) already have an invitation to the event. */
  async takenKeys(tenantId: string, eventId: string, keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows = await this.prisma.$queryRaw<{ emailKey: string }[]>`
      SELECT "emailKey" FROM "Invitation"
       WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid
         AND "emailKey" = ANY(${keys}::text[])`;
    return new Set(rows.map((r) => r.emailKey));
  }

  /**
   * Inserts an import's rows in one multi-row statement; an address already invited to the
   * event (by an earlier import, a create or a concurrent job) is left alone. Answers the ids
   * inserted (the others were skipped).
   */
  async insertMany(
    tx: Tx,
    tenantId: string,
    eventId: string,
    importJobId: string,
    actor: string,
    rows: NewInvitation[],
  ): Promise<Set<string>> {
    if (!rows.length) return new Set();
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "Invitation" (id, "tenantId", "eventId", token, "personId", email, "emailKey",
        firstname, lastname, language, status, "importJobId", "dateCreated", "dateModified",
        "createdBy", "modifiedBy")
      SELECT r.id, ${tenantId}, ${eventId}::uuid, r.token, r."personId", r.email, lower(r.email),
        r.firstname, r.lastname, r.language, 'created', ${importJobId}::uuid, now(), now(),
        ${actor}, ${actor}
        FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.token)}::text[],
             ${rows.map((r) => r.personId)}::uuid[], ${rows.map((r) => r.email)}::text[],
             ${rows.map((r) => r.firstname)}::text[], ${rows.map((r) => r.lastname)}::text[],
             ${rows.map((r) => r.language)}::text[])
          AS r(id, token, "personId", email, firstname, lastname, language)
      ON CONFLICT ("tenantId", "eventId", "emailKey") DO NOTHING
      RETURNING id::text`;
    return new Set(inserted.map((r) => r.id));
  }

  /** The invitations a job inserted already among the addresses (lower case): id by address. */
  async importedBy(
    tx: Tx,
    tenantId: string,
    eventId: string,
    importJobId: string,
    keys: string[],
  ): Promise<Map<string, string>> {
    if (!keys.length) return new Map();
    const rows = await tx.$queryRaw<{ id: string; emailKey: string }[]>`
      SELECT id::text, "emailKey" FROM "Invitation"
       WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid
         AND "importJobId" = ${importJobId}::uuid AND "emailKey" = ANY(${keys}::text[])`;
    return new Map(rows.map((r) => [r.emailKey, r.id]));
  }

  /** One page of an export, after the key of the last row (keyset: no OFFSET scans). */
  exportPage(
    tenantId: string,
    eventId: string,
    after: { dateCreated: Date; id: string } | null,
    take: number,
  ): Promise<InvitationRow[]> {
    return this.prisma.invitation.findMany({
      where: {
        tenantId,
        eventId,
        ...(after
          ? {
              OR: [
                { dateCreated: { gt: after.dateCreated } },
                { dateCreated: after.dateCreated, id: { gt: after.id } },
              ],
            }
          : {}),
      },
      orderBy: [{ dateCreated: 'asc' }, { id: 'asc' }],
      take,
    });
  }
}
