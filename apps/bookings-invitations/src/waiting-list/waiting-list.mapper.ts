import type { WaitingListEntry, WaitingListEntryDetails } from './dto/waiting-list.output';
import type { EntryRow } from './waiting-list.repository';

export function toEntry(r: EntryRow): WaitingListEntry {
  return {
    token: r.token,
    eventId: r.eventId,
    ticketTypeId: r.ticketTypeId,
    quantity: r.quantity,
    status: r.status,
    position: r.position,
    offer:
      r.status === 'offered' && r.holdToken && r.offerExpiresAt
        ? { holdToken: r.holdToken, expiresAt: r.offerExpiresAt.toISOString() }
        : null,
  };
}

export function toEntryDetails(r: EntryRow): WaitingListEntryDetails {
  return {
    id: r.id,
    eventId: r.eventId,
    ticketTypeId: r.ticketTypeId,
    email: r.email,
    firstname: r.firstname,
    lastname: r.lastname,
    quantity: r.quantity,
    language: r.language,
    status: r.status,
    position: r.position,
    offerExpiresAt: r.status === 'offered' ? (r.offerExpiresAt?.toISOString() ?? null) : null,
    bookingId: r.status === 'booked' ? r.bookingId : null,
    dateCreated: r.dateCreated.toISOString(),
  };
}
