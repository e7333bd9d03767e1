import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import type { CompanyBankAccount as AccountRow, Prisma } from '../generated/prisma/client';
import type { CompanyBankAccount } from './dto/bank-account.output';
import { toBankAccount } from './bank-account.mapper';
import type { Tx } from '../database/tx';

export const BANK_ACCOUNT_SORT_FIELDS = [
  'position',
  'iban',
  'bic',
  'bankName',
  'accountHolder',
  'isFavorite',
  'dateCreated',
  'dateModified',
  'id',
] as const;
export type BankAccountSortField = (typeof BANK_ACCOUNT_SORT_FIELDS)[number];

export interface AccountColumns {
  iban: string;
  bic: string | null;
  bankName: string | null;
  accountHolder: string | null;
}

/** The favorite-relevant facts of an account: which one is first, which one is marked. */
export interface AccountSlot {
  id: string;
  iban: string;
  bic: string | null;
  isFavorite: boolean;
  position: number;
}

const SLOT = { id: true, iban: true, bic: true, isFavorite: true, position: true } as const;
/** The order of a company's accounts: "the first one" of the favorite rule is the first here. */
const IN_ORDER: Prisma.CompanyBankAccountOrderByWithRelationInput[] = [
  { position: 'asc' },
  { dateCreated: 'asc' },
  { id: 'asc' },
];

/** CompanyBankAccount rows; every query is scoped to the tenant and the company. */
@Injectable()
export class BankAccountsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  async page(
    tenantId: string,
    companyId: string,
    opts: {
      skip: number;
      take: number;
      orderBy: Prisma.CompanyBankAccountOrderByWithRelationInput[];
      q?: string;
    },
  ): Promise<[CompanyBankAccount[], number]> {
    const compact = opts.q?.replace(/\s+/g, '').toUpperCase();
    const where: Prisma.CompanyBankAccountWhereInput = {
      tenantId,
      companyId,
      ...(opts.q
        ? {
            OR: [
              // an IBAN is searched as typed on paper too (DE89 3704 ...)
              ...(compact ? [{ iban: { contains: compact } }] : []),
              { bic: { contains: opts.q, mode: 'insensitive' } },
              { bankName: { contains: opts.q, mode: 'insensitive' } },
              { accountHolder: { contains: opts.q, mode: 'insensitive' } },
            ],
          }
        : {}),
    };
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.companyBankAccount.findMany({
        where,
        orderBy: opts.orderBy,
        skip: opts.skip,
        take: opts.take,
      }),
      this.prisma.companyBankAccount.count({ where }),
    ]);
    return [rows.map(toBankAccount), total];
  }

  /** The company's accounts in their order (call with the company locked). */
  slots(tx: Tx, tenantId: string, companyId: string): Promise<AccountSlot[]> {
    return tx.companyBankAccount.findMany({
      where: { tenantId, companyId },
      select: SLOT,
      orderBy: IN_ORDER,
    });
  }

  async find(
    tx: Tx,
    tenantId: string,
    companyId: string,
    id: string,
  ): Promise<CompanyBankAccount | null> {
    const row: AccountRow | null = await tx.companyBankAccount.findFirst({
      where: { tenantId, companyId, id },
    });
    return row ? toBankAccount(row) : null;
  }

  async create(
    tx: Tx,
    tenantId: string,
    companyId: string,
    data: AccountColumns & { isFavorite: boolean; position: number },
  ): Promise<string> {
    const row = await tx.companyBankAccount.create({
      data: { tenantId, companyId, ...data },
      select: { id: true },
    });
    return row.id;
  }

  async update(
    tx: Tx,
    tenantId: string,
    companyId: string,
    id: string,
    data: Partial<AccountColumns> & { isFavorite?: boolean },
  ): Promise<void> {
    await tx.companyBankAccount.updateMany({ where: { tenantId, companyId, id }, data });
  }

  async delete(tx: Tx, tenantId: string, companyId: string, id: string): Promise<void> {
    await tx.companyBankAccount.deleteMany({ where: { tenantId, companyId, id } });
  }

  /** Every account but `keep` loses the favorite mark. */
  async demoteOthers(tx: Tx, tenantId: string, companyId: string, keep: string): Promise<void> {
    await tx.companyBankAccount.updateMany({
      where: { tenantId, companyId, isFavorite: true, id: { not: keep } },
      data: { isFavorite: false },
    });
  }

  /**
   * "None marked -> the first one": when the company has accounts but no favorite, the first
   * becomes it. Answers the id that became the favorite, if any.
   */
  async ensureFavorite(tx: Tx, tenantId: string, companyId: string): Promise<string | null> {
    const slots = await this.slots(tx, tenantId, companyId);
    if (!slots.length || slots.some((s) => s.isFavorite)) return null;
    await this.update(tx, tenantId, companyId, slots[0].id, { isFavorite: true });
    return slots[0].id;
  }
}
