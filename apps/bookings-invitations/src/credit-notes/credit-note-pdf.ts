import type Decimal from 'decimal.js';
import {
  fillLabel,
  formatDocumentDate,
  renderDocumentPdf,
  senderBlock,
  type SenderLabels,
} from '../invoices/document-pdf';
import { formatMoney, formatRate, taxLines } from '../invoices/invoice-document';
import type { CreditNoteLine } from './credit-note-lines';

/** Everything a credit note's PDF shows: the row as issued, the event and the sender. */
export interface CreditNoteFacts {
  language: 'en' | 'de';
  number: string;
  issuedAt: Date;
  invoiceNumber: string;
  bookingId: string;
  currency: string;
  booker: { firstname: string; lastname: string; email: string };
  event: { title: string; startsAt: Date | null; timeZone: string };
  sender: Record<string, string> | null;
  lines: CreditNoteLine[];
  totals: { net: Decimal.Value; tax: Decimal.Value; gross: Decimal.Value };
}

/**
 * The texts of a credit note in one language: its own (i18n `creditNotes.pdf.*`) and the
 * invoice's table and sender labels (`invoices.pdf.*`), so both documents name things alike.
 */
export interface CreditNoteLabels extends SenderLabels {
  title: string;
  creditNoteNumber: string;
  creditNoteDate: string;
  correctsInvoice: string;
  booking: string;
  billTo: string;
  event: string;
  eventDate: string;
  item: string;
  participant: string;
  net: string;
  taxRate: string;
  tax: string;
  gross: string;
  reversal: string;
  fee: string;
  taxLine: string;
  totalNet: string;
  totalTax: string;
  totalGross: string;
}

/** The file name of a credit note: `credit-note-<number>.pdf` / `Stornorechnung-<number>.pdf`. */
export function creditNoteFileName(number: string, language: string): string {
  const safe = number.replace(/[^A-Za-z0-9._-]/g, '_');
  return `${language === 'de' ? 'Stornorechnung' : 'credit-note'}-${safe}.pdf`;
}

/**
 * The credit note as a PDF, in the invoice's layout: sender, number, date and the invoice it
 * corrects, the booker, one reversal line per cancelled ticket (negative), the fee kept per tax
 * rate, the tax per rate and the totals.
 */
export function renderCreditNotePdf(
  facts: CreditNoteFacts,
  labels: CreditNoteLabels,
): Promise<Buffer> {
  const lang = facts.language;
  const money = (v: Decimal.Value) => formatMoney(v, facts.currency, lang);
  const zone = facts.event.timeZone || 'UTC';
  const eventFacts: [string, string][] = facts.event.startsAt
    ? [[labels.eventDate, formatDocumentDate(facts.event.startsAt, zone, lang, true)]]
    : [];
  return renderDocumentPdf({
    language: lang,
    currency: facts.currency,
    pdfTitle: `${labels.title} ${facts.number}`,
    createdAt: facts.issuedAt,
    sender: senderBlock(facts.sender, labels),
    address: {
      heading: labels.billTo,
      lines: [`${facts.booker.firstname} ${facts.booker.lastname}`, facts.booker.email],
    },
    title: labels.title,
    facts: [
      [labels.creditNoteNumber, facts.number],
      [labels.creditNoteDate, formatDocumentDate(facts.issuedAt, zone, lang)],
      [labels.correctsInvoice, facts.invoiceNumber],
      [labels.booking, facts.bookingId],
      [labels.event, facts.event.title],
      ...eventFacts,
    ],
    columns: [
      labels.item,
      labels.participant,
      labels.net,
      labels.taxRate,
      labels.tax,
      labels.gross,
    ],
    rows: facts.lines.map((l) => ({
      item:
        l.kind === 'fee'
          ? labels.fee
          : fillLabel(labels.reversal, { ticket: l.ticketTypeName ?? '' }),
      party: l.participant ?? '',
      net: l.net,
      rate: l.rate,
      tax: l.tax,
      gross: l.gross,
    })),
    sums: [
      taxLines(facts.lines).map((line) => ({
        label: fillLabel(labels.taxLine, {
          rate: formatRate(line.rate, lang),
          net: money(line.net),
        }),
        value: money(line.tax),
      })),
      [
        { label: labels.totalNet, value: money(facts.totals.net) },
        { label: labels.totalTax, value: money(facts.totals.tax) },
        { label: labels.totalGross, value: money(facts.totals.gross), bold: true },
      ],
    ],
  });
}
