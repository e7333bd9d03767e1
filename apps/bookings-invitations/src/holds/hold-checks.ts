import { randomBytes, randomUUID } from 'node:crypto';
import { AppException } from '@crm/errors';
import { mergeSeats, SeatRequest } from '../capacity/capacity.repository';
import type { EventCopy, TicketType } from '../generated/prisma/client';
import {
  checkEventOpen,
  checkTicketTypes,
  TicketLine,
  ticketLines,
} from '../bookings/booking-checks';
import { conflict, problem } from '../bookings/booking-problems';
import type { CreateHoldInput } from './dto/hold.input';

/** A public hold as it came in (BK18), its body checked against the DTO. */
export interface HoldRequest {
  kind: 'hold';
  tenantId: string;
  language: string;
  /** Lower case: the batch key. */
  eventId: string;
  input: CreateHoldInput;
  now: Date;
}

/** A hold checked on its own, ready for its batch's seat decision. */
export interface PreparedHold {
  tenantId: string;
  event: EventCopy;
  holdId: string;
  token: string;
  /** Merged per type, sorted by id. */
  seats: SeatRequest[];
  /** Per type: the request's first line of it and the type's name (for a sold-out answer). */
  fields: Map<string, { index: number; name: string }>;
}

/**
 * What refuses a hold on its own, as a booking of the same tickets would be refused (event gone
 * 404, not open 409, started 400, ticket types 400, over the limit per buyer 409): the
 * per-booking limits apply to a hold too, since it becomes one booking.
 */
export function checkHold(
  request: HoldRequest,
  event: EventCopy | null,
  types: Map<string, TicketType>,
): PreparedHold | AppException | 'eventGone' {
  const closed = checkEventOpen(request.eventId, event, request.now);
  if (closed) return closed;
  const lines = ticketLines(request.input.tickets);
  const problems = checkTicketTypes(lines, types, request.now);
  if (problems.length) return AppException.validation(problems);
  const overLimit = checkBuyerLimit(event!, lines);
  if (overLimit) return overLimit;
  return {
    tenantId: request.tenantId,
    event: event!,
    holdId: randomUUID(),
    token: randomBytes(16).toString('base64url'),
    seats: mergeSeats(lines),
    fields: new Map(
      lines.map((l) => [l.ticketTypeId, { index: l.index, name: types.get(l.ticketTypeId)!.name }]),
    ),
  };
}

/**
 * A hold becomes one booking, and no booking may take more than the event's maxTicketsPerBuyer:
 * a hold over it could never be booked, and would keep an on-sale's seats from everybody else
 * for the hold time (one call holding a whole quota). Refused as its booking would be (409).
 * The limit over a buyer's bookings is counted when the hold is booked (a hold names no buyer).
 */
function checkBuyerLimit(event: EventCopy, lines: TicketLine[]): AppException | null {
  const max = event.maxTicketsPerBuyer;
  const count = lines.reduce((n, l) => n + l.count, 0);
  if (!max || count <= max) return null;
  return conflict('maxTicketsPerBuyer', { max }, [
    problem('tickets', 'maxTicketsPerBuyer', { max, booked: 0 }),
  ]);
}
