import { Injectable } from '@nestjs/common';
import type { ImageState, ImageStore } from '@crm/files';
import type { Actor } from '@crm/persistence';
import { CompanyLookup } from '../../companies/company-lookup.service';
import { PrismaService } from '../../database/prisma.service';
import type { Tx } from '../../database/tx';

/** Company.logo and logoDateModified for @crm/files: which version of the files is the logo. */
@Injectable()
export class LogoRepository implements ImageStore<Tx> {
  constructor(
    private readonly prisma: PrismaService,
    private readonly companies: CompanyLookup,
  ) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /** null when the tenant has no such company. */
  async state(
    tenantId: string,
    companyId: string,
    db: Tx = this.prisma,
  ): Promise<ImageState | null> {
    const row = await db.company.findFirst({
      where: { tenantId, id: companyId },
      select: { logo: true, logoDateModified: true },
    });
    return row ? { version: row.logo, dateModified: row.logoDateModified } : null;
  }

  lock(tx: Tx, tenantId: string, companyId: string): Promise<boolean> {
    return this.companies.tryLock(tx, tenantId, companyId);
  }

  async set(
    tx: Tx,
    tenantId: string,
    companyId: string,
    logo: string | null,
    by: Actor,
  ): Promise<Date> {
    const now = new Date();
    await tx.company.updateMany({
      where: { tenantId, id: companyId },
      data: { logo, logoDateModified: now, modifiedBy: by.name, modifiedByUserId: by.userId },
    });
    return now;
  }
}
