import { randomUUID } from 'node:crypto';
import { AppException, FieldProblem } from '@crm/errors';
import { Money, sumMoney } from '../common/money';
import type { EventCopy, TicketType } from '../generated/prisma/client';
import { dayIn, ticketTax } from '../ticket-types/ticket-prices';
import { checkAnswers } from './booking-form';
import { conflict, problem } from './booking-problems';
import type { CreateBookingInput } from './dto/booking.input';

/** Statuses of an event copy that take no bookings (a published draft does: publishing decides). */
const CLOSED_STATUSES = new Set(['cancelled', 'completed', 'deleted']);

/** A public booking as it came in (BK1), its body checked against the DTO. */
export interface BookingRequest {
  tenantId: string;
  language: string;
  /** Lower case: the batch key. */
  eventId: string;
  input: CreateBookingInput;
  /** Idempotency-Key, trimmed, and the hash of the canonical body. */
  key?: string;
  requestHash: string;
  now: Date;
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
  now: Date;
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
): PreparedBooking | AppException | 'eventGone' {
  const { input, now } = request;
  if (!event || event.deleted) return 'eventGone';
  if (!event.published || CLOSED_STATUSES.has(event.status))
    return conflict('notOpen', { eventId: request.eventId }, [problem('eventId', 'notOpen')]);
  if (event.startsAt && event.startsAt.getTime() <= now.getTime())
    return AppException.validation([problem('eventId', 'eventStarted')]);
  const ticketProblems = checkTicketTypes(input, types, now);
  if (ticketProblems.length) return AppException.validation(ticketProblems);
  const answerProblems = checkAnswers(event.bookingFormFields, input.answers);
  const websiteId = input.websiteId?.toLowerCase() ?? null;
  if (websiteId && !event.websiteIds.includes(websiteId))
    answerProblems.push(problem('websiteId', 'unknownWebsite', { value: websiteId }));
  if (answerProblems.length) return AppException.validation(answerProblems);
  return prepare(request, event, priceTickets(event, input, types, now), websiteId);
}

/** The ticket types of the booking's tickets: known, on sale, within the per-booking limits. */
function checkTicketTypes(
  input: CreateBookingInput,
  byId: Map<string, TicketType>,
  now: Date,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const firstIndex = new Map<string, number>();
  const counts = new Map<string, number>();
  input.tickets.forEach((t, i) => {
    const id = t.ticketTypeId.toLowerCase();
    if (!firstIndex.has(id)) firstIndex.set(id, i);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  });
  // The currency of the first ticket's type (else of the first type that exists): others must match.
  const currency = [...firstIndex.keys()].map((id) => byId.get(id)).find(Boolean)?.currency;
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
    now,
  };
}
