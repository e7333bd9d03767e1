import { randomUUID } from 'node:crypto';
import { AppException, FieldProblem } from '@crm/errors';
import { Money, sumMoney } from '../common/money';
import type { EventCopy, TicketType } from '../generated/prisma/client';
import { dayIn, ticketTax } from '../ticket-types/ticket-prices';
import { checkAnswers } from './booking-form';
import { conflict, problem } from './booking-problems';
import type { CreateBookingInput } from './dto/booking.input';

/**
 * Statuses of an event copy that take no bookings (a published draft does: publishing decides),
 * each with the rule that says why.
 */
const CLOSED_STATUSES = new Map([
  ['cancelled', 'eventCancelled'],
  ['completed', 'eventCompleted'],
  ['deleted', 'notOpen'],
]);

/** A public booking as it came in (BK1), its body checked against the DTO. */
export interface BookingRequest {
  kind: 'booking';
  tenantId: string;
  language: string;
  /** Lower case: the batch key. */
  eventId: string;
  input: CreateBookingInput;
  /** Idempotency-Key, trimmed, and the hash of the canonical body. */
  key?: string;
  requestHash: string;
  now: Date;
  /**
   * The request that submitted it (requestHeaders: X-Request-Id, tenant, trace context): its batch
   * writes the bookings of several requests in one transaction, and each booking's events and
   * mails carry their own request's.
   */
  origin?: Record<string, string>;
}

/** A ticket checked and priced (its price, net and tax frozen). */
export interface PricedTicket {
  id: string;
  index: number;
  type: TicketType;
  gross: string;
  net: string;
  tax: string;
  ratePercent: string;
  taxRateId: string | null;
  participant: { firstname: string; lastname: string; email: string | null };
}

/** A public booking checked on its own, ready for its batch's decisions. */
export interface PreparedBooking {
  tenantId: string;
  language: string;
  event: EventCopy;
  bookingId: string;
  key?: string;
  requestHash: string;
  invitationToken?: string;
  websiteId: string | null;
  answers: Record<string, unknown> | null;
  booker: { firstname: string; lastname: string; email: string };
  tickets: PricedTicket[];
  totals: { net: string; tax: string; gross: string };
  paid: boolean;
  currency: string;
  /** The year of the event's start day in its zone at booking time (invoice numbers). */
  invoiceYear: number;
  /** The hold whose seats the booking takes (BK18), if any. */
  holdToken?: string;
  now: Date;
  /** BookingRequest.origin. */
  origin?: Record<string, string>;
}

/** Tickets wanted of one type; `index` is the request's first ticket of it (the field named). */
export interface TicketLine {
  ticketTypeId: string;
  count: number;
  index: number;
}

/**
 * Everything a booking can be refused for on its own, in the order the API has always answered
 * (event gone 404, not open 409, started 400, ticket types 400, answers and website 400), against
 * the event copy and ticket types its batch read once: the booking with its prices frozen, or
 * what refuses it ('eventGone': BookingCreation answers the 404 in the caller's language).
 */
export function checkBooking(
  request: BookingRequest,
  event: EventCopy | null,
  types: Map<string, TicketType>,
  heldTypes: Set<string> = new Set(),
): PreparedBooking | AppException | 'eventGone' {
  const { input, now } = request;
  const closed = checkEventOpen(request.eventId, event, now);
  if (closed) return closed;
  const lines = ticketLines(input.tickets.map((t) => ({ ticketTypeId: t.ticketTypeId, count: 1 })));
  const ticketProblems = checkTicketTypes(lines, types, now, heldTypes);
  if (ticketProblems.length) return AppException.validation(ticketProblems);
  const answerProblems = checkAnswers(event!.bookingFormFields, input.answers);
  const websiteId = input.websiteId?.toLowerCase() ?? null;
  if (websiteId && !event!.websiteIds.includes(websiteId))
    answerProblems.push(problem('websiteId', 'unknownWebsite', { value: websiteId }));
  if (answerProblems.length) return AppException.validation(answerProblems);
  return prepare(request, event!, priceTickets(event!, input, types, now), websiteId);
}

