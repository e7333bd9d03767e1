import type { Booking as BookingRow, EventTicket } from '../generated/prisma/client';
import { sumMoney } from '../common/money';
import type { Booking, BookingTicket } from './dto/booking.output';
import { amountDue } from './payment-status';

export type BookingWithTickets = BookingRow & { tickets: EventTicket[] };

const money = (v: { toFixed(n: number): string } | null) => (v == null ? null : v.toFixed(2));
const jsonObject = (v: unknown) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

export function toBookingTicket(t: EventTicket): BookingTicket {
  return {
    id: t.id,
    ticketTypeId: t.ticketTypeId,
    ticketTypeName: t.ticketTypeName,
    priceGross: t.priceGross.toFixed(2),
    priceNet: t.priceNet.toFixed(2),
    priceTax: t.priceTax.toFixed(2),
    taxRatePercent: t.taxRatePercent.toFixed(2),
    taxRateId: t.taxRateId,
    status: t.status,
    participant: {
      firstname: t.participantFirstname,
      lastname: t.participantLastname,
      email: t.participantEmail,
    },
  };
}

/**
 * A booking as the API shows it. `audience` public leaves out what only the organiser sees
 * (the booker information) and adds the confirmation token (BK1's answer).
 */
export function toBooking(row: BookingWithTickets, audience: 'organiser' | 'public'): Booking {
  const tickets = [...row.tickets].sort(
    (a, b) => a.dateCreated.getTime() - b.dateCreated.getTime() || (a.id < b.id ? -1 : 1),
  );
  return {
    id: row.id,
    eventId: row.eventId,
    status: row.status,
    paymentStatus: row.paymentStatus,
    paymentDueAt: row.paymentDueAt?.toISOString() ?? null,
    booker: {
      firstname: row.bookerFirstname,
      lastname: row.bookerLastname,
      email: row.bookerEmail,
      personId: row.bookerPersonId,
    },
    ...(audience === 'organiser'
      ? { bookerInformation: jsonObject(row.bookerInformation) }
      : { confirmationToken: row.confirmationToken }),
    language: row.language,
    answers: jsonObject(row.answers),
    invitationId: row.invitationId,
    websiteId: row.websiteId,
    currency: row.currency,
    totalNet: row.totalNet.toFixed(2),
    totalTax: row.totalTax.toFixed(2),
    totalGross: row.totalGross.toFixed(2),
    cancellationTiers: Array.isArray(row.cancellationTiers)
      ? (row.cancellationTiers as Record<string, unknown>[])
      : null,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    cancellationFee: money(row.cancellationFee),
    refundAmount: money(row.refundAmount),
    amountDue: amountDueOf(row),
    invoiceNumber: row.invoiceNumber,
    invoiceDate: row.invoiceDate?.toISOString() ?? null,
    tickets: tickets.map(toBookingTicket),
    dateCreated: row.dateCreated.toISOString(),
    dateModified: row.dateModified.toISOString(),
  };
}

/** What the booker owes now (payment-status.ts amountDue). */
export const amountDueOf = (row: BookingWithTickets): string =>
  amountDue(
    row.paymentStatus,
    sumMoney(
      row.tickets.filter((t) => t.status === 'valid'),
      (t) => t.priceGross,
    ),
    money(row.cancellationFee),
  );
