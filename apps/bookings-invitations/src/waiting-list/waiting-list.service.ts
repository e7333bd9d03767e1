import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { I18nService } from 'nestjs-i18n';
import { AppException, FieldProblem, isUuid } from '@crm/errors';
import { isUniqueViolation } from '@crm/persistence';
import type { RequestContext } from '@crm/request-context';
import { checkEventOpen, checkTicketTypes } from '../bookings/booking-checks';
import { conflict, problem } from '../bookings/booking-problems';
import { CapacityRepository } from '../capacity/capacity.repository';
import { admitInOrder } from '../capacity/seat-admission';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import type { EventCopy, TicketType } from '../generated/prisma/client';
import { HoldsRepository } from '../holds/holds.repository';
import { TicketTypesRepository } from '../ticket-types/ticket-types.repository';
import type { JoinWaitingListInput } from './dto/waiting-list.input';
import type { WaitingListEntry, WaitingListEntryDetails } from './dto/waiting-list.output';
import { ListAllocations } from './list-allocations';
import { toEntry, toEntryDetails } from './waiting-list.mapper';
import { EntryRow, WaitingListRepository } from './waiting-list.repository';
import type { Tx } from '../database/tx';

/** Per-booking rules of a type that are about the quantity wanted. */
const QUANTITY_RULES = new Set(['minPerBooking', 'maxPerBooking']);

/** Attempts of a leave or removal that raced with an offer being made. */
const END_ATTEMPTS = 3;

/**
 * The waiting lists: a visitor joins the list of a sold-out ticket type (public, by the entry's
 * token afterwards), the organiser lists, removes and reorders entries. Offers are made by
 * WaitingListOffers; a join decides under the type's and event's counter locks whether the type
 * is sold out for the public, as a booking's batch would.
 */
@Injectable()
export class WaitingListService {
  constructor(
    private readonly entries: WaitingListRepository,
    private readonly lists: ListAllocations,
    private readonly capacity: CapacityRepository,
    private readonly holds: HoldsRepository,
    private readonly copies: EventCopiesRepository,
    private readonly types: TicketTypesRepository,
    private readonly i18n: I18nService,
  ) {}

  async join(
    ctx: RequestContext,
    eventId: string,
    input: JoinWaitingListInput,
    now = new Date(),
  ): Promise<WaitingListEntry> {
    if (!isUuid(eventId)) throw this.notFound(ctx, 'event', eventId);
    const event = eventId.toLowerCase();
    const typeId = input.ticketTypeId.toLowerCase();
    let typeName = '';
    const alreadyWaiting = () =>
      conflict('alreadyWaiting', { name: typeName }, [
        problem('email', 'alreadyWaiting', { name: typeName }),
      ]);
    const token = await this.entries
      .transaction(async (tx) => {
        const copy = await this.copies.find(ctx.tenantId, event, tx);
        const type = await this.checkJoin(ctx, tx, copy, event, typeId, input, now);
        typeName = type.name;
        if (await this.entries.isWaiting(tx, ctx.tenantId, typeId, input.email))
          throw alreadyWaiting();
        await this.checkSoldOut(tx, ctx.tenantId, event, type, input.quantity);
        const row = {
          id: randomUUID(),
          tenantId: ctx.tenantId,
          eventId: event,
          ticketTypeId: typeId,
          token: randomBytes(16).toString('base64url'),
          email: input.email.trim(),
          firstname: input.firstname.trim(),
          lastname: input.lastname.trim(),
          quantity: input.quantity,
          language: input.language ?? ctx.language,
          websiteId: input.websiteId?.toLowerCase() ?? null,
        };
        await this.entries.insert(tx, row);
        return row.token;
      })
      .catch((err: unknown) => {
        // the same e-mail joined at the same time (the unique index of waiting e-mails)
        throw isUniqueViolation(err) ? alreadyWaiting() : err;
      });
    return this.find(ctx, token);
  }

  async find(ctx: RequestContext, token: string): Promise<WaitingListEntry> {
    const entry = await this.entries.findByToken(ctx.tenantId, token);
    if (!entry) throw this.notFound(ctx, 'waitingListEntry', token);
    return toEntry(entry);
  }

  /** The visitor leaves; an offer still open is released at once (its seats pass on). */
  async leave(ctx: RequestContext, token: string): Promise<void> {
    const read = () => this.entries.findByToken(ctx.tenantId, token);
    await this.end(ctx, read, token, 'left', 'token');
  }

  async list(
    ctx: RequestContext,
    eventId: string,
    ticketTypeId?: string,
  ): Promise<WaitingListEntryDetails[]> {
    const copy = isUuid(eventId)
      ? await this.copies.find(ctx.tenantId, eventId.toLowerCase())
      : null;
    if (!copy) throw this.notFound(ctx, 'event', eventId);
    const rows = await this.entries.list(
      ctx.tenantId,
      copy.eventId,
      ticketTypeId?.toLowerCase() ?? null,
    );
    return rows.map(toEntryDetails);
  }

  /** The organiser removes an entry; an offer still open is released at once. */
  async remove(ctx: RequestContext, id: string): Promise<void> {
    await this.end(ctx, () => this.byId(ctx.tenantId, id), id, 'removed', 'id');
  }

