import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import { AppException, ErrorCode, FieldProblem, isUuid, throwIfProblems } from '@crm/errors';
import { parseSort, skipTake, toOrderBy } from '@crm/paging';
import { createdStamps, modifiedStamps } from '@crm/persistence';
import type { RequestContext } from '@crm/request-context';
import { isTaxRateId } from '@crm/tax-rates';
import { randomUUID } from 'node:crypto';
import { EventLookup } from '../event-copies/event-lookup.service';
import type { TicketType as TicketTypeRow } from '../generated/prisma/client';
import { SigningKeys } from '../ticket-codes/signing-keys';
import type {
  CreateTicketTypeInput,
  TicketTypeListQuery,
  UpdateTicketTypeInput,
} from './dto/ticket-type.input';
import type { TicketType, TicketTypeDeleted } from './dto/ticket-type.output';
import { toTicketType } from './ticket-type.mapper';
import { normalPrice, PRICE_PATTERN } from './ticket-prices';
import { TICKET_TYPE_SORT_FIELDS, TicketTypesRepository } from './ticket-types.repository';
import { EventTicketsRepository } from '../event-tickets/event-tickets.repository';

let currencies: Set<string> | null = null;
/** ISO 4217 codes as the runtime knows them (Intl.supportedValuesOf, ICU's list). */
const isCurrency = (v: string) => {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(v);
};

const problem = (field: string, rule: string, args?: Record<string, string | number>) => ({
  field,
  rule,
  args,
  messageKey: `tickets.problems.${rule}`,
});

/** The facts of a ticket type the cross-field rules look at. */
interface Shape {
  price?: string;
  currency?: string;
  taxRateId?: string | null;
  saleStartsAt: Date | null;
  saleEndsAt: Date | null;
  minPerBooking: number;
  maxPerBooking: number | null;
}

/**
 * Ticket types K1-K2. The event must be the tenant's (this service's copy of it, else asked of
 * the events service). Prices are gross, stored with two decimals; net and tax are derived.
 */
@Injectable()
export class TicketTypesService {
  constructor(
    private readonly repo: TicketTypesRepository,
    private readonly events: EventLookup,
    private readonly i18n: I18nService,
    private readonly tickets: EventTicketsRepository,
    private readonly keys: SigningKeys,
  ) {}

  private notFound(ctx: RequestContext, id: string): AppException {
    const resource = this.i18n.t('tickets.resource.ticketType', { lang: ctx.language });
    return AppException.notFound(resource as string, id);
  }

  private check(s: Shape): void {
    const problems: FieldProblem[] = [];
    if (s.price !== undefined && !PRICE_PATTERN.test(s.price)) {
      problems.push(problem('price', 'price'));
    }
    if (s.currency !== undefined && !isCurrency(s.currency)) {
      problems.push(problem('currency', 'currency', { value: s.currency }));
    }
    if (s.taxRateId != null && !isTaxRateId(s.taxRateId)) {
      problems.push(problem('taxRateId', 'taxRate', { value: s.taxRateId }));
    }
    if (s.saleStartsAt && s.saleEndsAt && s.saleEndsAt <= s.saleStartsAt) {
      problems.push(problem('saleEndsAt', 'salePeriod'));
    }
    if (s.maxPerBooking != null && s.maxPerBooking < s.minPerBooking) {
      problems.push(problem('maxPerBooking', 'maxBelowMin', { min: s.minPerBooking }));
    }
    throwIfProblems(problems);
  }

  private async view(ctx: RequestContext, row: TicketTypeRow): Promise<TicketType> {
    return toTicketType(row, await this.events.find(ctx.tenantId, row.eventId));
  }

  /** K1 GET: the event's ticket types, paged; one query for the event, one for the page. */
  async list(ctx: RequestContext, query: TicketTypeListQuery): Promise<Paged<TicketType>> {
    const sort = parseSort(
      query.sort,
      TICKET_TYPE_SORT_FIELDS,
      [{ field: 'dateCreated', direction: 'asc' }],
      'id',
    );
    const eventId = query.eventId.toLowerCase();
    const event = await this.events.require(ctx, eventId);
    const [rows, total] = await this.repo.page(ctx.tenantId, eventId, {
      ...skipTake(query),
      orderBy: toOrderBy(sort),
      q: query.q?.trim() || undefined,
    });
    return paged(
      rows.map((r) => toTicketType(r, event)),
      total,
    );
  }

  /** K2 GET. */
  async get(ctx: RequestContext, id: string): Promise<TicketType> {
    const row = isUuid(id) ? await this.repo.find(ctx.tenantId, id) : null;
    if (!row) throw this.notFound(ctx, id);
    return this.view(ctx, row);
  }

