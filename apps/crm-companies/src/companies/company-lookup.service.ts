import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, isUuid } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { PrismaService } from '../database/prisma.service';
import type { Tx } from '../database/tx';

/**
 * The check every /companies/{id}/... route starts with: the company must be the tenant's, else
 * 404 (a foreign id looks exactly like an unknown one). `lock` also holds the company row until
 * the transaction ends, so writers of one company's lists (favorites, positions) go one at a time.
 */
@Injectable()
export class CompanyLookup {
  constructor(
    private readonly prisma: PrismaService,
    private readonly i18n: I18nService,
  ) {}

  notFound(ctx: RequestContext, companyId: string): AppException {
    const resource = this.i18n.t('companies.resource.company', { lang: ctx.language }) as string;
    return AppException.notFound(resource, companyId);
  }

  async require(ctx: RequestContext, companyId: string, db: Tx | PrismaService = this.prisma) {
    const found =
      isUuid(companyId) &&
      (await db.company.findFirst({
        where: { id: companyId, tenantId: ctx.tenantId },
        select: { id: true },
      }));
    if (!found) throw this.notFound(ctx, companyId);
  }

  async lock(tx: Tx, ctx: RequestContext, companyId: string): Promise<void> {
    if (!(await this.tryLock(tx, ctx.tenantId, companyId))) throw this.notFound(ctx, companyId);
  }

  /** `lock` without the 404: false when the tenant has no such company. */
  async tryLock(tx: Tx, tenantId: string, companyId: string): Promise<boolean> {
    const rows = isUuid(companyId)
      ? await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM "Company"
          WHERE id = ${companyId}::uuid AND "tenantId" = ${tenantId}
          FOR UPDATE`
      : [];
    return rows.length > 0;
  }
}
