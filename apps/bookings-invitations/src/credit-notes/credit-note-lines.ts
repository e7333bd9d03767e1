import type Decimal from 'decimal.js';
import { Money, toCents } from '../common/money';

// What a credit note says, computed from the cancelled tickets' frozen prices and the fee kept.
// Amounts are signed from the seller's view: a reversal is negative, the fee kept positive.

/** A cancelled ticket with the prices frozen on it at booking time. */
export interface CancelledTicket {
  id: string;
  ticketTypeName: string;
  participantFirstname: string;
  participantLastname: string;
  priceNet: Decimal.Value;
  priceTax: Decimal.Value;
  priceGross: Decimal.Value;
  taxRatePercent: Decimal.Value;
}

/** A line of a credit note, as stored (JSON) and answered: amounts with two decimals, signed. */
export interface CreditNoteLine {
  /** ticket: the reversal of a cancelled ticket; fee: the cancellation fee kept at one rate */
  kind: 'ticket' | 'fee';
  ticketId: string | null;
  ticketTypeName: string | null;
  participant: string | null;
  /** Percent with up to two decimals, trailing zeros dropped ("19", "7.7"). */
  rate: string;
  net: string;
  tax: string;
  gross: string;
}

export interface CreditNoteContent {
  lines: CreditNoteLine[];
  totals: { net: string; tax: string; gross: string };
  /** The fee kept (gross): the one asked for, at most the cancelled tickets' gross. */
  fee: string;
}

const rateOf = (v: Decimal.Value) => new Money(v).toDecimalPlaces(2).toString();

/**
 * The fee kept, split over the tax rates of the cancelled tickets in proportion to their gross
 * (the remainder cent goes to the largest share), the tax of each part included at its rate:
 * a cancellation fee for an event is the price of the service not taken, not damages (so the
 * German BMF letter of 25 April 2023), and is taxed like the tickets it replaces.
 */
export function feeLines(
  tickets: readonly CancelledTicket[],
  fee: Decimal.Value,
): CreditNoteLine[] {
  const byRate = new Map<string, Decimal>();
  for (const t of tickets) {
    const rate = rateOf(t.taxRatePercent);
    byRate.set(rate, (byRate.get(rate) ?? new Money(0)).plus(t.priceGross));
  }
  const total = [...byRate.values()].reduce((a, b) => a.plus(b), new Money(0));
  const kept = Money.min(new Money(fee), total);
  if (kept.lte(0)) return [];
  // largest gross first (then highest rate): it takes what rounding leaves over
  const rates = [...byRate.entries()].sort(
    ([ra, ga], [rb, gb]) => gb.comparedTo(ga) || new Money(rb).comparedTo(ra),
  );
  const others = rates
    .slice(1)
    .map(([rate, gross]) => ({ rate, share: kept.times(gross).div(total).toDecimalPlaces(2) }));
  const first = {
    rate: rates[0][0],
    share: others.reduce((rest, o) => rest.minus(o.share), kept),
  };
  return [first, ...others]
    .sort((a, b) => new Money(b.rate).comparedTo(a.rate))
    .filter((s) => s.share.gt(0))
    .map(({ rate, share }) => {
      const net = share.div(new Money(rate).div(100).plus(1)).toDecimalPlaces(2);
      return {
        kind: 'fee' as const,
        ticketId: null,
        ticketTypeName: null,
        participant: null,
        rate,
        net: toCents(net),
        tax: toCents(share.minus(net)),
        gross: toCents(share),
      };
    });
}

/**
 * One reversal line per cancelled ticket (its frozen net, tax and gross, negative), the fee lines,
 * and the totals: gross = -(cancelled gross - fee).
 */
export function creditNoteContent(
  tickets: readonly CancelledTicket[],
  fee: Decimal.Value,
): CreditNoteContent {
  const reversals: CreditNoteLine[] = tickets.map((t) => ({
    kind: 'ticket',
    ticketId: t.id,
    ticketTypeName: t.ticketTypeName,
    participant: `${t.participantFirstname} ${t.participantLastname}`.trim(),
    rate: rateOf(t.taxRatePercent),
    net: toCents(new Money(t.priceNet).neg()),
    tax: toCents(new Money(t.priceTax).neg()),
    gross: toCents(new Money(t.priceGross).neg()),
  }));
  const fees = feeLines(tickets, fee);
  const lines = [...reversals, ...fees];
  const sum = (k: 'net' | 'tax' | 'gross') =>
    toCents(lines.reduce((a, l) => a.plus(l[k]), new Money(0)));
  return {
    lines,
    totals: { net: sum('net'), tax: sum('tax'), gross: sum('gross') },
    fee: toCents(fees.reduce((a, l) => a.plus(l.gross), new Money(0))),
  };
}
