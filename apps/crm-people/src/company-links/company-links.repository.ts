import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Prisma } from '../generated/prisma/client';

export type Tx = Prisma.TransactionClient;

/** What crm-people keeps of crm-companies' companies: plain ids on cards and touchpoints. */
@Injectable()
export class CompanyLinksRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Which of `ids` are people of the tenant (one query). */
  async existingPeople(tenantId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.prisma.person.findMany({
      where: { tenantId, id: { in: ids } },
      select: { id: true },
    });
    return new Set(rows.map((r) => r.id.toLowerCase()));
  }

  /**
   * The tenant's cards pointing at the companies lose the connection (company, relation type
   * and dates), and its touchpoints forget the company. Counts are for the log and the tests.
   */
  async disconnectCompanies(
    tx: Tx,
    tenantId: string,
    companyIds: string[],
  ): Promise<{ cards: number; touchpoints: number }> {
    const cards = await tx.businessCard.updateMany({
      where: { tenantId, companyId: { in: companyIds } },
      data: {
        companyId: null,
        companyRelationTypeId: null,
        companyRelationSince: null,
        companyRelationUntil: null,
      },
    });
    const touchpoints = await tx.touchpoint.updateMany({
      where: { tenantId, companyId: { in: companyIds } },
      data: { companyId: null },
    });
    return { cards: cards.count, touchpoints: touchpoints.count };
  }
}
