import PDFDocument from 'pdfkit';
import { DateTime } from 'luxon';
import { formatMoney, formatRate, type InvoiceFacts, taxLines } from './invoice-document';

/** The texts of an invoice in one language (i18n `invoices.pdf.*`). */
export interface InvoiceLabels {
  title: string;
  titleCancelled: string;
  noSender: string;
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
  cancelledTicket: string;
  taxLine: string;
  totalNet: string;
  totalTax: string;
  totalGross: string;
  cancelledAt: string;
  cancellationFee: string;
  refund: string;
  vatId: string;
  taxNumber: string;
  iban: string;
  bic: string;
}

// The PDF's standard fonts (no font files to ship) encode WinAnsi only: Latin-1 and these.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
/** Letters without a decomposition to a base letter. */
const LOOKALIKE: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
};

/**
 * Text the standard fonts can show: a character outside WinAnsi loses its accents (ő -> o) or
 * becomes `?`, rather than printing as a wrong glyph.
 */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (
      (code >= 0x20 && code <= 0x7e) ||
      (code >= 0xa0 && code <= 0xff) ||
      WIN_ANSI_EXTRA.has(ch)
    ) {
      out += ch;
    } else if (ch === '\n') {
      out += ch;
    } else if (LOOKALIKE[ch]) {
      out += LOOKALIKE[ch];
    } else if (code === 0x202f) {
      out += '\u00a0'; // narrow no-break space of some number formats
    } else {
      const base = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      out +=
        [...base].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) <= 0x7e) && base
          ? base
          : '?';
    }
  }
  return out;
}

const fill = (template: string, args: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, k: string) => args[k] ?? '');

const SENDER_LINES = (s: Record<string, string>): string[] =>
  [s.name, s.street, [s.zip, s.city].filter(Boolean).join(' '), s.country, s.email, s.phone].filter(
    (l): l is string => !!l,
  );

/**
 * The invoice as a PDF (A4, pdfkit): sender, number and date, booker, event, one line per ticket
 * (type, participant, net, rate, tax, gross), the tax summed per rate, the totals, and the
 * cancellation fee and refund of a cancelled booking. The same facts give the same text.
 */
export function renderInvoicePdf(facts: InvoiceFacts, labels: InvoiceLabels): Promise<Buffer> {
  const lang = facts.language;
  const money = (v: Parameters<typeof formatMoney>[0]) => formatMoney(v, facts.currency, lang);
  const zone = facts.event.timeZone || 'UTC';
  const date = (d: Date, withTime = false) =>
    DateTime.fromJSDate(d, { zone })
      .setLocale(lang === 'de' ? 'de-DE' : 'en-GB')
      .toLocaleString(withTime ? DateTime.DATETIME_MED : DateTime.DATE_MED);
  const t = (s: string) => toWinAnsi(s);

  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: `${labels.title} ${facts.invoiceNumber}`,
      CreationDate: facts.invoiceDate,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  // Sender (top right), or the notice that none is configured.
  doc.font('Helvetica').fontSize(9);
  const senderLines = facts.sender ? SENDER_LINES(facts.sender) : [labels.noSender];
  doc.text(t(senderLines.join('\n')), left, 50, { width, align: 'right' });

  // Bill to
  doc.moveDown(2).fontSize(10).font('Helvetica-Bold').text(t(labels.billTo), left);
  doc
    .font('Helvetica')
    .text(t(`${facts.booker.firstname} ${facts.booker.lastname}`))
    .text(t(facts.booker.email));

  // Title and facts
  doc.moveDown(1.5).font('Helvetica-Bold').fontSize(16);
  doc.text(t(facts.cancellation ? labels.titleCancelled : labels.title), left);
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  const facts2: [string, string][] = [
    [labels.invoiceNumber, facts.invoiceNumber],
    [labels.invoiceDate, date(facts.invoiceDate)],
    [labels.booking, facts.bookingId],
    [labels.event, facts.event.title],
  ];
  if (facts.event.startsAt) facts2.push([labels.eventDate, date(facts.event.startsAt, true)]);
  for (const [k, v] of facts2) doc.text(t(`${k}: ${v}`), left);

  // Ticket lines
  const cols = [
    { label: labels.ticket, x: 0, w: 0.24, align: 'left' as const },
    { label: labels.participant, x: 0.24, w: 0.24, align: 'left' as const },
    { label: labels.net, x: 0.48, w: 0.13, align: 'right' as const },
    { label: labels.taxRate, x: 0.61, w: 0.1, align: 'right' as const },
    { label: labels.tax, x: 0.71, w: 0.13, align: 'right' as const },
    { label: labels.gross, x: 0.84, w: 0.16, align: 'right' as const },
  ];
  const row = (cells: string[], bold = false) => {
    if (doc.y > doc.page.height - 120) doc.addPage();
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    let bottom = y;
    cells.forEach((c, i) => {
      const col = cols[i];
      doc.text(t(c), left + col.x * width, y, { width: col.w * width - 4, align: col.align });
      bottom = Math.max(bottom, doc.y);
    });
    doc.x = left;
    doc.y = bottom + 3;
  };
  doc.moveDown(1.5);
  row(
    cols.map((c) => c.label),
    true,
  );
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.y += 4;
  for (const tk of facts.tickets) {
    const name =
      tk.status === 'cancelled'
        ? `${tk.ticketTypeName} (${labels.cancelledTicket})`
        : tk.ticketTypeName;
    row([
      name,
      `${tk.participantFirstname} ${tk.participantLastname}`,
      money(tk.priceNet),
      formatRate(String(tk.taxRatePercent), lang),
      money(tk.priceTax),
      money(tk.priceGross),
    ]);
  }

  // Tax per rate, then totals (right-aligned block)
  doc.moveDown(1);
  const sum = (label: string, value: string, bold = false) => {
    if (doc.y > doc.page.height - 80) doc.addPage();
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    doc.text(t(label), left + width * 0.35, y, { width: width * 0.45, align: 'right' });
    doc.text(t(value), left + width * 0.8, y, { width: width * 0.2, align: 'right' });
    doc.x = left;
  };
  for (const line of taxLines(facts.tickets)) {
    const label = fill(labels.taxLine, {
      rate: formatRate(line.rate, lang),
      net: money(line.net),
    });
    sum(label, money(line.tax));
  }
  doc.moveDown(0.5);
  sum(labels.totalNet, money(facts.totals.net));
  sum(labels.totalTax, money(facts.totals.tax));
  sum(labels.totalGross, money(facts.totals.gross), true);

  if (facts.cancellation) {
    doc.moveDown(1);
    if (facts.cancellation.at) sum(labels.cancelledAt, date(facts.cancellation.at, true));
    if (facts.cancellation.fee != null) sum(labels.cancellationFee, money(facts.cancellation.fee));
    if (facts.cancellation.refund != null) sum(labels.refund, money(facts.cancellation.refund));
  }

  // Sender's tax and bank details
  const s = facts.sender;
  if (s) {
    const details = [
      s.vatId && `${labels.vatId}: ${s.vatId}`,
      s.taxNumber && `${labels.taxNumber}: ${s.taxNumber}`,
      s.iban && `${labels.iban}: ${s.iban}`,
      s.bic && `${labels.bic}: ${s.bic}`,
    ].filter(Boolean);
    if (details.length) {
      doc.moveDown(2).fontSize(8).font('Helvetica');
      doc.text(t(details.join('   ')), left, doc.y, { width, align: 'center' });
    }
  }

  doc.end();
  return done;
}