/**
 * What closes an event to bookings and holds: gone (404), not published (409 eventNotPublished)
 * or closed (409 eventCancelled, eventCompleted), started (400); null when it is open.
 */
export function checkEventOpen(
  eventId: string,
  event: EventCopy | null,
  now: Date,
): AppException | 'eventGone' | null {
  if (!event || event.deleted) return 'eventGone';
  const closed = CLOSED_STATUSES.get(event.status);
  if (closed) return conflict(closed, { eventId }, [problem('eventId', closed)]);
  if (!event.published)
    return conflict('notPublished', { eventId }, [problem('eventId', 'eventNotPublished')]);
  if (event.startsAt && event.startsAt.getTime() <= now.getTime())
    return AppException.validation([problem('eventId', 'eventStarted')]);
  return null;
}

/** The wanted tickets per type, in the order the types first appear. */
export function ticketLines(tickets: { ticketTypeId: string; count: number }[]): TicketLine[] {
  const lines = new Map<string, TicketLine>();
  tickets.forEach((t, index) => {
    const id = t.ticketTypeId.toLowerCase();
    const line = lines.get(id);
    if (line) line.count += t.count;
    else lines.set(id, { ticketTypeId: id, count: t.count, index });
  });
  return [...lines.values()];
}

/**
 * The ticket types of the wanted tickets: known, on sale, within the per-booking limits, in one
 * currency. A type in `heldTypes` was on sale when the buyer's hold took its seats: the sale
 * window no longer refuses them (the hold's expiry bounds how late that can be).
 */
export function checkTicketTypes(
  lines: TicketLine[],
  byId: Map<string, TicketType>,
  now: Date,
  heldTypes: Set<string> = new Set(),
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // The currency of the first ticket's type (else of the first type that exists): others must match.
  const currency = lines.map((l) => byId.get(l.ticketTypeId)).find(Boolean)?.currency;
  for (const { ticketTypeId: id, count, index } of lines) {
    const field = `tickets[${index}].ticketTypeId`;
    const type = byId.get(id);
    if (!type) {
      problems.push(problem(field, 'unknownTicketType', { value: id }));
      continue;
    }
    const name = type.name;
    const held = heldTypes.has(id);
    if (!type.active) problems.push(problem(field, 'inactive', { name }));
    else if (!held && type.saleStartsAt && type.saleStartsAt > now)
      problems.push(
        problem(field, 'saleNotStarted', { name, at: type.saleStartsAt.toISOString() }),
      );
    else if (!held && type.saleEndsAt && type.saleEndsAt <= now)
      problems.push(problem(field, 'saleEnded', { name, at: type.saleEndsAt.toISOString() }));
    if (count < type.minPerBooking)
      problems.push(problem(field, 'minPerBooking', { name, min: type.minPerBooking }));
    if (type.maxPerBooking != null && count > type.maxPerBooking)
      problems.push(problem(field, 'maxPerBooking', { name, max: type.maxPerBooking }));
    if (currency && type.currency !== currency)
      problems.push(problem(field, 'currencyMix', { currency }));
  }
  return problems;
}

/** Each ticket with its type's price, net and tax frozen (the types are checked). */
function priceTickets(
  event: EventCopy,
  input: CreateBookingInput,
  byId: Map<string, TicketType>,
  now: Date,
): PricedTicket[] {
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
function prepare(
  request: BookingRequest,
  event: EventCopy,
  tickets: PricedTicket[],
  websiteId: string | null,
): PreparedBooking {
  const { input, now } = request;
  const sum = (f: (t: PricedTicket) => string) => sumMoney(tickets, f);
  const totals = { net: sum((t) => t.net), tax: sum((t) => t.tax), gross: sum((t) => t.gross) };
  return {
    tenantId: request.tenantId,
    language: request.language,
    event,
    bookingId: randomUUID(),
    key: request.key,
    requestHash: request.requestHash,
    invitationToken: input.invitationToken ?? undefined,
    websiteId,
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
    holdToken: input.holdToken ?? undefined,
    now,
    origin: request.origin,
  };
}
