import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import { AppException, ErrorCode, FieldProblem, isUuid, throwIfProblems } from '@crm/errors';
import { PageQuery, parseSort, skipTake, toOrderBy } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { CompanyLookup } from '../companies/company-lookup.service';
import type {
  CreateCompanyBankAccountInput,
  UpdateCompanyBankAccountInput,
} from './dto/bank-account.input';
import type { CompanyBankAccount, CompanyBankAccountDeleted } from './dto/bank-account.output';
import {
  AccountSlot,
  BANK_ACCOUNT_SORT_FIELDS,
  BankAccountsRepository,
} from './bank-accounts.repository';
import { bicCountryProblem, checkBic, checkIban, formatIban } from './iban-rules';
import type { Tx } from '../database/tx';

/** A text of the account: trimmed, and an empty one is none. */
const text = (v: string | null | undefined) => (v == null ? null : v.trim() || null);

/**
 * Bank accounts of a company (C26, C27). Writes lock the company row, so the favorite rule
 * (exactly one favorite while the company has accounts) and the IBAN check hold under
 * concurrency; the unique index (companyId, iban) backs the latter.
 */
@Injectable()
export class BankAccountsService {
  constructor(
    private readonly repo: BankAccountsRepository,
    private readonly companies: CompanyLookup,
    private readonly i18n: I18nService,
  ) {}

  private notFound(ctx: RequestContext, id: string): AppException {
    const resource = this.i18n.t('bank-accounts.resource.account', { lang: ctx.language });
    return AppException.notFound(resource as string, id);
  }

  private duplicate(iban: string): AppException {
    return new AppException(
      ErrorCode.CONFLICT,
      'bank-accounts.conflict.iban',
      { iban: formatIban(iban) },
      [{ field: 'iban', rule: 'unique', messageKey: 'bank-accounts.problems.unique' }],
    );
  }

  /** Two requests adding the same IBAN at once: the unique index decides, the loser gets 409. */
  private raceToConflict(iban: string | undefined) {
    return (err: unknown): never => {
      if ((err as { code?: string })?.code === 'P2002' && iban) throw this.duplicate(iban);
      throw err;
    };
  }

  async list(
    ctx: RequestContext,
    companyId: string,
    query: PageQuery,
  ): Promise<Paged<CompanyBankAccount>> {
    const sort = parseSort(
      query.sort,
      BANK_ACCOUNT_SORT_FIELDS,
      [{ field: 'position', direction: 'asc' }],
      'id',
    );
    await this.companies.require(ctx, companyId);
    const [items, total] = await this.repo.page(ctx.tenantId, companyId, {
      ...skipTake(query),
      orderBy: toOrderBy(sort),
      q: query.q?.trim() || undefined,
    });
    return paged(items, total);
  }

  /** C26 POST: appended last; the favorite when marked or when the company has none. */
  async create(
    ctx: RequestContext,
    companyId: string,
    input: CreateCompanyBankAccountInput,
  ): Promise<CompanyBankAccount> {
    const iban = checkIban(input.iban);
    const bic = input.bic == null || !input.bic.trim() ? null : checkBic(input.bic);
    const problems = [iban.problem, bic?.problem].filter((p): p is FieldProblem => !!p);
    if (iban.iban && bic?.bic) {
      const country = bicCountryProblem(iban.iban, bic.bic);
      if (country) problems.push(country);
    }
    throwIfProblems(problems);
    const columns = {
      iban: iban.iban!,
      bic: bic?.bic ?? null,
      bankName: text(input.bankName),
      accountHolder: text(input.accountHolder),
    };
    return this.repo
      .transaction(async (tx) => {
        await this.companies.lock(tx, ctx, companyId);
        const slots = await this.repo.slots(tx, ctx.tenantId, companyId);
        if (slots.some((s) => s.iban === columns.iban)) throw this.duplicate(columns.iban);
        const isFavorite = input.isFavorite === true || !slots.some((s) => s.isFavorite);
        const id = await this.repo.create(tx, ctx.tenantId, companyId, {
          ...columns,
          isFavorite,
          position: Math.max(-1, ...slots.map((s) => s.position)) + 1,
        });
        if (isFavorite) await this.repo.demoteOthers(tx, ctx.tenantId, companyId, id);
        return (await this.repo.find(tx, ctx.tenantId, companyId, id))!;
      })
      .catch(this.raceToConflict(columns.iban));
  }

  /** C27 PUT: fields not given stay; the BIC is checked against the resulting IBAN. */
  async update(
    ctx: RequestContext,
    companyId: string,
    accountId: string,
    input: UpdateCompanyBankAccountInput,
  ): Promise<CompanyBankAccount> {
    const iban = input.iban === undefined ? null : checkIban(input.iban);
    const bic = input.bic == null || !input.bic.trim() ? null : checkBic(input.bic);
    throwIfProblems([iban?.problem, bic?.problem].filter((p): p is FieldProblem => !!p));
    return this.repo
      .transaction(async (tx) => {
        const current = await this.locked(tx, ctx, companyId, accountId);
        const next = {
          iban: iban?.iban ?? current.account.iban,
          bic: input.bic === undefined ? current.account.bic : (bic?.bic ?? null),
        };
        const country = next.bic ? bicCountryProblem(next.iban, next.bic) : null;
        throwIfProblems(country ? [country] : []);
        if (current.slots.some((s) => s.id !== accountId && s.iban === next.iban)) {
          throw this.duplicate(next.iban);
        }
        await this.repo.update(tx, ctx.tenantId, companyId, accountId, {
          ...(iban ? { iban: next.iban } : {}),
          ...(input.bic !== undefined ? { bic: next.bic } : {}),
          ...(input.bankName !== undefined ? { bankName: text(input.bankName) } : {}),
          ...(input.accountHolder !== undefined
            ? { accountHolder: text(input.accountHolder) }
            : {}),
          ...(input.isFavorite !== undefined ? { isFavorite: input.isFavorite } : {}),
        });
        if (input.isFavorite === true) {
          await this.repo.demoteOthers(tx, ctx.tenantId, companyId, accountId);
        } else if (input.isFavorite === false) {
          await this.repo.ensureFavorite(tx, ctx.tenantId, companyId);
        }
        return (await this.repo.find(tx, ctx.tenantId, companyId, accountId))!;
      })
      .catch(this.raceToConflict(iban?.iban ?? undefined));
  }

  /** C27 DELETE: when the favorite goes, the first remaining account becomes it. */
  remove(
    ctx: RequestContext,
    companyId: string,
    accountId: string,
  ): Promise<CompanyBankAccountDeleted> {
    return this.repo.transaction(async (tx) => {
      await this.locked(tx, ctx, companyId, accountId);
      await this.repo.delete(tx, ctx.tenantId, companyId, accountId);
      const newFavoriteId = await this.repo.ensureFavorite(tx, ctx.tenantId, companyId);
      return { id: accountId, newFavoriteId };
    });
  }

  /** Locks the company (404 unless the tenant's) and finds the account among its accounts. */
  private async locked(
    tx: Tx,
    ctx: RequestContext,
    companyId: string,
    accountId: string,
  ): Promise<{ account: AccountSlot; slots: AccountSlot[] }> {
    await this.companies.lock(tx, ctx, companyId);
    const slots = isUuid(accountId) ? await this.repo.slots(tx, ctx.tenantId, companyId) : [];
    const account = slots.find((s) => s.id === accountId);
    if (!account) throw this.notFound(ctx, accountId);
    return { account, slots };
  }
}
