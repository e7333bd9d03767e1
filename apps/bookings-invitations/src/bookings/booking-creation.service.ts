import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { createHash, randomUUID } from 'node:crypto';
import { I18nService } from 'nestjs-i18n';
import { AppException, FieldProblem, throwIfProblems } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import type { EventCopy } from '../generated/prisma/client';
import { dayIn, ticketTax } from '../ticket-types/ticket-prices';
import { checkAnswers } from './booking-form';
import {
  BookingBatchWriter,
  BookingOutcome,
  PreparedBooking,
  PricedTicket,
} from './booking-batch-writer';
import { conflict, problem } from './booking-problems';
import { toBooking } from './booking.mapper';
import { BookingsRepository } from './bookings.repository';
import type { CreateBookingInput } from './dto/booking.input';
import type { Booking } from './dto/booking.output';
import { WriteBatches } from './write-batches';

const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

/** Statuses of an event copy that take no bookings (a published draft does: publishing decides). */
const CLOSED_STATUSES = new Set(['cancelled', 'completed', 'deleted']);
export const IDEMPOTENCY_KEY_MAX = 200;
/**
 * A batch's size: enough to carry an on-sale (see the README's figures), small enough that its
 * multi-row inserts stay far below PostgreSQL's 65,535 parameters (a ticket row has 17).
 */
const MAX_BATCH_BOOKINGS = 100;
const MAX_BATCH_TICKETS = 1000;

export interface CreatedBooking {
  booking: Booking;
  /** true: the answer of an earlier request with the same Idempotency-Key */
  replayed: boolean;
}

/** Names of blanks only are no names (the validator lets ' ' through as not empty). */
function blankNames(input: CreateBookingInput): FieldProblem[] {
  const names: [string, string][] = [
    ['booker.firstname', input.booker.firstname],
    ['booker.lastname', input.booker.lastname],
    ...input.tickets.flatMap((t, i): [string, string][] => [
      [`tickets[${i}].participant.firstname`, t.participant.firstname],
      [`tickets[${i}].participant.lastname`, t.participant.lastname],
    ]),
  ];
  return names.filter(([, v]) => !v.trim()).map(([field]) => ({ field, rule: 'isNotEmpty' }));
}

/** JSON with sorted keys: the same body in another key order is the same request. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * BK1: a public booking. Everything a booking can be refused for on its own (names, ticket
 * types, sale periods, per-booking limits, answers, website) is checked here, and its prices
 * frozen; then it waits for its event's next batch (WriteBatches, BookingBatchWriter), which
 * decides the seats, the invitation and the idempotency key in arrival order and writes it. The
 * answer comes after the batch has committed: no booking is confirmed before it is stored.
 */
@Injectable()
export class BookingCreation {
  /** One writer per event: what arrives while it writes goes into its next batch. */
  private readonly batches: WriteBatches<PreparedBooking, BookingOutcome>;

  constructor(
    private readonly repo: BookingsRepository,
    private readonly copies: EventCopiesRepository,
    private readonly i18n: I18nService,
    writer: BookingBatchWriter,
  ) {
    this.batches = new WriteBatches((batch) => writer.write(batch), {
      maxItems: MAX_BATCH_BOOKINGS,
      weight: (b) => b.tickets.length,
      maxWeight: MAX_BATCH_TICKETS,
    });
  }

  /** Batches written since start and the bookings in them. */
  get batchStats(): { batches: number; items: number; isolated: number } {
    return { ...this.batches.stats };
  }

  private eventNotFound(ctx: RequestContext, eventId: string) {
    const resource = this.i18n.t('bookings.resource.event', { lang: ctx.language });
    return AppException.notFound(resource as string, eventId);
  }

  async create(
    ctx: RequestContext,
    input: CreateBookingInput,
    idempotencyKey?: string,
    now = new Date(),
  ): Promise<CreatedBooking> {
    if (
      idempotencyKey !== undefined &&
      (!idempotencyKey.trim() || idempotencyKey.length > IDEMPOTENCY_KEY_MAX)
    ) {
      throwIfProblems([problem('Idempotency-Key', 'idempotencyKey')]);
    }
    throwIfProblems(blankNames(input));
    const eventId = input.eventId.toLowerCase();
    const event = await this.copies.find(ctx.tenantId, eventId);
    if (!event || event.deleted) throw this.eventNotFound(ctx, input.eventId);
    if (!event.published || CLOSED_STATUSES.has(event.status)) {
      throw conflict('notOpen', { eventId }, [problem('eventId', 'notOpen')]);
    }
    if (event.startsAt && event.startsAt.getTime() <= now.getTime()) {
      throwIfProblems([problem('eventId', 'eventStarted')]);
    }
    const tickets = await this.priceTickets(ctx, event, input, now);
    const answerProblems = checkAnswers(event.bookingFormFields, input.answers);
    const websiteId = input.websiteId?.toLowerCase() ?? null;
    if (websiteId && !event.websiteIds.includes(websiteId)) {
      answerProblems.push(problem('websiteId', 'unknownWebsite', { value: websiteId }));
    }
    throwIfProblems(answerProblems);

    const requestHash = createHash('sha256').update(canonical(input)).digest('hex');
    const key = idempotencyKey?.trim();
    const prepared = this.prepare(ctx, event, input, tickets, { key, requestHash, websiteId }, now);
    const outcome = await this.batches.submit(`${ctx.tenantId}/${event.eventId}`, prepared);
    switch (outcome.kind) {
      case 'written':
        return { booking: outcome.booking, replayed: false };
      case 'keyTaken':
        return { booking: await this.replay(ctx, key!, requestHash), replayed: true };
      case 'eventGone':
        throw this.eventNotFound(ctx, event.eventId);
      case 'refused':
        throw outcome.error;
    }
  }

