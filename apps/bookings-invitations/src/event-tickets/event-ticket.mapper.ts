import type { EventTicket } from './dto/event-ticket.output';
import type { TicketRecord } from './event-tickets.repository';

const jsonObject = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** The API view of a ticket; `code` is signed by the caller (null for a cancelled ticket). */
export function toEventTicket(row: TicketRecord, code: string | null): EventTicket {
  return {
    id: row.id,
    eventId: row.eventId,
    bookingId: row.bookingId,
    ticketTypeId: row.ticketTypeId,
    ticketTypeName: row.ticketTypeName,
    status: row.status,
    participantFirstname: row.participantFirstname,
    participantLastname: row.participantLastname,
    participantEmail: row.participantEmail,
    participantInformation: jsonObject(row.participantInformation),
    integrationData: jsonObject(row.integrationData),
    price: {
      gross: row.priceGross.toFixed(2),
      net: row.priceNet.toFixed(2),
      tax: row.priceTax.toFixed(2),
      taxRatePercent: row.taxRatePercent.toFixed(2),
      taxRateId: row.taxRateId,
      currency: row.booking.currency,
    },
    code: row.status === 'valid' ? code : null,
    checkIn: row.checkIn
      ? {
          checkedInAt: row.checkIn.checkedInAt.toISOString(),
          location: row.checkIn.location,
          actor: row.checkIn.actor,
        }
      : null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    dateCreated: row.dateCreated.toISOString(),
    dateModified: row.dateModified.toISOString(),
  };
}

/** Where a ticket's mails go: the participant, else the booker. */
export function recipientOf(row: TicketRecord): { address: string; name: string } {
  return row.participantEmail
    ? {
        address: row.participantEmail,
        name: `${row.participantFirstname} ${row.participantLastname}`.trim(),
      }
    : {
        address: row.booking.bookerEmail,
        name: `${row.booking.bookerFirstname} ${row.booking.bookerLastname}`.trim(),
      };
}
