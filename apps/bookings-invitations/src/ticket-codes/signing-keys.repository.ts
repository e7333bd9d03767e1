import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { EventSigningKey, Prisma } from '../generated/prisma/client';

/** A Prisma client or transaction client (raw statements only). */
export type KeyWriter = Pick<Prisma.TransactionClient, '$executeRaw'>;

/**
 * EventSigningKey rows: one Ed25519 key pair per event, never changed once written (only sealed
 * anew: the private key is stored sealed, see SigningKeys).
 */
@Injectable()
export class SigningKeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  find(tenantId: string, eventId: string): Promise<EventSigningKey | null> {
    return this.prisma.eventSigningKey.findUnique({
      where: { tenantId_eventId: { tenantId, eventId } },
    });
  }

  /**
   * Writes the event's key unless it has one, in the caller's transaction (static: the ticket
   * types' writes call it with their transaction). Concurrent writers agree on the first key.
   */
  static async insertIfMissing(
    tx: KeyWriter,
    k: { tenantId: string; eventId: string; keyId: string; publicKey: string; privateKey: string },
  ): Promise<void> {
    await tx.$executeRaw`
      INSERT INTO "EventSigningKey" ("tenantId", "eventId", "keyId", "publicKey", "privateKey")
      VALUES (${k.tenantId}, ${k.eventId}::uuid, ${k.keyId}, ${k.publicKey}, ${k.privateKey})
      ON CONFLICT ("tenantId", "eventId") DO NOTHING`;
  }

  /** insertIfMissing outside a transaction. */
  insert(k: Parameters<typeof SigningKeysRepository.insertIfMissing>[1]): Promise<void> {
    return SigningKeysRepository.insertIfMissing(this.prisma, k);
  }

  /**
   * Up to `limit` keys after (`tenantId`, `eventId`) whose private key is not sealed with the key
   * `prefix` names (plain, or sealed with an older key): the re-seal's next batch.
   */
  keysToReseal(
    prefix: string,
    after: { tenantId: string; eventId: string } | null,
    limit: number,
  ): Promise<{ tenantId: string; eventId: string; privateKey: string }[]> {
    return this.prisma.$queryRaw`
      SELECT "tenantId", "eventId"::text AS "eventId", "privateKey" FROM "EventSigningKey"
      WHERE NOT starts_with("privateKey", ${prefix})
        AND (${after?.tenantId ?? null}::text IS NULL
             OR ("tenantId", "eventId") > (${after?.tenantId ?? null}::text, ${after?.eventId ?? null}::uuid))
      ORDER BY "tenantId", "eventId" LIMIT ${limit}`;
  }

  /** Replaces a stored private key if it is still `from` (the same key, sealed anew); whether it did. */
  async replacePrivateKey(
    k: { tenantId: string; eventId: string },
    from: string,
    to: string,
  ): Promise<boolean> {
    const n = await this.prisma.$executeRaw`
      UPDATE "EventSigningKey" SET "privateKey" = ${to}
      WHERE "tenantId" = ${k.tenantId} AND "eventId" = ${k.eventId}::uuid AND "privateKey" = ${from}`;
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
