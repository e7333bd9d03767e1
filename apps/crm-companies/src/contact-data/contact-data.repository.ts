import { Injectable } from '@nestjs/common';
import type { Actor } from '@crm/persistence';
import { PrismaService } from '../database/prisma.service';
import type {
  CompanyAddress as AddressRow,
  CompanyEmail as EmailRow,
  CompanyPhone as PhoneRow,
  Prisma,
} from '../generated/prisma/client';
import type { FavoritePlan } from './contact-favorites';
import type { Tx } from '../database/tx';

export type Db = Tx | PrismaService;
export type { AddressRow, EmailRow, PhoneRow };

/** The three lists of a company's contact data. */
export type ContactKind = 'address' | 'phone' | 'email';

type Columns<T> = Omit<T, 'id' | 'tenantId' | 'companyId' | 'dateCreated' | 'dateModified'>;
export type AddressColumns = Columns<AddressRow>;
export type PhoneColumns = Columns<PhoneRow>;
export type EmailColumns = Columns<EmailRow>;

/** A list in its order: position, then age (positions are unique under the company lock). */
const ORDER = [{ position: 'asc' }, { dateCreated: 'asc' }, { id: 'asc' }] satisfies {
  [k: string]: Prisma.SortOrder;
}[];

/**
 * Prisma access of addresses, phones and e-mails. Every call is scoped by tenant and company;
 * writers run in a transaction holding the company lock (CompanyLookup.lock).
 */
@Injectable()
export class ContactDataRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  get client(): PrismaService {
    return this.prisma;
  }

  /** The company was changed through its contact data: modifiedBy and dateModified follow. */
  async touchCompany(tx: Tx, tenantId: string, companyId: string, by: Actor): Promise<void> {
    await tx.company.updateMany({
      where: { tenantId, id: companyId },
      data: { modifiedBy: by.name, modifiedByUserId: by.userId },
    });
  }

  // --- addresses -------------------------------------------------------------------------

  addresses(db: Db, tenantId: string, companyId: string): Promise<AddressRow[]> {
    return db.companyAddress.findMany({ where: { tenantId, companyId }, orderBy: ORDER });
  }

  createAddress(tx: Tx, tenantId: string, companyId: string, id: string, data: AddressColumns) {
    return tx.companyAddress.create({ data: { ...data, id, tenantId, companyId } });
  }

  updateAddress(tx: Tx, tenantId: string, id: string, data: Partial<AddressColumns>) {
    return tx.companyAddress.update({ where: { id, tenantId }, data });
  }

  // --- phones ----------------------------------------------------------------------------

  phones(db: Db, tenantId: string, companyId: string): Promise<PhoneRow[]> {
    return db.companyPhone.findMany({ where: { tenantId, companyId }, orderBy: ORDER });
  }

  createPhone(tx: Tx, tenantId: string, companyId: string, id: string, data: PhoneColumns) {
    return tx.companyPhone.create({ data: { ...data, id, tenantId, companyId } });
  }

  updatePhone(tx: Tx, tenantId: string, id: string, data: Partial<PhoneColumns>) {
    return tx.companyPhone.update({ where: { id, tenantId }, data });
  }

  // --- e-mails ---------------------------------------------------------------------------

  emails(db: Db, tenantId: string, companyId: string): Promise<EmailRow[]> {
    return db.companyEmail.findMany({ where: { tenantId, companyId }, orderBy: ORDER });
  }

  createEmail(tx: Tx, tenantId: string, companyId: string, id: string, data: EmailColumns) {
    return tx.companyEmail.create({ data: { ...data, id, tenantId, companyId } });
  }

  updateEmail(tx: Tx, tenantId: string, id: string, data: Partial<EmailColumns>) {
    return tx.companyEmail.update({ where: { id, tenantId }, data });
  }

  // --- all three -------------------------------------------------------------------------

  async remove(tx: Tx, kind: ContactKind, tenantId: string, companyId: string, id: string) {
    const where = { tenantId, companyId, id };
    if (kind === 'address') await tx.companyAddress.deleteMany({ where });
    else if (kind === 'phone') await tx.companyPhone.deleteMany({ where });
    else await tx.companyEmail.deleteMany({ where });
  }

  /** Applies a favorite plan: at most two statements (demote the old, promote the new). */
  async applyFavorites(
    tx: Tx,
    kind: ContactKind,
    tenantId: string,
    companyId: string,
    plan: FavoritePlan,
  ): Promise<void> {
    const changes: { ids: string[]; isFavorite: boolean }[] = [
      { ids: plan.demote, isFavorite: false },
      { ids: plan.promote ? [plan.promote] : [], isFavorite: true },
    ];
    for (const { ids, isFavorite } of changes) {
      if (!ids.length) continue;
      const args = { where: { tenantId, companyId, id: { in: ids } }, data: { isFavorite } };
      if (kind === 'address') await tx.companyAddress.updateMany(args);
      else if (kind === 'phone') await tx.companyPhone.updateMany(args);
      else await tx.companyEmail.updateMany(args);
    }
  }
}
