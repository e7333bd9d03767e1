import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import { AppException, ErrorCode, FieldProblem, isUuid, throwIfProblems } from '@crm/errors';
import {
  addOutboxEvent,
  BookingLinkedEvent,
  MessageBus,
  PeopleExistReply,
  PeopleExistRequest,
  Subjects,
} from '@crm/messaging';
import { parseSort, skipTake, toOrderBy } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { TombstonesRepository } from '../cross-service/tombstones.repository';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import { Prisma } from '../generated/prisma/client';
import { actorOf, PUBLIC_ACTOR } from './booking-history';
import { BookingCancellation } from './booking-cancellation';
import { conflict } from './booking-problems';
import { amountDueOf, toBooking } from './booking.mapper';
import { BOOKING_SORT_FIELDS, BookingsRepository } from './bookings.repository';
import type {
  BookingListQuery,
  CancelBookingInput,
  CancelTicketsInput,
  PublicCancelTicketsInput,
  SetBookerInput,
  SetPaymentDeadlineInput,
  SetPaymentStatusInput,
} from './dto/booking.input';
import type {
  Booking,
  BookingConfirmation,
  BookingDeleted,
  CancellationRules,
  TicketsCancellation,
} from './dto/booking.output';
import { canTransition, PaymentStatus } from './payment-status';
import { TicketCancellation } from '../capacity/ticket-cancellation';
import { BookingHistoryRepository } from './booking-history.repository';
import { EventTicketsRepository } from '../event-tickets/event-tickets.repository';

/** BK9: most bytes of the booker information (JSON). */
export const INFORMATION_MAX_BYTES = 16 * 1024;

const problem = (field: string, rule: string, args?: Record<string, string | number>) => ({
  field,
  rule,
  args,
  messageKey: `bookings.problems.${rule}`,
});

const unknownPerson = (personId: string) =>
  AppException.validation([problem('personId', 'unknownPerson', { value: personId })]);

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The organiser's operations on bookings (BK3-BK9, BK12) and the public confirmation (BK2). */
@Injectable()
export class BookingsService {
  constructor(
    private readonly repo: BookingsRepository,
    private readonly copies: EventCopiesRepository,
    private readonly cancellation: BookingCancellation,
    private readonly tickets: TicketCancellation,
    private readonly bus: MessageBus,
    private readonly i18n: I18nService,
    private readonly history: BookingHistoryRepository,
    private readonly ticketRows: EventTicketsRepository,
    private readonly tombstones: TombstonesRepository,
  ) {}

  notFound(ctx: RequestContext, id: string): AppException {
    const resource = this.i18n.t('bookings.resource.booking', { lang: ctx.language });
    return AppException.notFound(resource as string, id);
  }

  private async load(ctx: RequestContext, id: string) {
    const row = isUuid(id) ? await this.repo.find(ctx.tenantId, id.toLowerCase()) : null;
    if (!row) throw this.notFound(ctx, id);
    return row;
  }

  /** BK2: one 404 for an unknown id, another tenant's booking and a wrong token alike. */
  async confirmation(ctx: RequestContext, id: string, token: string): Promise<BookingConfirmation> {
    const row = isUuid(id) ? await this.repo.find(ctx.tenantId, id.toLowerCase()) : null;
    if (!row || !sameSecret(row.confirmationToken, token)) throw this.notFound(ctx, id);
    const event = await this.copies.find(ctx.tenantId, row.eventId);
    const view = toBooking(row, 'public');
    return {
      bookingId: row.id,
      status: row.status,
      paymentStatus: row.paymentStatus,
      paymentDueAt: row.paymentDueAt?.toISOString() ?? null,
      event: {
        id: row.eventId,
        title: event?.title ?? '',
        startsAt: event?.startsAt?.toISOString() ?? null,
        timeZone: event?.timeZone ?? 'UTC',
      },
      tickets: view.tickets.map((t) => ({
        id: t.id,
        ticketTypeName: t.ticketTypeName,
        participantFirstname: t.participant.firstname,
        participantLastname: t.participant.lastname,
        priceGross: t.priceGross,
        status: t.status,
      })),
      currency: view.currency,
      totalNet: view.totalNet,
      totalTax: view.totalTax,
      totalGross: view.totalGross,
      amountDue: amountDueOf(row),
      invoiceNumber: row.invoiceNumber,
    };
  }

