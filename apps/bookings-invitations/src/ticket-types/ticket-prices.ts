import { taxRateAt } from '@crm/tax-rates';
import { Money, toCents } from '../common/money';

// Money of ticket types in exact decimals (never floats). The price an organiser enters is the
// GROSS price (what a booker pays, as on a poster); net and tax are derived from it: net =
// gross * 100 / (100 + rate) rounded half up to cents, and tax = gross - net, so net + tax is
// always exactly the gross price.

/** A price as entered: digits with at most two decimals, at most 10 digits before the point. */
export const PRICE_PATTERN = /^\d{1,10}(\.\d{1,2})?$/;

/** The price in its stored form, two decimals ("12.5" -> "12.50"). */
export const normalPrice = (price: string): string => toCents(price);

export interface PriceBreakdown {
  gross: string;
  net: string;
  tax: string;
}

/** Net and tax of a gross price at `ratePercent` ("19.00"), each to the cent. */
export function breakdown(gross: string, ratePercent: string): PriceBreakdown {
  const g = new Money(gross);
  const rate = new Money(ratePercent);
  const net = g.times(100).dividedBy(rate.plus(100)).toDecimalPlaces(2, Money.ROUND_HALF_UP);
  return { gross: g.toFixed(2), net: net.toFixed(2), tax: g.minus(net).toFixed(2) };
}

/**
 * A formatter per time zone, made once: building an Intl.DateTimeFormat costs about as much as
 * the rest of a booking's checks (3 % of the service's CPU in the on-sale profile). null: a zone
 * Intl does not know.
 */
const dayFormats = new Map<string, Intl.DateTimeFormat | null>();

function dayFormat(timeZone: string): Intl.DateTimeFormat | null {
  let format = dayFormats.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' });
    } catch {
      format = null;
    }
    // Zones come from stored events: few, but bounded anyway.
    if (dayFormats.size < 1000) dayFormats.set(timeZone, format);
  }
  return format;
}

/** The calendar day (ISO) of `at` in `timeZone`: the day a tax rate is looked up for. */
export function dayIn(at: Date, timeZone: string): string {
  return dayFormat(timeZone)?.format(at) ?? at.toISOString().slice(0, 10);
}

export interface TicketTax extends PriceBreakdown {
  /** The tax rate applied: the ticket type's own, else its event's. */
  taxRateId: string;
  /** Percent, two decimals. */
  rate: string;
}

/**
 * The tax of a ticket type's gross price: at the rate of `taxRateId` on the event's start day in
 * its time zone (today when the event has no start yet). Null when no rate applies (none set, or
 * none known for that day): an unknown tax is not a zero tax.
 */
export function ticketTax(
  gross: string,
  taxRateId: string | null,
  event: { startsAt: Date | null; timeZone: string } | null,
  now = new Date(),
): TicketTax | null {
  if (!taxRateId) return null;
  const day = dayIn(event?.startsAt ?? now, event?.timeZone ?? 'UTC');
  const rate = taxRateAt(taxRateId, day);
  if (!rate) return null;
  return { taxRateId, rate: rate.rate, ...breakdown(gross, rate.rate) };
}
