import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { Tx } from '../database/tx';
import { Prisma } from '../generated/prisma/client';

const TARIFF_INCLUDE = { modules: true } satisfies Prisma.TariffInclude;

export type TariffRecord = Prisma.TariffGetPayload<{ include: typeof TARIFF_INCLUDE }>;

/** Tariffs are reference data (seeded by a migration): read only. */
@Injectable()
export class TariffsRepository {
  constructor(private readonly prisma: PrismaService) {}

  findAll(): Promise<TariffRecord[]> {
    return this.prisma.tariff.findMany({
      include: TARIFF_INCLUDE,
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
    });
  }

  findById(id: string): Promise<TariffRecord | null> {
    return this.prisma.tariff.findUnique({ where: { id }, include: TARIFF_INCLUDE });
  }

  exists(id: string, db: Tx | PrismaService = this.prisma): Promise<boolean> {
    return db.tariff.count({ where: { id } }).then((n) => n > 0);
  }
}