  /** BK3: paged, one statement for the page (tickets joined) and one for the total. */
  async list(ctx: RequestContext, query: BookingListQuery): Promise<Paged<Booking>> {
    const sort = parseSort(
      query.sort,
      BOOKING_SORT_FIELDS,
      [{ field: 'dateCreated', direction: 'desc' }],
      'id',
    );
    const q = query.q?.trim();
    const where: Prisma.BookingWhereInput = {
      tenantId: ctx.tenantId,
      ...(query.eventId ? { eventId: query.eventId.toLowerCase() } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.paymentStatus ? { paymentStatus: query.paymentStatus } : {}),
      ...(q
        ? {
            OR: [
              { bookerFirstname: { contains: q, mode: 'insensitive' } },
              { bookerLastname: { contains: q, mode: 'insensitive' } },
              { bookerEmail: { contains: q, mode: 'insensitive' } },
              { invoiceNumber: { contains: q, mode: 'insensitive' } },
            ],
          }
        : {}),
    };
    const [rows, total] = await this.repo.page(where, {
      ...skipTake(query),
      orderBy: toOrderBy(sort),
    });
    return paged(
      rows.map((r) => toBooking(r, 'organiser')),
      total,
    );
  }

  /** BK4 */
  async get(ctx: RequestContext, id: string): Promise<Booking> {
    return toBooking(await this.load(ctx, id), 'organiser');
  }

  /**
   * BK5, BK6: deletes bookings (all or none), freeing the seats of their valid tickets. A booking
   * with an invoice number stays: accounting keeps invoices (409, cancel it instead).
   */
  async remove(ctx: RequestContext, ids: string[], single: boolean): Promise<BookingDeleted> {
    const malformed = new Set<number>();
    ids.forEach((id, i) => {
      if (typeof id !== 'string' || !isUuid(id)) malformed.add(i);
    });
    if (single && malformed.size) throw this.notFound(ctx, String(ids[0]));
    const wanted = [
      ...new Set(ids.filter((_, i) => !malformed.has(i)).map((id) => id.toLowerCase())),
    ];
    return this.repo.transaction(async (tx) => {
      // locked in id order: two batches over the same bookings cannot deadlock
      const rows = await this.repo.lockMany(tx, ctx.tenantId, wanted);
      const found = new Map(rows.map((r) => [r.id, r]));
      if (single) {
        const row = found.get(wanted[0]);
        if (!row) throw this.notFound(ctx, ids[0]);
        if (row.invoiceNumber) {
          throw conflict('hasInvoice', { id: row.id, invoiceNumber: row.invoiceNumber }, [
            problem('invoiceNumber', 'hasInvoice'),
          ]);
        }
      } else {
        // every bad id by its index: malformed, unknown (or another tenant's) in one answer
        const missing: FieldProblem[] = [];
        const invoiced: FieldProblem[] = [];
        ids.forEach((id, i) => {
          const row = malformed.has(i) ? undefined : found.get(id.toLowerCase());
          if (malformed.has(i)) missing.push({ field: `ids[${i}]`, rule: 'isUuid' });
          else if (!row) missing.push(problem(`ids[${i}]`, 'unknownBooking', { value: id }));
          else if (row.invoiceNumber) invoiced.push(problem(`ids[${i}]`, 'hasInvoice'));
        });
        throwIfProblems(missing);
        const [first, ...more] = invoiced;
        if (first) throw conflict('batchHasInvoice', { count: invoiced.length }, [first, ...more]);
      }
      const ticketRows = await this.ticketRows.validIdsOf(
        tx,
        ctx.tenantId,
        rows.map((r) => r.id),
      );
      await this.tickets.cancel(
        tx,
        ctx.tenantId,
        ticketRows.map((t) => t.id),
      );
      await this.history.add(
        tx,
        actorOf(ctx),
        ...rows.map((r) => ({
          tenantId: ctx.tenantId,
          eventId: r.eventId,
          bookingId: r.id,
          action: 'deleted' as const,
        })),
      );
      await this.repo.deleteMany(
        tx,
        ctx.tenantId,
        rows.map((r) => r.id),
      );
      return { ids: rows.map((r) => r.id) };
    });
  }

  /** BK7: of every valid ticket, or of `ticketIds` (with BK22's checks). */
  async cancellationRules(
    ctx: RequestContext,
    id: string,
    ticketIds?: string[],
    now = new Date(),
  ): Promise<CancellationRules> {
    if (!isUuid(id)) throw this.notFound(ctx, id);
    const { booking, settlement: s } = await this.repo.transaction((tx) =>
      this.cancellation.quote(tx, ctx.tenantId, id.toLowerCase(), ticketIds ?? null, {
        language: ctx.language,
        now,
      }),
    );
    return {
      bookingId: booking.id,
      ticketIds: s.chosen.map((t) => t.id),
      total: s.quote.total,
      fee: s.fee,
      refund: s.refund,
      feeDue: s.feeDue,
      amountDue: s.amountDue,
      currency: booking.currency,
      rule: s.quote.rule,
      currentTier: s.quote.currentTier,
      deadline: s.quote.deadline,
      nextTier: s.quote.nextTier,
    };
  }

