import { Injectable } from '@nestjs/common';
import { Paged, paged } from '@crm/envelope';
import { PageQuery, parseSort, skipTake, toOrderBy } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import type { BusinessCard } from '../people/dto/person.dto';
import { cardEntryIds, toCard } from '../people/person.mapper';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import { BusinessCardsRepository, CardOrder, CardRecord } from './business-cards.repository';
import { CardChecks, PreparedCard } from './card-checks.service';
import { successorFavorite } from './card-rules';
import type { BusinessCardInput } from './dto/business-card.input';
import type { BusinessCardsDeleted } from './dto/business-card.output';
import { buildVCard, VCardFile } from './vcard';
import { isUuid } from '@crm/errors';
import type { Tx } from '../database/tx';

const SORTABLE = [
  'dateCreated',
  'dateModified',
  'business',
  'validFrom',
  'validTo',
  'isFavorite',
  'isActive',
  'id',
] as const;

/** Cards of a person (B1-B7, B9); REST and GraphQL both call these. */
@Injectable()
export class BusinessCardsService {
  constructor(
    private readonly repo: BusinessCardsRepository,
    private readonly settings: SettingsLookupService,
    private readonly checks: CardChecks,
  ) {}

  /** Records -> API cards, settings texts resolved in one query for all of them. */
  async toDtos(ctx: RequestContext, records: CardRecord[]): Promise<BusinessCard[]> {
    const entries = await this.settings.anyEntries(
      ctx.tenantId,
      records.flatMap(cardEntryIds),
      ctx.language,
    );
    return records.map((r) => toCard(r, entries));
  }

  async requirePerson(ctx: RequestContext, personId: string): Promise<void> {
    if (!isUuid(personId) || !(await this.repo.personExists(ctx.tenantId, personId))) {
      throw this.checks.notFound('person', personId, ctx.language);
    }
  }

  /** The card of the person (or any card of the tenant without personId); 404 otherwise. */
  async record(ctx: RequestContext, personId: string | undefined, cardId: string) {
    if (personId !== undefined && !isUuid(personId)) {
      throw this.checks.notFound('person', personId, ctx.language);
    }
    const found = isUuid(cardId) ? await this.repo.find(ctx.tenantId, cardId, personId) : null;
    if (found) return found;
    if (personId) await this.requirePerson(ctx, personId);
    throw this.checks.notFound('card', cardId, ctx.language);
  }

  async list(
    ctx: RequestContext,
    personId: string,
    query: PageQuery,
  ): Promise<Paged<BusinessCard>> {
    if (!isUuid(personId)) throw this.checks.notFound('person', personId, ctx.language);
    const sort = parseSort(
      query.sort,
      SORTABLE,
      [
        { field: 'isFavorite', direction: 'desc' },
        { field: 'dateCreated', direction: 'asc' },
      ],
      'id',
    );
    const { skip, take } = skipTake(query);
    const [records, total] = await this.repo.page(
      ctx.tenantId,
      personId,
      query.q,
      toOrderBy(sort) as CardOrder,
      skip,
      take,
    );
    if (total === 0) await this.requirePerson(ctx, personId);
    return paged(await this.toDtos(ctx, records), total);
  }

  /** The card or null (GraphQL reads answer null for an unknown id, like person(id)). */
  async find(ctx: RequestContext, personId: string | undefined, cardId: string) {
    if (!isUuid(cardId) || (personId !== undefined && !isUuid(personId))) return null;
    const found = await this.repo.find(ctx.tenantId, cardId, personId);
    return found ? (await this.toDtos(ctx, [found]))[0] : null;
  }

  async get(ctx: RequestContext, personId: string | undefined, cardId: string) {
    return (await this.toDtos(ctx, [await this.record(ctx, personId, cardId)]))[0];
  }

