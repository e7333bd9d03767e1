import Decimal from 'decimal.js';

// Money in exact decimals (never floats): one Decimal configuration for every amount the service
// computes (prices, totals, taxes, fees), rounded half up to the cent.

/** Decimal for money: 40 significant digits, ROUND_HALF_UP. */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

/** An amount as stored and answered: two decimals ("12.5" -> "12.50"). */
export const toCents = (value: Decimal.Value): string => new Money(value).toFixed(2);

/** The sum of `items`' amounts, two decimals ("0.00" for none). */
export function sumMoney<T>(items: readonly T[], amount: (item: T) => Decimal.Value): string {
  return items.reduce((s, item) => s.plus(amount(item)), new Money(0)).toFixed(2);
}
