import {
  fillLabel,
  formatDocumentDate,
  renderDocumentPdf,
  senderBlock,
  type SenderLabels,
} from './document-pdf';
import { formatMoney, formatRate, type InvoiceFacts, taxLines } from './invoice-document';

/** The texts of an invoice in one language (i18n `invoices.pdf.*`). */
export interface InvoiceLabels extends SenderLabels {
  title: string;
  invoiceNumber: string;
  invoiceDate: string;
  booking: string;
  billTo: string;
  event: string;
  eventDate: string;
  ticket: string;
  participant: string;
  net: string;
  taxRate: string;
  tax: string;
  gross: string;
  taxLine: string;
  totalNet: string;
  totalTax: string;
  totalGross: string;
}

/**
 * The invoice as a PDF: sender, number and date, booker, event, one line per invoiced ticket
 * (type, participant, net, rate, tax, gross), the tax summed per rate and the totals. Only facts
 * fixed at issue go in (no ticket status, no cancellation): an issued invoice never changes, a
 * cancellation gets a credit note of its own.
 */
export function renderInvoicePdf(facts: InvoiceFacts, labels: InvoiceLabels): Promise<Buffer> {
  const lang = facts.language;
  const money = (v: Parameters<typeof formatMoney>[0]) => formatMoney(v, facts.currency, lang);
  const zone = facts.event.timeZone || 'UTC';
  const eventFacts: [string, string][] = facts.event.startsAt
    ? [[labels.eventDate, formatDocumentDate(facts.event.startsAt, zone, lang, true)]]
    : [];
  return renderDocumentPdf({
    language: lang,
    currency: facts.currency,
    pdfTitle: `${labels.title} ${facts.invoiceNumber}`,
    createdAt: facts.invoiceDate,
    sender: senderBlock(facts.sender, labels),
    address: {
      heading: labels.billTo,
      lines: [`${facts.booker.firstname} ${facts.booker.lastname}`, facts.booker.email],
    },
    title: labels.title,
    facts: [
      [labels.invoiceNumber, facts.invoiceNumber],
      [labels.invoiceDate, formatDocumentDate(facts.invoiceDate, zone, lang)],
      [labels.booking, facts.bookingId],
      [labels.event, facts.event.title],
      ...eventFacts,
    ],
    columns: [
      labels.ticket,
      labels.participant,
      labels.net,
      labels.taxRate,
      labels.tax,
      labels.gross,
    ],
    rows: facts.tickets.map((tk) => ({
      item: tk.ticketTypeName,
      party: `${tk.participantFirstname} ${tk.participantLastname}`,
      net: tk.priceNet,
      rate: String(tk.taxRatePercent),
      tax: tk.priceTax,
      gross: tk.priceGross,
    })),
    sums: [
      taxLines(
        facts.tickets.map((tk) => ({
          rate: tk.taxRatePercent,
          net: tk.priceNet,
          tax: tk.priceTax,
          gross: tk.priceGross,
        })),
      ).map((line) => ({
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