  /** The first answer for `key` again; a different body with the same key is a 409. */
  private async replay(ctx: RequestContext, key: string, requestHash: string): Promise<Booking> {
    const row = await this.repo.prisma.idempotencyKey.findUnique({
      where: { tenantId_key: { tenantId: ctx.tenantId, key } },
    });
    if (!row || row.requestHash !== requestHash) {
      throw conflict('idempotencyConflict', { key: key.slice(0, 200) }, [
        problem('Idempotency-Key', 'idempotencyConflict'),
      ]);
    }
    const booking = await this.repo.find(ctx.tenantId, row.bookingId);
    // the first booking was deleted meanwhile: the key cannot answer any more
    if (!booking)
      throw conflict('idempotencyConflict', { key }, [
        problem('Idempotency-Key', 'idempotencyConflict'),
      ]);
    return toBooking(booking, 'public');
  }

  /** Checks the ticket types of each ticket and freezes its price, net and tax. */
  private async priceTickets(
    ctx: RequestContext,
    event: EventCopy,
    input: CreateBookingInput,
    now: Date,
  ): Promise<PricedTicket[]> {
    const ids = [...new Set(input.tickets.map((t) => t.ticketTypeId.toLowerCase()))];
    const types = await this.repo.prisma.ticketType.findMany({
      where: { tenantId: ctx.tenantId, eventId: event.eventId, id: { in: ids } },
    });
    const byId = new Map(types.map((t) => [t.id, t]));
    const problems: FieldProblem[] = [];
    const firstIndex = new Map<string, number>();
    const counts = new Map<string, number>();
    input.tickets.forEach((t, i) => {
      const id = t.ticketTypeId.toLowerCase();
      if (!firstIndex.has(id)) firstIndex.set(id, i);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    });
    const currency =
      types.find((t) => t.id === input.tickets[0].ticketTypeId.toLowerCase())?.currency ??
      types[0]?.currency;
    for (const [id, i] of firstIndex) {
      const field = `tickets[${i}].ticketTypeId`;
      const type = byId.get(id);
      if (!type) {
        problems.push(problem(field, 'unknownTicketType', { value: id }));
        continue;
      }
      const name = type.name;
      const count = counts.get(id)!;
      if (!type.active) problems.push(problem(field, 'inactive', { name }));
      else if (type.saleStartsAt && type.saleStartsAt > now)
        problems.push(
          problem(field, 'saleNotStarted', { name, at: type.saleStartsAt.toISOString() }),
        );
      else if (type.saleEndsAt && type.saleEndsAt <= now)
        problems.push(problem(field, 'saleEnded', { name, at: type.saleEndsAt.toISOString() }));
      if (count < type.minPerBooking)
        problems.push(problem(field, 'minPerBooking', { name, min: type.minPerBooking }));
      if (type.maxPerBooking != null && count > type.maxPerBooking)
        problems.push(problem(field, 'maxPerBooking', { name, max: type.maxPerBooking }));
      if (currency && type.currency !== currency)
        problems.push(problem(field, 'currencyMix', { currency }));
    }
    throwIfProblems(problems);
    return input.tickets.map((t, index) => {
      const type = byId.get(t.ticketTypeId.toLowerCase())!;
      const gross = type.price.toFixed(2);
      // the type's own rate, else the event's, on the event's start day in its zone; no rate
      // known: the ticket is sold without tax (rate 0) rather than refused
      const tax = ticketTax(gross, type.taxRateId ?? event.taxRateId ?? null, event, now);
      return {
        id: randomUUID(),
        index,
        type,
        gross,
        net: tax?.net ?? gross,
        tax: tax?.tax ?? '0.00',
        ratePercent: tax?.rate ?? '0.00',
        taxRateId: tax?.taxRateId ?? null,
        participant: {
          firstname: t.participant.firstname.trim(),
          lastname: t.participant.lastname.trim(),
          email: t.participant.email?.trim() || null,
        },
      };
    });
  }

  /** The booking as its batch will write it: everything known before the counters. */
  private prepare(
    ctx: RequestContext,
    event: EventCopy,
    input: CreateBookingInput,
    tickets: PricedTicket[],
    opts: { key?: string; requestHash: string; websiteId: string | null },
    now: Date,
  ): PreparedBooking {
    const sum = (f: (t: PricedTicket) => string) =>
      tickets.reduce((s, t) => s.plus(f(t)), new Money(0)).toFixed(2);
    const totals = { net: sum((t) => t.net), tax: sum((t) => t.tax), gross: sum((t) => t.gross) };
    return {
      tenantId: ctx.tenantId,
      language: ctx.language,
      event,
      bookingId: randomUUID(),
      key: opts.key,
      requestHash: opts.requestHash,
      invitationToken: input.invitationToken ?? undefined,
      websiteId: opts.websiteId,
      answers: (input.answers as Record<string, unknown> | undefined) ?? null,
      booker: {
        firstname: input.booker.firstname.trim(),
        lastname: input.booker.lastname.trim(),
        email: input.booker.email.trim(),
      },
      tickets,
      totals,
      paid: new Money(totals.gross).gt(0),
      currency: tickets[0].type.currency,
      invoiceYear: Number(dayIn(now, event.timeZone).slice(0, 4)),
      now,
    };
  }
}
