import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { checkObject } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { toCompanyAddress } from './contact-data.mapper';
import { AddressRow, ContactDataRepository, Db } from './contact-data.repository';
import { nextPosition, planWrite } from './contact-favorites';
import { ContactLists } from './contact-lists.service';
import { addressProblems, addressValues } from './contact-rules';
import { CompanyAddressInput } from './dto/address.input';
import type { CompanyAddress } from './dto/contact-data.output';
import type {
  CompanyAddressValidation,
  CompanyContactDeleted,
} from './dto/contact-validation.output';

/** Addresses of a company (C15-C18). */
@Injectable()
export class AddressesService {
  constructor(
    private readonly repo: ContactDataRepository,
    private readonly lists: ContactLists,
  ) {}

  private load(ctx: RequestContext, companyId: string) {
    return (db: Db) => this.repo.addresses(db, ctx.tenantId, companyId);
  }

  /** C15: appended at the end; the favorite when marked or when it is the first address. */
  async create(
    ctx: RequestContext,
    companyId: string,
    input: CompanyAddressInput,
  ): Promise<CompanyAddress> {
    const row = await this.lists.write(
      ctx,
      companyId,
      this.load(ctx, companyId),
      async (tx, rows) => {
        const values = addressValues(input);
        this.lists.reject({ problems: addressProblems(input, values), conflicts: [] });
        const id = randomUUID();
        const plan = planWrite(rows, id, input.isFavorite);
        const created = await this.repo.createAddress(tx, ctx.tenantId, companyId, id, {
          ...values,
          isFavorite: plan.favoriteId === id,
          position: nextPosition(rows),
        });
        await this.lists.settle(tx, ctx, 'address', companyId, plan, id);
        return created;
      },
    );
    return toCompanyAddress(row);
  }

  /** C16: fields left out stay, null clears; the favorite rule applies to isFavorite. */
  async update(
    ctx: RequestContext,
    companyId: string,
    addressId: string,
    input: CompanyAddressInput,
  ): Promise<CompanyAddress> {
    const row = await this.lists.write(
      ctx,
      companyId,
      this.load(ctx, companyId),
      async (tx, rows) => {
        const stored = this.lists.item(ctx, 'address', rows, addressId);
        const values = addressValues(input, stored);
        this.lists.reject({ problems: addressProblems(input, values), conflicts: [] });
        const plan = planWrite(rows, addressId, input.isFavorite);
        const updated = await this.repo.updateAddress(tx, ctx.tenantId, addressId, {
          ...values,
          isFavorite: plan.favoriteId === addressId,
        });
        await this.lists.settle(tx, ctx, 'address', companyId, plan, addressId);
        return updated;
      },
    );
    return toCompanyAddress(row);
  }

  /** C17 */
  remove(
    ctx: RequestContext,
    companyId: string,
    addressId: string,
  ): Promise<CompanyContactDeleted> {
    return this.lists.remove(ctx, 'address', companyId, addressId, this.load(ctx, companyId));
  }

  /**
   * C18: every check of C15 (or of C16 with addressId) without writing; `calculated` is the
   * address as it would be stored.
   */
  async validate(
    ctx: RequestContext,
    companyId: string,
    raw: unknown,
    addressId?: string,
  ): Promise<CompanyAddressValidation> {
    const rows: AddressRow[] = await this.lists.read(ctx, companyId, this.load(ctx, companyId));
    const stored = addressId ? this.lists.item(ctx, 'address', rows, addressId) : undefined;
    const { value: input, problems } = checkObject(CompanyAddressInput, raw);
    let calculated: CompanyAddressValidation['calculated'] = null;
    // the domain rules need well-formed input
    if (!problems.length) {
      const values = addressValues(input, stored);
      problems.push(...addressProblems(input, values));
      const id = stored?.id ?? randomUUID();
      const plan = planWrite(rows, id, input.isFavorite);
      if (!problems.length) calculated = { ...values, isFavorite: plan.favoriteId === id };
    }
    const errors = this.lists.errors(ctx, { problems, conflicts: [] });
    return { valid: errors.length === 0, errors, calculated };
  }
}