  /** BK8 */
  async cancel(ctx: RequestContext, id: string, input: CancelBookingInput): Promise<Booking> {
    if (!isUuid(id)) throw this.notFound(ctx, id);
    await this.cancellation.inTenantTurn(ctx.tenantId, () =>
      this.repo.transaction((tx) =>
        this.cancellation.cancel(tx, ctx.tenantId, id.toLowerCase(), {
          reason: 'organiser',
          note: input.reason ?? null,
          actor: actorOf(ctx),
          fee: input.waiveFee ? 'none' : 'tiers',
          language: ctx.language,
        }),
      ),
    );
    return this.get(ctx, id);
  }

  /** BK22: the organiser cancels some tickets (waiveFee: without a fee). */
  async cancelTickets(
    ctx: RequestContext,
    id: string,
    input: CancelTicketsInput,
  ): Promise<TicketsCancellation> {
    if (!isUuid(id)) throw this.notFound(ctx, id);
    const done = await this.cancellation.inTenantTurn(ctx.tenantId, () =>
      this.repo.transaction((tx) =>
        this.cancellation.cancelTickets(tx, ctx.tenantId, id.toLowerCase(), input.ticketIds, {
          reason: 'organiser',
          note: input.reason ?? null,
          actor: actorOf(ctx),
          fee: input.waiveFee ? 'none' : 'tiers',
          language: ctx.language,
        }),
      ),
    );
    const { quote: _quote, eventId: _eventId, ...answer } = done;
    return { ...answer, booking: await this.get(ctx, id) };
  }

  /**
   * BK23: the booker cancels some tickets with the booking's confirmation token; the fee of the
   * tiers always applies. Unknown id, another tenant's booking or a wrong token: BK2's 404.
   */
  async cancelTicketsPublic(
    ctx: RequestContext,
    id: string,
    input: PublicCancelTicketsInput,
  ): Promise<TicketsCancellation> {
    const row = isUuid(id) ? await this.repo.find(ctx.tenantId, id.toLowerCase()) : null;
    if (!row || !sameSecret(row.confirmationToken, input.token)) throw this.notFound(ctx, id);
    const done = await this.cancellation.inTenantTurn(ctx.tenantId, () =>
      this.repo.transaction((tx) =>
        this.cancellation.cancelTickets(tx, ctx.tenantId, row.id, input.ticketIds, {
          reason: 'booker',
          note: input.reason ?? null,
          actor: PUBLIC_ACTOR,
          fee: 'tiers',
          language: ctx.language,
        }),
      ),
    );
    const { quote: _quote, eventId: _eventId, ...answer } = done;
    const after = await this.repo.find(ctx.tenantId, row.id);
    return { ...answer, booking: toBooking(after!, 'public') };
  }

