import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { IdempotencyKey } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

/** A key a booking of a batch claims, with its request's hash. */
export interface KeyClaim {
  key: string;
  requestHash: string;
  bookingId: string;
}

/** IdempotencyKey rows (BK1's Idempotency-Key of public bookings). */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Inserts the keys in the given order (callers sort them: a fixed lock order) in one statement;
   * the ids of the bookings whose key was free (a key another request holds is left alone).
   */
  async claim(tx: Tx, tenantId: string, claims: KeyClaim[]): Promise<Set<string>> {
    const won = await tx.$queryRaw<{ bookingId: string }[]>`
      INSERT INTO "IdempotencyKey" ("tenantId", key, "requestHash", "bookingId")
      SELECT ${tenantId}, k.key, k.hash, k.booking
        FROM unnest(${claims.map((c) => c.key)}::text[],
                    ${claims.map((c) => c.requestHash)}::text[],
                    ${claims.map((c) => c.bookingId)}::uuid[]) WITH ORDINALITY
          AS k(key, hash, booking, n)
       ORDER BY k.n
      ON CONFLICT DO NOTHING
      RETURNING "bookingId"::text`;
    return new Set(won.map((r) => r.bookingId));
  }

  /** Deletes the keys of these bookings (refused after claiming: a retry must run afresh). */
  async release(tx: Tx, tenantId: string, bookingIds: string[]): Promise<void> {
    await tx.$executeRaw`
      DELETE FROM "IdempotencyKey" WHERE "tenantId" = ${tenantId} AND "bookingId" = ANY(${bookingIds}::uuid[])`;
  }

  find(tenantId: string, key: string): Promise<IdempotencyKey | null> {
    return this.prisma.idempotencyKey.findUnique({ where: { tenantId_key: { tenantId, key } } });
  }

  /** Deletes the keys created before `before`; how many. */
  deleteOlderThan(before: Date): Promise<number> {
    return this.prisma.$executeRaw`DELETE FROM "IdempotencyKey" WHERE "dateCreated" < ${before}`;
  }
}