  /** Moves a waiting entry to `position` (1-based; past the end: the last) among its type's. */
  async move(ctx: RequestContext, id: string, position: number): Promise<WaitingListEntryDetails> {
    const entry = await this.byId(ctx.tenantId, id);
    if (!entry) throw this.notFound(ctx, 'waitingListEntry', id);
    await this.entries.transaction(async (tx) => {
      const order = await this.entries.lockTypeWaiting(tx, ctx.tenantId, entry.ticketTypeId);
      if (!order.includes(entry.id)) {
        const now = await this.entries.findById(ctx.tenantId, entry.id, tx);
        const status = now?.status ?? entry.status;
        throw conflict('entryNotWaiting', { status }, [
          problem('id', 'entryNotWaiting', { status }),
        ]);
      }
      const rest = order.filter((x) => x !== entry.id);
      rest.splice(Math.min(position, order.length) - 1, 0, entry.id);
      await this.entries.rerank(tx, rest);
    });
    return toEntryDetails((await this.entries.findById(ctx.tenantId, entry.id))!);
  }

  /** The event open, the type of it and on sale, the quantity within its per-booking limits. */
  private async checkJoin(
    ctx: RequestContext,
    tx: Tx,
    copy: EventCopy | null,
    eventId: string,
    typeId: string,
    input: JoinWaitingListInput,
    now: Date,
  ): Promise<TicketType> {
    const closed = checkEventOpen(eventId, copy, now);
    if (closed === 'eventGone') throw this.notFound(ctx, 'event', eventId);
    if (closed) throw closed;
    const types = await this.types.findMany(ctx.tenantId, eventId, [typeId], tx);
    const byId = new Map(types.map((t) => [t.id, t]));
    const problems: FieldProblem[] = checkTicketTypes(
      [{ ticketTypeId: typeId, count: input.quantity, index: 0 }],
      byId,
      now,
    ).map((p) => ({ ...p, field: QUANTITY_RULES.has(p.rule) ? 'quantity' : 'ticketTypeId' }));
    const websiteId = input.websiteId?.toLowerCase();
    if (websiteId && !copy!.websiteIds.includes(websiteId))
      problems.push(problem('websiteId', 'unknownWebsite', { value: websiteId }));
    if (problems.length) throw AppException.validation(problems);
    return byId.get(typeId)!;
  }

  /**
   * Under SHARE locks of the type's and event's counters (writers of them wait, other joins do
   * not): a visitor who could book `quantity` now (seats free that the waiting list cannot use)
   * books instead (409 seatsAvailable). A join committed meanwhile adds an entry at the end: it
   * changes nothing of what the public may book.
   */
  private async checkSoldOut(
    tx: Tx,
    tenantId: string,
    eventId: string,
    type: TicketType,
    quantity: number,
  ): Promise<void> {
    const free = await this.capacity.shareFree(tx, tenantId, eventId, [type.id]);
    if (!free) return;
    const { publicFree } = await this.lists.split(tx, tenantId, eventId, free);
    const [admission] = admitInOrder([[{ ticketTypeId: type.id, count: quantity }]], publicFree);
    if (!admission.admitted) return;
    const left = [publicFree.types.get(type.id), publicFree.event].filter(
      (n): n is number => n !== null && n !== undefined,
    );
    const count = left.length ? Math.min(...left) : quantity;
    throw conflict('seatsAvailable', { name: type.name }, [
      problem('ticketTypeId', 'seatsAvailable', { name: type.name, count }),
    ]);
  }

  /**
   * Ends an entry (left, removed): a waiting one at once; an offered one whose hold is still
   * active releases the hold first (the seats pass on at the next sweep); a booked one is a 409
   * (cancel the booking); one already ended stays as it is. A sweep that offers meanwhile changes
   * the entry under us: read it again and decide anew.
   */
  private async end(
    ctx: RequestContext,
    read: () => Promise<EntryRow | null>,
    key: string,
    status: 'left' | 'removed',
    field: 'token' | 'id',
  ): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const entry = await read();
      if (!entry) throw this.notFound(ctx, 'waitingListEntry', key);
      if (entry.status === 'booked')
        throw conflict('entryBooked', {}, [problem(field, 'entryBooked')]);
      if (entry.stored !== 'waiting' && entry.status !== 'offered') return;
      if (attempt === END_ATTEMPTS) throw new Error(`waiting entry ${entry.id} kept changing`);
      const done = await this.entries.transaction(async (tx) => {
        if (entry.stored === 'waiting')
          return this.entries.end(tx, ctx.tenantId, entry.id, status, ['waiting']);
        const hold = await this.holds.release(tx, ctx.tenantId, entry.holdToken!);
        if (!hold) return false;
        await this.capacity.shift(tx, hold.tenantId, hold.eventId, {
          held: hold.seats.map((s) => ({ ...s, count: -s.count })),
        });
        return this.entries.end(tx, ctx.tenantId, entry.id, status, ['offered']);
      });
      if (done) return;
    }
  }

  private byId(tenantId: string, id: string): Promise<EntryRow | null> {
    return isUuid(id) ? this.entries.findById(tenantId, id.toLowerCase()) : Promise.resolve(null);
  }

  private notFound(ctx: RequestContext, resource: 'event' | 'waitingListEntry', id: string) {
    const name = this.i18n.t(`bookings.resource.${resource}`, { lang: ctx.language });
    return AppException.notFound(name as string, id.slice(0, 100));
  }
}