  /** BK9: fields not given stay; personId is confirmed by crm-people (503 when it is silent). */
  async setBooker(ctx: RequestContext, id: string, input: SetBookerInput): Promise<Booking> {
    throwIfProblems(
      (['firstname', 'lastname'] as const)
        .filter((k) => input[k] !== undefined && !input[k]!.trim())
        .map((field) => ({ field, rule: 'isNotEmpty' })),
    );
    if (input.information != null) {
      const size = Buffer.byteLength(JSON.stringify(input.information));
      if (size > INFORMATION_MAX_BYTES) {
        throw new AppException(ErrorCode.PAYLOAD_TOO_LARGE, 'bookings.errors.informationTooLarge', {
          max: INFORMATION_MAX_BYTES,
          size,
        });
      }
    }
    const personId = input.personId?.toLowerCase();
    await this.load(ctx, id); // an unknown booking is a 404 before crm-people is asked
    if (personId) {
      const ask: PeopleExistRequest = { tenantId: ctx.tenantId, personIds: [personId] };
      const reply = await this.bus.request<PeopleExistReply>(Subjects.crmPeople.peopleExist, ask);
      if (!Array.isArray(reply?.missingPersonIds)) {
        throw new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.unavailable', {
          service: 'crm-people',
        });
      }
      if (reply.missingPersonIds.map((m) => m.toLowerCase()).includes(personId)) {
        throw unknownPerson(personId);
      }
    }
    await this.repo.transaction(async (tx) => {
      // deleted or merged away since confirmed: the same 400 as crm-people's answer. First, before
      // the booking's row lock: the consumer, holding the person, waits for the person's bookings.
      if (personId && (await this.tombstones.deletedPeople(tx, ctx.tenantId, [personId])).size) {
        throw unknownPerson(personId);
      }
      const row = await this.repo.lock(tx, ctx.tenantId, id.toLowerCase());
      if (!row) throw this.notFound(ctx, id);
      const data: Prisma.BookingUncheckedUpdateInput = {
        ...(input.firstname !== undefined ? { bookerFirstname: input.firstname.trim() } : {}),
        ...(input.lastname !== undefined ? { bookerLastname: input.lastname.trim() } : {}),
        ...(input.email !== undefined ? { bookerEmail: input.email.trim() } : {}),
        ...(input.personId !== undefined ? { bookerPersonId: personId ?? null } : {}),
        ...(input.information !== undefined
          ? {
              bookerInformation:
                input.information === null
                  ? Prisma.DbNull
                  : (input.information as Prisma.InputJsonValue),
            }
          : {}),
        modifiedBy: ctx.integrationName,
        modifiedByUserId: ctx.callerId,
      };
      await this.repo.update(tx, row.id, data);
      const changed = (
        ['firstname', 'lastname', 'email', 'personId', 'information'] as const
      ).filter((k) => input[k] !== undefined);
      await this.history.add(tx, actorOf(ctx), {
        tenantId: ctx.tenantId,
        eventId: row.eventId,
        bookingId: row.id,
        action: 'booker-changed',
        data: {
          fields: changed,
          ...(input.personId !== undefined
            ? { personId: { from: row.bookerPersonId, to: personId ?? null } }
            : {}),
        },
      });
      if (personId && personId !== row.bookerPersonId) {
        // the booking appears on the person's timeline in crm-people (a touchpoint)
        const event = await this.copies.find(ctx.tenantId, row.eventId, tx);
        const linked: BookingLinkedEvent = {
          tenantId: ctx.tenantId,
          eventId: row.eventId,
          eventTitle: event?.title ?? '',
          personId,
          language: row.language,
          at: row.dateCreated.toISOString(),
          bookingId: row.id,
          tickets: row.tickets.length,
          totalGross: row.totalGross.toFixed(2),
          currency: row.currency,
          invitationId: row.invitationId,
        };
        await addOutboxEvent(tx, {
          tenantId: ctx.tenantId,
          subject: Subjects.bookingsInvitations.bookingLinked,
          payload: linked,
        });
      }
    });
    return this.get(ctx, id);
  }

  /** BK12: a transition the state machine does not allow is a 409 naming both states. */
  async setPaymentStatus(
    ctx: RequestContext,
    id: string,
    input: SetPaymentStatusInput,
  ): Promise<Booking> {
    const to = input.paymentStatus as PaymentStatus;
    await this.repo.transaction(async (tx) => {
      const row = isUuid(id) ? await this.repo.lock(tx, ctx.tenantId, id.toLowerCase()) : null;
      if (!row) throw this.notFound(ctx, id);
      if (row.paymentStatus === to) return; // a retried call changes nothing
      if (!canTransition(row.paymentStatus, to)) {
        throw conflict('paymentTransition', { from: row.paymentStatus, to }, [
          problem('paymentStatus', 'paymentTransition', { from: row.paymentStatus, to }),
        ]);
      }
      await this.repo.update(tx, row.id, {
        paymentStatus: to,
        modifiedBy: ctx.integrationName,
        modifiedByUserId: ctx.callerId,
      });
      await this.history.add(tx, actorOf(ctx), {
        tenantId: ctx.tenantId,
        eventId: row.eventId,
        bookingId: row.id,
        action: 'payment-status-changed',
        data: { from: row.paymentStatus, to, note: input.note ?? null },
      });
    });
    return this.get(ctx, id);
  }

  /**
   * BK21: moves (or removes) an open booking's payment deadline; a reminder is due again for the
   * new one. In the past: 400 (the sweeper would cancel it at once); a paid or cancelled booking:
   * 409.
   */
  async setPaymentDeadline(
    ctx: RequestContext,
    id: string,
    input: SetPaymentDeadlineInput,
  ): Promise<Booking> {
    const due = input.paymentDueAt === null ? null : new Date(input.paymentDueAt);
    if (due && due.getTime() <= Date.now()) throwIfProblems([problem('paymentDueAt', 'notFuture')]);
    await this.repo.transaction(async (tx) => {
      const row = isUuid(id) ? await this.repo.lock(tx, ctx.tenantId, id.toLowerCase()) : null;
      if (!row) throw this.notFound(ctx, id);
      if (row.status !== 'confirmed' || row.paymentStatus !== 'open') {
        const status = row.status === 'confirmed' ? row.paymentStatus : row.status;
        throw conflict('notOpenForPayment', { status }, [
          problem('paymentDueAt', 'notOpenForPayment', { status }),
        ]);
      }
      await this.repo.setPaymentDue(tx, row.id, due, ctx.integrationName, ctx.callerId ?? null);
      await this.history.add(tx, actorOf(ctx), {
        tenantId: ctx.tenantId,
        eventId: row.eventId,
        bookingId: row.id,
        action: 'payment-deadline-set',
        data: {
          from: row.paymentDueAt?.toISOString() ?? null,
          to: due?.toISOString() ?? null,
        },
      });
    });
    return this.get(ctx, id);
  }
}
