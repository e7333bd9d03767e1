import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { PersonContact } from '@crm/messaging';
import type { Tx } from '../database/tx';

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
   * Name and e-mail of each of `ids` that is a person of the tenant, in one statement: the first
   * e-mail of the favorite card, else of the oldest card that has one (cards in creation order,
   * e-mails in their list order). Persons carry no language of their own yet: null.
   */
  async contacts(tenantId: string, ids: string[]): Promise<PersonContact[]> {
    if (!ids.length) return [];
    const rows = await this.prisma.$queryRaw<
      { id: string; firstname: string | null; lastname: string | null; email: string | null }[]
    >`
      SELECT p.id::text AS id, p.firstname, p.lastname,
             (SELECT e.value->>'mail'
                FROM "BusinessCard" c
                CROSS JOIN LATERAL jsonb_array_elements(
                  CASE WHEN jsonb_typeof(c.emails::jsonb) = 'array' THEN c.emails::jsonb
                       ELSE '[]'::jsonb END) WITH ORDINALITY AS e(value, n)
               WHERE c."tenantId" = p."tenantId" AND c."personId" = p.id
                 AND coalesce(e.value->>'mail', '') <> ''
               ORDER BY c."isFavorite" DESC, c."dateCreated", c.id, e.n
               LIMIT 1) AS email
        FROM "Person" p
       WHERE p."tenantId" = ${tenantId} AND p.id = ANY(${ids}::uuid[])`;
    return rows.map((r) => ({ ...r, id: r.id.toLowerCase(), language: null }));
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
