import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';

export type ApiKeyRecord = Prisma.ApiKeyGetPayload<object>;

/** What verification needs about a key, read in one query. */
export interface KeyVerificationRow {
  id: string;
  tenantId: string;
  revokedAt: Date | null;
  lastUsed: Date | null;
  scopes: string[];
  expiresAt: Date | null;
  modules: string[];
}

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * The gateway's hot path: one statement through the unique index on the hash, joined to the
   * tenant's tariff modules (primary key lookup on tariffId). Raw SQL because Prisma would issue
   * one query per relation level here.
   */
  async findForVerification(hash: string): Promise<KeyVerificationRow | null> {
    const rows = await this.prisma.$queryRaw<KeyVerificationRow[]>`
      SELECT k."id"::text AS "id", k."tenantId", k."revokedAt", k."lastUsed",
             COALESCE(k."scopes", ARRAY[]::text[]) AS "scopes", k."expiresAt",
             COALESCE(array_agg(m."module" ORDER BY m."module")
                      FILTER (WHERE m."module" IS NOT NULL), ARRAY[]::text[]) AS "modules"
      FROM "ApiKey" k
      JOIN "Tenant" t ON t."id" = k."tenantId"
      LEFT JOIN "TariffModule" m ON m."tariffId" = t."tariffId"
      WHERE k."hash" = ${hash}
      GROUP BY k."id"`;
    return rows[0] ?? null;
  }

  /** Conditional, so replicas racing on the same key write it once per interval at most. */
  touch(id: string, now: Date, olderThan: Date): Promise<unknown> {
    return this.prisma.apiKey.updateMany({
      where: { id, OR: [{ lastUsed: null }, { lastUsed: { lt: olderThan } }] },
      data: { lastUsed: now },
    });
  }

  create(data: Prisma.ApiKeyUncheckedCreateInput): Promise<ApiKeyRecord> {
    return this.prisma.apiKey.create({ data });
  }

  /** The tenant that holds key `id`, if any (visible to the caller's scope). */
  async findTenantOf(id: string): Promise<string | null> {
    const key = await this.prisma.apiKey.findUnique({ where: { id }, select: { tenantId: true } });
    return key?.tenantId ?? null;
  }

  findById(id: string): Promise<ApiKeyRecord | null> {
    return this.prisma.apiKey.findUnique({ where: { id } });
  }

  /** Sets revokedAt once: revoking again keeps the first date. */
  async revoke(id: string, now: Date): Promise<ApiKeyRecord | null> {
    await this.prisma.apiKey.updateMany({
      where: { id, revokedAt: null },
      data: { revokedAt: now },
    });
    return this.findById(id);
  }
}
