import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';

/** Who holds a tenant's sales lease, and for how many more ms by the database's clock. */
export interface SalesLeaseHolder {
  owner: string;
  remainingMs: number;
}

/** SalesLease rows: which replica writes each tenant's public bookings and holds. */
@Injectable()
export class SalesLeasesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Takes the tenant's lease for `owner` for `ttlMs` when it is free, has run out or is already
   * its own (a renewal), or is held by `from` (a holder known to be gone); answers who holds it
   * afterwards. Expiry is judged by the database's clock, so replicas' clocks need not agree.
   */
  async claim(
    tenantId: string,
    owner: string,
    ttlMs: number,
    from = '',
  ): Promise<SalesLeaseHolder | null> {
    const [row] = await this.prisma.$queryRaw<SalesLeaseHolder[]>`
      WITH now AS (SELECT clock_timestamp() AT TIME ZONE 'UTC' AS t),
      claimed AS (
        INSERT INTO "SalesLease" ("tenantId", owner, "expiresAt")
        SELECT ${tenantId}, ${owner}, now.t + ${ttlMs} * interval '1 millisecond' FROM now
        ON CONFLICT ("tenantId") DO UPDATE
           SET owner = EXCLUDED.owner, "expiresAt" = EXCLUDED."expiresAt"
         WHERE "SalesLease"."expiresAt" <= clock_timestamp() AT TIME ZONE 'UTC'
            OR "SalesLease".owner IN (EXCLUDED.owner, ${from})
        RETURNING owner, "expiresAt")
      SELECT x.owner,
             GREATEST(0, extract(epoch FROM x."expiresAt" - now.t) * 1000)::int AS "remainingMs"
        FROM now, (SELECT owner, "expiresAt" FROM claimed
                   UNION ALL
                   SELECT owner, "expiresAt" FROM "SalesLease"
                    WHERE "tenantId" = ${tenantId} AND NOT EXISTS (SELECT 1 FROM claimed)) x`;
    // null: another replica inserted the row after this statement's snapshot; ask again
    return row ?? null;
  }

  /** Who holds the tenant's lease now, without claiming it (null: nobody, or run out). */
  async holder(tenantId: string): Promise<SalesLeaseHolder | null> {
    const [row] = await this.prisma.$queryRaw<SalesLeaseHolder[]>`
      SELECT owner, (extract(epoch FROM "expiresAt" - (clock_timestamp() AT TIME ZONE 'UTC'))
                     * 1000)::int AS "remainingMs"
        FROM "SalesLease"
       WHERE "tenantId" = ${tenantId} AND "expiresAt" > clock_timestamp() AT TIME ZONE 'UTC'`;
    return row ?? null;
  }

  /** Gives up every lease `owner` holds (a replica stopping): the others take them at once. */
  async releaseAll(owner: string): Promise<void> {
    await this.prisma.$executeRaw`DELETE FROM "SalesLease" WHERE owner = ${owner}`;
  }
}
