import PDFDocument from 'pdfkit';
import type Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { formatMoney, formatRate } from './invoice-document';

// The layout of the service's accounting documents (invoice, credit note): one implementation, so
// both look alike and a fix to one is a fix to both.

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

/** `{name}` placeholders of a label filled in. */
export const fillLabel = (template: string, args: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, k: string) => args[k] ?? '');

/** A date (or date and time) in `zone` and the document's language. */
export function formatDocumentDate(
  d: Date,
  zone: string,
  language: string,
  withTime = false,
): string {
  return DateTime.fromJSDate(d, { zone: zone || 'UTC' })
    .setLocale(language === 'de' ? 'de-DE' : 'en-GB')
    .toLocaleString(withTime ? DateTime.DATETIME_MED : DateTime.DATE_MED);
}

/** The labels of the sender block, shared by every document (i18n `invoices.pdf.*`). */
export interface SenderLabels {
  noSender: string;
  vatId: string;
  taxNumber: string;
  iban: string;
  bic: string;
}

/** The tenant's invoice sender as the top-right address and the footer's tax and bank details. */
export function senderBlock(
  sender: Record<string, string> | null,
  labels: SenderLabels,
): { lines: string[]; details: string[] } {
  if (!sender) return { lines: [labels.noSender], details: [] };
  const s = sender;
  return {
    lines: [
      s.name,
      s.street,
      [s.zip, s.city].filter(Boolean).join(' '),
      s.country,
      s.email,
      s.phone,
    ].filter((l): l is string => !!l),
    details: [
      s.vatId && `${labels.vatId}: ${s.vatId}`,
      s.taxNumber && `${labels.taxNumber}: ${s.taxNumber}`,
      s.iban && `${labels.iban}: ${s.iban}`,
      s.bic && `${labels.bic}: ${s.bic}`,
    ].filter((l): l is string => !!l),
  };
}

/** One line of the document's table: an item, who it is for, its amounts and tax rate. */
export interface DocumentRow {
  item: string;
  party: string;
  net: Decimal.Value;
  rate: string;
  tax: Decimal.Value;
  gross: Decimal.Value;
}

/** A label and a formatted value of the right-aligned sums block. */
export interface DocumentSum {
  label: string;
  value: string;
  bold?: boolean;
}

/** Everything the layout prints, already in the document's language. */
export interface AccountingDocument {
  language: 'en' | 'de';
  currency: string;
  /** The PDF's metadata. */
  pdfTitle: string;
  createdAt: Date;
  sender: { lines: string[]; details: string[] };
  address: { heading: string; lines: string[] };
  title: string;
  /** `label: value` lines under the title (number, date, booking, event, ...). */
  facts: [string, string][];
  /** The table's six headings: item, party, net, rate, tax, gross. */
  columns: [string, string, string, string, string, string];
  rows: DocumentRow[];
  /** Blocks of sums (tax per rate, totals, ...), a gap between blocks. */
  sums: DocumentSum[][];
}

/**
 * An accounting document as a PDF (A4, pdfkit, standard fonts): sender top right, the address,
 * title and facts, a table of lines that continues on further pages, the sums right-aligned,
 * the sender's tax and bank details at the end. The same document gives the same text.
 */
export function renderDocumentPdf(d: AccountingDocument): Promise<Buffer> {
  const money = (v: Decimal.Value) => formatMoney(v, d.currency, d.language);
  const t = (s: string) => toWinAnsi(s);

  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: d.pdfTitle, CreationDate: d.createdAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  doc.font('Helvetica').fontSize(9);
  doc.text(t(d.sender.lines.join('\n')), left, 50, { width, align: 'right' });

  doc.moveDown(2).fontSize(10).font('Helvetica-Bold').text(t(d.address.heading), left);
  doc.font('Helvetica');
  for (const line of d.address.lines) doc.text(t(line));

  doc.moveDown(1.5).font('Helvetica-Bold').fontSize(16);
  doc.text(t(d.title), left);
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  for (const [k, v] of d.facts) doc.text(t(`${k}: ${v}`), left);

  const cols = [
    { x: 0, w: 0.24, align: 'left' as const },
    { x: 0.24, w: 0.24, align: 'left' as const },
    { x: 0.48, w: 0.13, align: 'right' as const },
    { x: 0.61, w: 0.1, align: 'right' as const },
    { x: 0.71, w: 0.13, align: 'right' as const },
    { x: 0.84, w: 0.16, align: 'right' as const },
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
  row(d.columns, true);
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.y += 4;
  for (const r of d.rows) {
    row([
      r.item,
      r.party,
      money(r.net),
      formatRate(r.rate, d.language),
      money(r.tax),
      money(r.gross),
    ]);
  }

  const sum = ({ label, value, bold }: DocumentSum) => {
    if (doc.y > doc.page.height - 80) doc.addPage();
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    doc.text(t(label), left + width * 0.35, y, { width: width * 0.45, align: 'right' });
    doc.text(t(value), left + width * 0.8, y, { width: width * 0.2, align: 'right' });
    doc.x = left;
  };
  d.sums.forEach((block, i) => {
    doc.moveDown(i === 0 ? 1 : 0.5);
    block.forEach(sum);
  });

  if (d.sender.details.length) {
    doc.moveDown(2).fontSize(8).font('Helvetica');
    doc.text(t(d.sender.details.join('   ')), left, doc.y, { width, align: 'center' });
  }

  doc.end();
  return done;
}
