import { randomBytes, randomUUID } from 'node:crypto';
import { AppException } from '@crm/errors';
import { mergeSeats, SeatRequest } from '../capacity/capacity.repository';
import type { EventCopy, TicketType } from '../generated/prisma/client';
import { checkEventOpen, checkTicketTypes, ticketLines } from '../bookings/booking-checks';
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
 * 404, not open 409, started 400, ticket types 400): the per-booking limits apply to a hold too,
 * since it becomes one booking.
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
