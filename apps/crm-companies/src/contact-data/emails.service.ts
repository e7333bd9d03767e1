import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppException, checkObject, FieldProblem } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import { toCompanyEmail } from './contact-data.mapper';
import { ContactDataRepository, Db, EmailRow } from './contact-data.repository';
import { nextPosition, planWrite } from './contact-favorites';
import { Checked, ContactLists } from './contact-lists.service';
import { emailDomain, problem, sameEmail } from './contact-rules';
import type { CompanyEmail } from './dto/contact-data.output';
import type {
  CompanyContactDeleted,
  CompanyEmailValidation,
} from './dto/contact-validation.output';
import { CreateCompanyEmailInput, UpdateCompanyEmailInput } from './dto/email.input';

/** What an e-mail write stores, and what is wrong with it. */
interface PreparedEmail extends Checked {
  values: { email: string; domain: string; emailTypeId: string | null };
}

/** E-mail addresses of a company (C23-C25 and their validate operation). */
@Injectable()
export class EmailsService {
  constructor(
    private readonly repo: ContactDataRepository,
    private readonly lists: ContactLists,
    private readonly settings: SettingsLookupService,
  ) {}

  private load(ctx: RequestContext, companyId: string) {
    return (db: Db) => this.repo.emails(db, ctx.tenantId, companyId);
  }

  /**
   * The e-mail after the write (`stored` absent: a new one). The type must be an entry of the
   * tenant's email-types list; the same address twice (ignoring case) on one company is a conflict.
   */
  private async prepare(
    ctx: RequestContext,
    db: Db,
    rows: EmailRow[],
    input: UpdateCompanyEmailInput,
    stored?: EmailRow,
  ): Promise<PreparedEmail> {
    const problems: FieldProblem[] = [];
    const email = input.email ?? stored?.email ?? '';
    let emailTypeId = stored?.emailTypeId ?? null;
    if (input.emailType !== undefined) {
      emailTypeId = input.emailType?.id ?? null;
      if (emailTypeId) problems.push(...(await this.typeProblems(ctx, emailTypeId, db)));
    }
    const conflicts = rows.some((r) => r.id !== stored?.id && sameEmail(r.email, email))
      ? [problem('email', 'emailExists', { value: email })]
      : [];
    return { values: { email, domain: emailDomain(email), emailTypeId }, problems, conflicts };
  }

  private async typeProblems(ctx: RequestContext, id: string, db: Db): Promise<FieldProblem[]> {
    try {
      await this.settings.requireEntry(
        ctx.tenantId,
        'EMAIL_TYPES',
        id,
        'emailType.id',
        ctx.language,
        db,
      );
      return [];
    } catch (err) {
      if (err instanceof AppException && err.problems.length) return err.problems;
      throw err;
    }
  }

  /** The output with its type's text in the caller's language (no query for system entries). */
  private async view(ctx: RequestContext, row: EmailRow): Promise<CompanyEmail> {
    const ids = row.emailTypeId ? [row.emailTypeId] : [];
    const types = await this.settings.entries(ctx.tenantId, 'EMAIL_TYPES', ids, ctx.language);
    return toCompanyEmail(row, types);
  }

  /** C23: appended at the end; the favorite when marked or when it is the first address. */
  async create(
    ctx: RequestContext,
    companyId: string,
    input: CreateCompanyEmailInput,
  ): Promise<CompanyEmail> {
    const row = await this.lists.write(
      ctx,
      companyId,
      this.load(ctx, companyId),
      async (tx, rows) => {
        const prepared = await this.prepare(ctx, tx, rows, input);
        this.lists.reject(prepared);
        const id = randomUUID();
        const plan = planWrite(rows, id, input.isFavorite);
        const created = await this.repo.createEmail(tx, ctx.tenantId, companyId, id, {
          ...prepared.values,
          isFavorite: plan.favoriteId === id,
          position: nextPosition(rows),
        });
        await this.lists.settle(tx, ctx, 'email', companyId, plan, id);
        return created;
      },
    );
    return this.view(ctx, row);
  }

  /**
   * C24: fields left out stay. Marked favorite: the previous favorite loses it; the favorite
   * unmarked: the first address becomes the favorite.
   */
  async update(
    ctx: RequestContext,
    companyId: string,
    emailId: string,
    input: UpdateCompanyEmailInput,
  ): Promise<CompanyEmail> {
    const row = await this.lists.write(
      ctx,
      companyId,
      this.load(ctx, companyId),
      async (tx, rows) => {
        const stored = this.lists.item(ctx, 'email', rows, emailId);
        const prepared = await this.prepare(ctx, tx, rows, input, stored);
        this.lists.reject(prepared);
        const plan = planWrite(rows, emailId, input.isFavorite);
        const updated = await this.repo.updateEmail(tx, ctx.tenantId, emailId, {
          ...prepared.values,
          isFavorite: plan.favoriteId === emailId,
        });
        await this.lists.settle(tx, ctx, 'email', companyId, plan, emailId);
        return updated;
      },
    );
    return this.view(ctx, row);
  }

  /** C25: when the favorite goes, the first remaining address becomes the favorite. */
  remove(ctx: RequestContext, companyId: string, emailId: string): Promise<CompanyContactDeleted> {
    return this.lists.remove(ctx, 'email', companyId, emailId, this.load(ctx, companyId));
  }

  /** Every check of C23 (or of C24 with emailId) without writing. */
  async validate(
    ctx: RequestContext,
    companyId: string,
    raw: unknown,
    emailId?: string,
  ): Promise<CompanyEmailValidation> {
    const rows = await this.lists.read(ctx, companyId, this.load(ctx, companyId));
    const stored = emailId ? this.lists.item(ctx, 'email', rows, emailId) : undefined;
    const checked = stored
      ? checkObject(UpdateCompanyEmailInput, raw)
      : checkObject(CreateCompanyEmailInput, raw);
    let outcome: Checked = { problems: checked.problems, conflicts: [] };
    let calculated: CompanyEmailValidation['calculated'] = null;
    // the domain rules need well-formed input
    if (!checked.problems.length) {
      const prepared = await this.prepare(ctx, this.repo.client, rows, checked.value, stored);
      outcome = prepared;
      if (!prepared.problems.length && !prepared.conflicts.length) {
        calculated = { email: prepared.values.email, domain: prepared.values.domain };
      }
    }
    const errors = this.lists.errors(ctx, outcome);
    return { valid: errors.length === 0, errors, calculated };
  }
}
