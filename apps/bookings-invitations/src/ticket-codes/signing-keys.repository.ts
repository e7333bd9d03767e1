import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Tx } from '../database/tx';

/** A Prisma client or transaction client (raw statements only). */
export type KeyWriter = Pick<Tx, '$executeRaw'>;

/** A key pair as stored (PEM, the private key sealed). */
export interface NewKeyRow {
  tenantId: string;
  eventId: string;
  keyId: string;
  publicKey: string;
  privateKey: string;
}

export interface KeyRow {
  eventId: string;
  keyId: string;
  publicKey: string;
  privateKey: string;
  dateCreated: Date;
  retiredAt: Date | null;
}

/** A key with what decides whether codes it signed are still accepted. */
export interface KeyForVerification {
  publicKey: string;
  retiredAt: Date | null;
  startsAt: Date | null;
  endsAt: Date | null;
}

/**
 * EventSigningKey rows: the Ed25519 key pairs of each event, one current (retiredAt null; a
 * partial unique index keeps it to one) and those rotated away. A key's pair never changes once
 * written (only sealed anew: the private key is stored sealed, see SigningKeys); a rotation only
 * sets the current key's retiredAt and adds the next.
 */
@Injectable()
export class SigningKeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The current keys of the events (at most one each). */
  current(tenantId: string, eventIds: string[]): Promise<KeyRow[]> {
    if (!eventIds.length) return Promise.resolve([]);
    return this.prisma.$queryRaw<KeyRow[]>`
      SELECT "eventId"::text AS "eventId", "keyId", "publicKey", "privateKey", "dateCreated", "retiredAt"
        FROM "EventSigningKey"
       WHERE "tenantId" = ${tenantId} AND "eventId" = ANY(${eventIds}::uuid[]) AND "retiredAt" IS NULL`;
  }

  /** Every key of the event: the current one first, then the retired ones, latest first. */
  all(tenantId: string, eventId: string): Promise<KeyRow[]> {
    return this.prisma.$queryRaw<KeyRow[]>`
      SELECT "eventId"::text AS "eventId", "keyId", "publicKey", "privateKey", "dateCreated", "retiredAt"
        FROM "EventSigningKey"
       WHERE "tenantId" = ${tenantId} AND "eventId" = ${eventId}::uuid
       ORDER BY "retiredAt" DESC NULLS FIRST, "dateCreated" DESC, "keyId"`;
  }

  /** The key `keyId` of the event with its state and the event's dates (this service's copy). */
  async forVerification(
    tenantId: string,
    eventId: string,
    keyId: string,
  ): Promise<KeyForVerification | null> {
    const rows = await this.prisma.$queryRaw<KeyForVerification[]>`
      SELECT k."publicKey", k."retiredAt", c."startsAt", c."endsAt"
        FROM "EventSigningKey" k
        LEFT JOIN "EventCopy" c ON c."tenantId" = k."tenantId" AND c."eventId" = k."eventId"
       WHERE k."tenantId" = ${tenantId} AND k."eventId" = ${eventId}::uuid AND k."keyId" = ${keyId}`;
    return rows[0] ?? null;
  }

  /**
   * Writes the event's key unless it has a current one, in the caller's transaction (static: the
   * ticket types' writes call it with their transaction). Concurrent writers agree on the first
   * key (the partial unique index of the current key is the conflict target).
   */
  static async insertIfMissing(tx: KeyWriter, k: NewKeyRow): Promise<void> {
    await tx.$executeRaw`
      INSERT INTO "EventSigningKey" ("tenantId", "eventId", "keyId", "publicKey", "privateKey")
      VALUES (${k.tenantId}, ${k.eventId}::uuid, ${k.keyId}, ${k.publicKey}, ${k.privateKey})
      ON CONFLICT ("tenantId", "eventId") WHERE "retiredAt" IS NULL DO NOTHING`;
  }

  /** insertIfMissing outside a transaction. */
  insert(k: NewKeyRow): Promise<void> {
    return SigningKeysRepository.insertIfMissing(this.prisma, k);
  }

  /**
   * Retires the event's current key (if any) and makes `next` current, in one transaction;
   * the retired key's id and when it was retired. Rotations of one event queue on an advisory
   * lock of the event's keys, so each retires the key the previous one wrote (with the row lock
   * alone, a second rotation waiting on the current row would find it retired, retire nothing and
   * then collide with the first one's key). A first key written concurrently by a ticket type
   * (insertIfMissing, which takes no lock) wins the index: the loop then retires it.
   */
  rotate(next: NewKeyRow): Promise<{ retiredKeyId: string | null; at: Date }> {
    return this.prisma.$transaction(async (tx) => {
      const lock = `EventSigningKey:${next.tenantId}:${next.eventId}`;
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${lock}, 0))`;
      for (let attempt = 0; ; attempt++) {
        const retired = await tx.$queryRaw<{ keyId: string; retiredAt: Date }[]>`
          UPDATE "EventSigningKey" SET "retiredAt" = clock_timestamp()
           WHERE "tenantId" = ${next.tenantId} AND "eventId" = ${next.eventId}::uuid
             AND "retiredAt" IS NULL
          RETURNING "keyId", "retiredAt"`;
        const inserted = await tx.$queryRaw<{ dateCreated: Date }[]>`
          INSERT INTO "EventSigningKey" ("tenantId", "eventId", "keyId", "publicKey", "privateKey", "dateCreated")
          VALUES (${next.tenantId}, ${next.eventId}::uuid, ${next.keyId}, ${next.publicKey}, ${next.privateKey}, clock_timestamp())
          ON CONFLICT ("tenantId", "eventId") WHERE "retiredAt" IS NULL DO NOTHING
          RETURNING "dateCreated"`;
        if (inserted.length) {
          return { retiredKeyId: retired[0]?.keyId ?? null, at: inserted[0]!.dateCreated };
        }
        if (attempt > 2) throw new Error(`rotation of ${next.eventId}: no current key to replace`);
      }
    });
  }

  /**
   * Up to `limit` keys after (`tenantId`, `eventId`, `keyId`) whose private key is not sealed
   * with the key `prefix` names (plain, or sealed with an older key): the re-seal's next batch.
   */
  keysToReseal(
    prefix: string,
    after: { tenantId: string; eventId: string; keyId: string } | null,
    limit: number,
  ): Promise<{ tenantId: string; eventId: string; keyId: string; privateKey: string }[]> {
    return this.prisma.$queryRaw`
      SELECT "tenantId", "eventId"::text AS "eventId", "keyId", "privateKey" FROM "EventSigningKey"
      WHERE NOT starts_with("privateKey", ${prefix})
        AND (${after?.tenantId ?? null}::text IS NULL
             OR ("tenantId", "eventId", "keyId") >
                (${after?.tenantId ?? null}::text, ${after?.eventId ?? null}::uuid, ${after?.keyId ?? null}::text))
      ORDER BY "tenantId", "eventId", "keyId" LIMIT ${limit}`;
  }

  /** Replaces a stored private key if it is still `from` (the same key, sealed anew); whether it did. */
  async replacePrivateKey(
    k: { tenantId: string; eventId: string; keyId: string },
    from: string,
    to: string,
  ): Promise<boolean> {
    const n = await this.prisma.$executeRaw`
      UPDATE "EventSigningKey" SET "privateKey" = ${to}
      WHERE "tenantId" = ${k.tenantId} AND "eventId" = ${k.eventId}::uuid AND "keyId" = ${k.keyId}
        AND "privateKey" = ${from}`;
    return n === 1;
  }

  /** Events with ticket types but no key (a small table: ticket types only). */
  eventsWithoutKey(): Promise<{ tenantId: string; eventId: string }[]> {
    return this.prisma.$queryRaw<{ tenantId: string; eventId: string }[]>`
      SELECT DISTINCT t."tenantId", t."eventId"::text AS "eventId" FROM "TicketType" t
       WHERE NOT EXISTS (SELECT 1 FROM "EventSigningKey" k
                          WHERE k."tenantId" = t."tenantId" AND k."eventId" = t."eventId")`;
  }
}
