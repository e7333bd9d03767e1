import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { checkObject, FieldProblem } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { toCompanyPhone } from './contact-data.mapper';
import { ContactDataRepository, Db, PhoneRow } from './contact-data.repository';
import { nextPosition, planWrite } from './contact-favorites';
import { Checked, ContactLists } from './contact-lists.service';
import { countryCodeProblems, phoneFacts, problem, readPhone } from './contact-rules';
import type { CompanyPhone } from './dto/contact-data.output';
import type {
  CompanyContactDeleted,
  CompanyPhoneValidation,
} from './dto/contact-validation.output';
import { CreateCompanyPhoneInput, UpdateCompanyPhoneInput } from './dto/phone.input';

/** What a phone write stores, and what is wrong with it. */
interface PreparedPhone extends Checked {
  values: { type: string; number: string; label: string | null };
}

/** Phone numbers of a company (C19-C22), stored in E.164. */
@Injectable()
export class PhonesService {
  constructor(
    private readonly repo: ContactDataRepository,
    private readonly lists: ContactLists,
  ) {}

  private load(ctx: RequestContext, companyId: string) {
    return (db: Db) => this.repo.phones(db, ctx.tenantId, companyId);
  }

  /**
   * The phone after the write (`stored` absent: a new one). A number is read with the input's
   * countryCode; the same number twice on one company is a conflict.
   */
  private prepare(
    rows: PhoneRow[],
    input: UpdateCompanyPhoneInput,
    stored?: PhoneRow,
  ): PreparedPhone {
    const problems: FieldProblem[] = [];
    let number = stored?.number ?? '';
    if (input.number !== undefined && input.number !== null) {
      const read = readPhone(input.number, input.countryCode);
      problems.push(...read.problems);
      number = read.phone?.number ?? input.number;
    } else {
      problems.push(...countryCodeProblems(input.countryCode));
    }
    const conflicts =
      !problems.length && rows.some((r) => r.id !== stored?.id && r.number === number)
        ? [problem('number', 'phoneExists', { value: number })]
        : [];
    const given = <K extends 'type' | 'label'>(k: K) => input[k] !== undefined;
    return {
      values: {
        type: given('type') ? (input.type ?? 'office') : (stored?.type ?? 'office'),
        number,
        label: given('label') ? (input.label ?? null) : (stored?.label ?? null),
      },
      problems,
      conflicts,
    };
  }

  /** C19: appended at the end; the favorite when marked or when it is the first number. */
  async create(
    ctx: RequestContext,
    companyId: string,
    input: CreateCompanyPhoneInput,
  ): Promise<CompanyPhone> {
    const row = await this.lists.write(
      ctx,
      companyId,
      this.load(ctx, companyId),
      async (tx, rows) => {
        const prepared = this.prepare(rows, input);
        this.lists.reject(prepared);
        const id = randomUUID();
        const plan = planWrite(rows, id, input.isFavorite);
        const created = await this.repo.createPhone(tx, ctx.tenantId, companyId, id, {
          ...prepared.values,
          isFavorite: plan.favoriteId === id,
          position: nextPosition(rows),
        });
        await this.lists.settle(tx, ctx, 'phone', companyId, plan, id);
        return created;
      },
    );
    return toCompanyPhone(row);
  }

  /** C20: fields left out stay; the favorite rule applies to isFavorite. */
  async update(
    ctx: RequestContext,
    companyId: string,
    phoneId: string,
    input: UpdateCompanyPhoneInput,
  ): Promise<CompanyPhone> {
    const row = await this.lists.write(
      ctx,
      companyId,
      this.load(ctx, companyId),
      async (tx, rows) => {
        const stored = this.lists.item(ctx, 'phone', rows, phoneId);
        const prepared = this.prepare(rows, input, stored);
        this.lists.reject(prepared);
        const plan = planWrite(rows, phoneId, input.isFavorite);
        const updated = await this.repo.updatePhone(tx, ctx.tenantId, phoneId, {
          ...prepared.values,
          isFavorite: plan.favoriteId === phoneId,
        });
        await this.lists.settle(tx, ctx, 'phone', companyId, plan, phoneId);
        return updated;
      },
    );
    return toCompanyPhone(row);
  }

  /** C21 */
  remove(ctx: RequestContext, companyId: string, phoneId: string): Promise<CompanyContactDeleted> {
    return this.lists.remove(ctx, 'phone', companyId, phoneId, this.load(ctx, companyId));
  }

  /**
   * C22: every check of C19 (or of C20 with phoneId) without writing; `calculated` describes the
   * number as it would be stored.
   */
  async validate(
    ctx: RequestContext,
    companyId: string,
    raw: unknown,
    phoneId?: string,
  ): Promise<CompanyPhoneValidation> {
    const rows = await this.lists.read(ctx, companyId, this.load(ctx, companyId));
    const stored = phoneId ? this.lists.item(ctx, 'phone', rows, phoneId) : undefined;
    const checked = stored
      ? checkObject(UpdateCompanyPhoneInput, raw)
      : checkObject(CreateCompanyPhoneInput, raw);
    let outcome: Checked = { problems: checked.problems, conflicts: [] };
    let calculated: CompanyPhoneValidation['calculated'] = null;
    // the domain rules need well-formed input
    if (!checked.problems.length) {
      const prepared = this.prepare(rows, checked.value, stored);
      outcome = prepared;
      if (!prepared.problems.length && !prepared.conflicts.length) {
        calculated = phoneFacts(prepared.values.number);
      }
    }
    const errors = this.lists.errors(ctx, outcome);
    return { valid: errors.length === 0, errors, calculated };
  }
}
