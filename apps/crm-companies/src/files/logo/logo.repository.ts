import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service';
import type { Prisma } from '../../generated/prisma/client';

export type Tx = Prisma.TransactionClient;

export interface LogoState {
  /** The version of the current logo (a folder in the FileStorage), or null. */
  logo: string | null;
  logoDateModified: Date | null;
}

/** Company.logo and logoDateModified: which version of the files is the logo. */
@Injectable()
export class LogoRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /** null when the tenant has no such company. */
  state(tenantId: string, companyId: string, db: Tx = this.prisma): Promise<LogoState | null> {
    return db.company.findFirst({
      where: { tenantId, id: companyId },
      select: { logo: true, logoDateModified: true },
    });
  }

  async set(
    tx: Tx,
    tenantId: string,
    companyId: string,
    logo: string | null,
    by: { name: string; userId: string | null },
  ): Promise<Date> {
    const now = new Date();
    await tx.company.updateMany({
      where: { tenantId, id: companyId },
      data: { logo, logoDateModified: now, modifiedBy: by.name, modifiedByUserId: by.userId },
    });
    return now;
  }
}