  /** K1 POST. */
  async create(ctx: RequestContext, input: CreateTicketTypeInput): Promise<TicketType> {
    if (!input.name.trim()) throwIfProblems([{ field: 'name', rule: 'isNotEmpty' }]);
    const shape: Shape = {
      price: input.price,
      currency: input.currency,
      taxRateId: input.taxRateId,
      saleStartsAt: input.saleStartsAt ? new Date(input.saleStartsAt) : null,
      saleEndsAt: input.saleEndsAt ? new Date(input.saleEndsAt) : null,
      minPerBooking: input.minPerBooking ?? 1,
      maxPerBooking: input.maxPerBooking ?? null,
    };
    this.check(shape);
    const eventId = input.eventId.toLowerCase();
    const event = await this.events.require(ctx, eventId);
    const row = await this.repo.transaction(async (tx) => {
      await this.events.holdInTx(tx, ctx, eventId);
      // the event's signing key comes with its first type, so reading a ticket's code never writes
      await this.keys.ensure(tx, ctx.tenantId, eventId);
      return this.repo.create(tx, {
        id: randomUUID(),
        tenantId: ctx.tenantId,
        eventId,
        name: input.name.trim(),
        description: input.description?.trim() || null,
        price: normalPrice(input.price),
        currency: input.currency,
        taxRateId: input.taxRateId ?? null,
        quota: input.quota ?? null,
        saleStartsAt: shape.saleStartsAt,
        saleEndsAt: shape.saleEndsAt,
        minPerBooking: shape.minPerBooking,
        maxPerBooking: shape.maxPerBooking,
        active: input.active ?? true,
        ...createdStamps(ctx),
      });
    });
    return toTicketType(row, event);
  }

  /** K2 PUT: fields not given stay; the rules are checked on the result. */
  async update(ctx: RequestContext, id: string, input: UpdateTicketTypeInput): Promise<TicketType> {
    if (input.name !== undefined && !input.name.trim()) {
      throwIfProblems([{ field: 'name', rule: 'isNotEmpty' }]);
    }
    this.check({
      price: input.price,
      currency: input.currency,
      taxRateId: input.taxRateId,
      saleStartsAt: null,
      saleEndsAt: null,
      minPerBooking: 1,
      maxPerBooking: null,
    });
    const row = await this.repo.transaction(async (tx) => {
      const current = isUuid(id) ? await this.repo.lock(tx, ctx.tenantId, id) : null;
      if (!current) throw this.notFound(ctx, id);
      const pick = <K extends keyof UpdateTicketTypeInput>(k: K, now: unknown) =>
        input[k] === undefined ? now : input[k];
      const dateOf = (v: unknown) => (v ? new Date(v as string) : null);
      const next = {
        saleStartsAt: dateOf(pick('saleStartsAt', current.saleStartsAt?.toISOString())),
        saleEndsAt: dateOf(pick('saleEndsAt', current.saleEndsAt?.toISOString())),
        minPerBooking: (pick('minPerBooking', current.minPerBooking) as number) ?? 1,
        maxPerBooking: pick('maxPerBooking', current.maxPerBooking) as number | null,
      };
      this.check(next);
      return this.repo.update(tx, current.id, {
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.description !== undefined
          ? { description: input.description?.trim() || null }
          : {}),
        ...(input.price !== undefined ? { price: normalPrice(input.price) } : {}),
        ...(input.currency !== undefined ? { currency: input.currency } : {}),
        ...(input.taxRateId !== undefined ? { taxRateId: input.taxRateId } : {}),
        ...(input.quota !== undefined ? { quota: input.quota } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        ...next,
        ...modifiedStamps(ctx),
      });
    });
    return this.view(ctx, row);
  }

  /**
   * K2 DELETE. A type with sold tickets must not vanish under them: 409 naming the count (set it
   * inactive instead). Checked under the type's row lock, which a booking's take waits for, so
   * no ticket can be sold between the count and the delete.
   */
  async remove(ctx: RequestContext, id: string): Promise<TicketTypeDeleted> {
    return this.repo.transaction(async (tx) => {
      const current = isUuid(id) ? await this.repo.lock(tx, ctx.tenantId, id) : null;
      if (!current) throw this.notFound(ctx, id);
      const sold = await this.tickets.validOfType(tx, ctx.tenantId, current.id);
      if (sold > 0) {
        throw new AppException(
          ErrorCode.CONFLICT,
          'tickets.errors.hasTickets',
          { name: current.name, count: sold },
          [problem('tickets', 'hasTickets', { count: sold })],
        );
      }
      await this.repo.delete(tx, ctx.tenantId, current.id);
      return { id: current.id };
    });
  }
}