  /** Many cards by id in one query, in the order asked; unknown ids give null (federation). */
  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<(BusinessCard | null)[]> {
    const valid = [...new Set(ids.filter(isUuid))];
    const records = valid.length ? await this.repo.findMany(ctx.tenantId, valid) : [];
    const byId = new Map((await this.toDtos(ctx, records)).map((c) => [c.id, c]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** 400 for problems, 409 for a private card with a company, 404/503 from crm-companies. */
  private async enforce(ctx: RequestContext, prep: PreparedCard, cardId: string | null) {
    if (prep.problems.length) throw this.checks.invalid(prep.problems, ctx.language);
    if (prep.privateWithCompany) throw this.checks.privateCard(cardId ?? '');
    if (prep.companyToCheck && !(await this.checks.companyExists(ctx, prep.companyToCheck))) {
      throw this.checks.notFound('company', prep.companyToCheck, ctx.language);
    }
  }

  private lists(prep: PreparedCard) {
    return {
      ...(prep.phones ? { phones: prep.phones as object[] } : {}),
      ...(prep.emails ? { emails: prep.emails as object[] } : {}),
      ...(prep.positions ? { businessPositions: prep.positions as object[] } : {}),
    };
  }

  async create(ctx: RequestContext, personId: string, input: BusinessCardInput) {
    await this.requirePerson(ctx, personId);
    const prep = await this.checks.prepare(ctx, input, null);
    await this.enforce(ctx, prep, null);
    const record = await this.repo.transaction(async (tx) => {
      await this.checks.holdCompany(tx, ctx, prep.columns.companyId);
      if (!(await this.repo.lockPerson(tx, ctx.tenantId, personId))) {
        throw this.checks.notFound('person', personId, ctx.language);
      }
      const card = await this.repo.createCard(
        tx,
        ctx.tenantId,
        personId,
        { ...prep.columns, ...this.lists(prep) },
        (prep.addresses ?? []).map((a) => a.data),
      );
      if (card.isFavorite) await this.repo.demoteCards(tx, ctx.tenantId, personId, card.id);
      return card;
    });
    return (await this.toDtos(ctx, [record]))[0];
  }

  async update(ctx: RequestContext, personId: string, cardId: string, input: BusinessCardInput) {
    const existing = await this.record(ctx, personId, cardId);
    const prep = await this.checks.prepare(ctx, input, existing);
    await this.enforce(ctx, prep, cardId);
    const record = await this.repo.transaction(async (tx) => {
      // also a company id the card had when read: it may have been disconnected since
      await this.checks.holdCompany(tx, ctx, prep.columns.companyId);
      if (!(await this.repo.lockCard(tx, ctx.tenantId, personId, cardId))) {
        throw this.checks.notFound('card', cardId, ctx.language);
      }
      await this.repo.updateCard(tx, ctx.tenantId, cardId, {
        ...prep.columns,
        ...this.lists(prep),
      });
      if (prep.addresses) await this.syncAddresses(tx, ctx, cardId, prep);
      if (prep.columns.isFavorite) {
        await this.repo.demoteCards(tx, ctx.tenantId, personId, cardId);
      }
      return (await this.repo.find(ctx.tenantId, cardId, personId, tx))!;
    });
    return (await this.toDtos(ctx, [record]))[0];
  }

  /** The body's address list replaces the card's: listed ids are updated, others removed. */
  private async syncAddresses(tx: Tx, ctx: RequestContext, cardId: string, prep: PreparedCard) {
    const plan = prep.addresses!;
    const current = await this.repo.addresses(tx, ctx.tenantId, cardId);
    const keep = new Set(plan.map((a) => a.id).filter(Boolean));
    const gone = current.filter((a) => !keep.has(a.id)).map((a) => a.id);
    if (gone.length) await this.repo.deleteAddresses(tx, ctx.tenantId, cardId, gone);
    for (const [position, a] of plan.entries()) {
      if (a.id)
        await this.repo.updateAddress(tx, ctx.tenantId, cardId, a.id, { ...a.data, position });
      else await this.repo.createAddress(tx, ctx.tenantId, cardId, { ...a.data, position });
    }
  }

  /**
   * Deletes cards of a person, all or none. When the favorite card goes and exactly one card
   * remains, that one becomes the favorite (the rule the seed gives for addresses).
   */
  async remove(
    ctx: RequestContext,
    personId: string,
    ids: string[],
  ): Promise<BusinessCardsDeleted> {
    if (!isUuid(personId)) throw this.checks.notFound('person', personId, ctx.language);
    const unique = [...new Set(ids)];
    return this.repo.transaction(async (tx) => {
      if (!(await this.repo.lockPerson(tx, ctx.tenantId, personId))) {
        throw this.checks.notFound('person', personId, ctx.language);
      }
      const cards = await this.repo.cardFlags(tx, ctx.tenantId, personId);
      const known = new Set(cards.map((c) => c.id));
      const missing = unique.filter((id) => !known.has(id));
      if (missing.length) throw this.checks.notFound('card', missing.join(', '), ctx.language);
      await this.repo.deleteCards(tx, ctx.tenantId, personId, unique);
      const successor = successorFavorite(cards, new Set(unique));
      if (successor) await this.repo.setCardFavorite(tx, ctx.tenantId, successor);
      return { ids: unique, newFavoriteId: successor };
    });
  }

  async removeOne(ctx: RequestContext, personId: string, cardId: string) {
    if (!isUuid(cardId)) throw this.checks.notFound('card', cardId, ctx.language);
    return this.remove(ctx, personId, [cardId]);
  }

  /** B7: malformed ids are a 400 naming each by index; unknown ones a 404 (nothing deleted). */
  async removeMany(ctx: RequestContext, personId: string, ids: string[]) {
    const problems = ids
      .map((id, i) => ({ id, i }))
      .filter(({ id }) => !isUuid(id))
      .map(({ i }) => ({ field: `ids[${i}]`, rule: 'isUuid' }));
    if (problems.length) throw this.checks.invalid(problems, ctx.language);
    return this.remove(ctx, personId, ids);
  }

  async vcard(ctx: RequestContext, personId: string, cardId: string): Promise<VCardFile> {
    const record = await this.record(ctx, personId, cardId);
    const [[card], names] = await Promise.all([
      this.toDtos(ctx, [record]),
      this.repo.personNames(ctx.tenantId, personId),
    ]);
    if (!names) throw this.checks.notFound('person', personId, ctx.language);
    return buildVCard(card, names);
  }
}
