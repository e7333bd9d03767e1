import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { actorOf } from '@crm/persistence';
import { AppException, ErrorCode, FieldProblem, translateError } from '@crm/errors';
import type { FieldError } from '@crm/envelope';
import type { RequestContext } from '@crm/request-context';
import { CompanyLookup } from '../companies/company-lookup.service';
import { ContactDataRepository, ContactKind, Db } from './contact-data.repository';
import { FavoritePlan, ListItem, othersOf, planRemove } from './contact-favorites';
import type { CompanyContactDeleted } from './dto/contact-validation.output';
import type { Tx } from '../database/tx';

/** A check of one write: 400 problems first; conflicts with the company's other items are 409. */
export interface Checked {
  problems: FieldProblem[];
  conflicts: FieldProblem[];
}

/**
 * What the three lists (addresses, phones, e-mails) share: the write transaction with the
 * company locked, 404s, the favorite rule, errors and validate answers.
 */
@Injectable()
export class ContactLists {
  constructor(
    private readonly repo: ContactDataRepository,
    private readonly lookup: CompanyLookup,
    private readonly i18n: I18nService,
  ) {}

  notFound(ctx: RequestContext, kind: ContactKind, id: string): AppException {
    const resource = this.i18n.t(`contact.resource.${kind}`, { lang: ctx.language }) as string;
    return AppException.notFound(resource, id);
  }

  /** The item `id` of the list; 404 naming it when the company has no such item. */
  item<T extends ListItem>(ctx: RequestContext, kind: ContactKind, rows: T[], id: string): T {
    const found = rows.find((r) => r.id === id);
    if (!found) throw this.notFound(ctx, kind, id);
    return found;
  }

  /**
   * Runs a write of one list: in one transaction, with the company locked (404 when it is not
   * the tenant's; writers of one company's lists go one at a time, so favorites and positions
   * stay consistent), its list read in order, and the company marked as modified.
   */
  write<Row, T>(
    ctx: RequestContext,
    companyId: string,
    load: (db: Db) => Promise<Row[]>,
    fn: (tx: Tx, rows: Row[]) => Promise<T>,
  ): Promise<T> {
    return this.repo.transaction(async (tx) => {
      await this.lookup.lock(tx, ctx, companyId);
      const out = await fn(tx, await load(tx));
      await this.repo.touchCompany(tx, ctx.tenantId, companyId, actorOf(ctx));
      return out;
    });
  }

  /** The list for a validate operation (nothing is written, so nothing is locked). */
  async read<Row>(
    ctx: RequestContext,
    companyId: string,
    load: (db: Db) => Promise<Row[]>,
  ): Promise<Row[]> {
    await this.lookup.require(ctx, companyId);
    return load(this.repo.client);
  }

  /** After writing `writtenId` with its own flag: the other items follow the plan. */
  settle(
    tx: Tx,
    ctx: RequestContext,
    kind: ContactKind,
    companyId: string,
    plan: FavoritePlan,
    writtenId: string,
  ): Promise<void> {
    return this.repo.applyFavorites(tx, kind, ctx.tenantId, companyId, othersOf(plan, writtenId));
  }

  /** C17, C21, C25: removes an item; when it was the favorite, the first remaining one is. */
  remove(
    ctx: RequestContext,
    kind: ContactKind,
    companyId: string,
    id: string,
    load: (db: Db) => Promise<ListItem[]>,
  ): Promise<CompanyContactDeleted> {
    return this.write(ctx, companyId, load, async (tx, rows) => {
      this.item(ctx, kind, rows, id);
      const plan = planRemove(rows, id);
      await this.repo.remove(tx, kind, ctx.tenantId, companyId, id);
      await this.repo.applyFavorites(tx, kind, ctx.tenantId, companyId, plan);
      return { id, newFavoriteId: plan.promote };
    });
  }

  /** Throws the 400 listing every problem, else the 409 of the first conflict. */
  reject({ problems, conflicts }: Checked): void {
    if (problems.length) throw AppException.validation(problems);
    const [conflict] = conflicts;
    if (conflict) {
      const messageKey = `contact.conflict.${conflict.rule}`;
      const args = { value: conflict.args?.value };
      throw new AppException(ErrorCode.CONFLICT, messageKey, args, [
        { ...conflict, args, messageKey },
      ]);
    }
  }

  /** The errors of a validate answer, in the caller's language (conflicts are errors here). */
  errors(ctx: RequestContext, { problems, conflicts }: Checked): FieldError[] {
    const all = [...problems, ...conflicts];
    return translateError(this.i18n, AppException.validation(all), ctx.language).errors;
  }
}
