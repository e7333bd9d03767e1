import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { EventSigningKey, Prisma } from '../generated/prisma/client';

/** A Prisma client or transaction client (raw statements only). */
export type KeyWriter = Pick<Prisma.TransactionClient, '$executeRaw'>;

/** EventSigningKey rows: one Ed25519 key pair per event, never changed once written. */
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

  /** Events with ticket types but no key (a small table: ticket types only). */
  eventsWithoutKey(): Promise<{ tenantId: string; eventId: string }[]> {
    return this.prisma.$queryRaw<{ tenantId: string; eventId: string }[]>`
      SELECT DISTINCT t."tenantId", t."eventId"::text AS "eventId" FROM "TicketType" t
       WHERE NOT EXISTS (SELECT 1 FROM "EventSigningKey" k
                          WHERE k."tenantId" = t."tenantId" AND k."eventId" = t."eventId")`;
  }
}
