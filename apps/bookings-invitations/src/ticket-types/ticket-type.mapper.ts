import type { TicketType as TicketTypeRow } from '../generated/prisma/client';
import type { TicketType } from './dto/ticket-type.output';
import { ticketTax } from './ticket-prices';

/** What the mapper needs of the event: its tax rate, start and zone (null: no copy yet). */
export interface EventTaxFacts {
  taxRateId: string | null;
  startsAt: Date | null;
  timeZone: string;
}

export function toTicketType(row: TicketTypeRow, event: EventTaxFacts | null): TicketType {
  const price = row.price.toFixed(2);
  return {
    id: row.id,
    eventId: row.eventId,
    name: row.name,
    description: row.description,
    price,
    currency: row.currency,
    taxRateId: row.taxRateId,
    tax: ticketTax(price, row.taxRateId ?? event?.taxRateId ?? null, event),
    quota: row.quota,
    saleStartsAt: row.saleStartsAt?.toISOString() ?? null,
    saleEndsAt: row.saleEndsAt?.toISOString() ?? null,
    minPerBooking: row.minPerBooking,
    maxPerBooking: row.maxPerBooking,
    active: row.active,
    dateCreated: row.dateCreated.toISOString(),
    dateModified: row.dateModified.toISOString(),
  };
}
