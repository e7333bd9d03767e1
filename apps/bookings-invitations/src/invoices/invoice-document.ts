import Decimal from 'decimal.js';

/** A ticket of the booking as the invoice shows it (prices frozen on the ticket). */
export interface InvoiceTicket {
  ticketTypeName: string;
  participantFirstname: string;
  participantLastname: string;
  priceNet: Decimal.Value;
  priceTax: Decimal.Value;
  priceGross: Decimal.Value;
  /** Decimal percent, e.g. "19" or "7.7". */
  taxRatePercent: Decimal.Value;
}

/** Everything an invoice PDF shows, gathered from the booking, its tickets, the event and the sender. */
export interface InvoiceFacts {
  language: 'en' | 'de';
  invoiceNumber: string;
  invoiceDate: Date;
  bookingId: string;
  currency: string;
  booker: { firstname: string; lastname: string; email: string };
  event: { title: string; startsAt: Date | null; timeZone: string };
  /** The tenant's invoice sender (events settings); null when none is configured. */
  sender: Record<string, string> | null;
  /** Every ticket invoiced, whatever happened to it since (an issued invoice never changes). */
  tickets: InvoiceTicket[];
  totals: { net: Decimal.Value; tax: Decimal.Value; gross: Decimal.Value };
}

/** An amount at a tax rate (a ticket, a credit note's line): what taxLines() sums. */
export interface TaxedAmount {
  /** Decimal percent, e.g. "19" or "7.7". */
  rate: Decimal.Value;
  net: Decimal.Value;
  tax: Decimal.Value;
  gross: Decimal.Value;
}

export interface TaxLine {
  /** Percent with up to two decimals, trailing zeros dropped ("19", "7.7"). */
  rate: string;
  net: Decimal;
  tax: Decimal;
  gross: Decimal;
}

/** The amounts' net, tax and gross summed per tax rate, highest rate first. */
export function taxLines(amounts: readonly TaxedAmount[]): TaxLine[] {
  const byRate = new Map<string, TaxLine>();
  for (const t of amounts) {
    const rate = new Decimal(t.rate).toDecimalPlaces(2).toString();
    const line = byRate.get(rate) ?? {
      rate,
      net: new Decimal(0),
      tax: new Decimal(0),
      gross: new Decimal(0),
    };
    line.net = line.net.plus(t.net);
    line.tax = line.tax.plus(t.tax);
    line.gross = line.gross.plus(t.gross);
    byRate.set(rate, line);
  }
  return [...byRate.values()].sort((a, b) => new Decimal(b.rate).comparedTo(a.rate));
}

/** A booking's language as its accounting documents speak it (en unless German). */
export const documentLanguage = (language: string): 'en' | 'de' =>
  language.toLowerCase().startsWith('de') ? 'de' : 'en';

/** A money amount in the invoice's language: `€238.00` (en), `238,00 €` (de). */
export function formatMoney(value: Decimal.Value, currency: string, language: string): string {
  return new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    style: 'currency',
    currency,
  }).format(new Decimal(value).toNumber());
}

/** A tax rate in the invoice's language: `19 %`, `7,7 %`. */
export function formatRate(rate: string, language: string): string {
  return `${new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    maximumFractionDigits: 2,
  }).format(Number(rate))} %`;
}

/** The file name of an invoice: `invoice-<number>.pdf` / `Rechnung-<number>.pdf`, path-safe. */
export function invoiceFileName(invoiceNumber: string, language: string): string {
  const safe = invoiceNumber.replace(/[^A-Za-z0-9._-]/g, '_');
  return `${language === 'de' ? 'Rechnung' : 'invoice'}-${safe}.pdf`;
}
