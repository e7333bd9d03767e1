import { DateTime } from 'luxon';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';

export interface TicketPdfFacts {
  ticketId: string;
  status: string;
  participant: string;
  ticketTypeName: string;
  bookingId: string;
  code: string | null;
  event: { title: string; startsAt: Date | null; endsAt: Date | null; timeZone: string } | null;
}

const LABELS = {
  en: {
    ticket: 'Ticket',
    participant: 'Participant',
    ticketType: 'Ticket type',
    when: 'Date',
    timeZone: 'Time zone',
    booking: 'Booking',
    code: 'Ticket code',
    cancelled: 'CANCELLED - this ticket is not valid',
    unknownDate: 'to be announced',
  },
  de: {
    ticket: 'Ticket',
    participant: 'Teilnehmer/in',
    ticketType: 'Ticketart',
    when: 'Datum',
    timeZone: 'Zeitzone',
    booking: 'Buchung',
    code: 'Ticketcode',
    cancelled: 'STORNIERT - dieses Ticket ist ungültig',
    unknownDate: 'wird bekannt gegeben',
  },
} as const;

/** The event's date and time in its own zone (the zone a visitor travels to), e.g. "1 June 2030, 10:00 - 19:00". */
export function eventWhen(event: TicketPdfFacts['event'], lang: 'en' | 'de'): string {
  if (!event?.startsAt) return LABELS[lang].unknownDate;
  const zone = event.timeZone || 'UTC';
  const start = DateTime.fromJSDate(event.startsAt, { zone }).setLocale(lang);
  const end = event.endsAt ? DateTime.fromJSDate(event.endsAt, { zone }).setLocale(lang) : null;
  const day = start.toLocaleString(DateTime.DATE_FULL);
  const from = start.toLocaleString(DateTime.TIME_SIMPLE);
  if (!end) return `${day}, ${from}`;
  if (end.hasSame(start, 'day'))
    return `${day}, ${from} - ${end.toLocaleString(DateTime.TIME_SIMPLE)}`;
  return `${day}, ${from} - ${end.toLocaleString(DateTime.DATETIME_FULL)}`;
}

/** Side of the printed QR code in points (about 7.8 cm), and its quiet zone in modules. */
const QR_SIDE = 220;
const QR_QUIET_MODULES = 2;

/**
 * The QR code of `code` drawn as vector squares at the cursor: each row's runs of dark modules
 * one rectangle. With a PNG (QRCode.toBuffer) a ticket's PDF cost 21 ms of CPU, mostly pngjs
 * trying its five filters on every row before pdfkit decoded the image again; drawn, 3 ms and
 * half the bytes, sharp at any print size. The mail worker renders one per ticket it sends.
 * (Under jest the PNG took 660 ms: its loops read the global Math, slow in a vm context.)
 */
function drawQrCode(doc: PDFKit.PDFDocument, code: string): void {
  const { modules } = QRCode.create(code, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  const unit = QR_SIDE / (n + 2 * QR_QUIET_MODULES);
  const left = doc.x + QR_QUIET_MODULES * unit;
  const top = doc.y + QR_QUIET_MODULES * unit;
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n;) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < n && modules.get(row, col)) col++;
      doc.rect(left + start * unit, top + row * unit, (col - start) * unit, unit);
    }
  }
  doc.fillColor('#000000').fill();
  doc.y += QR_SIDE;
}

/** ET12: an A4 ticket with the QR code of the signed code and the code as text. */
export async function renderTicketPdf(f: TicketPdfFacts, language: string): Promise<Buffer> {
  const lang = language === 'de' ? 'de' : 'en';
  const l = LABELS[lang];
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `${l.ticket}: ${f.event?.title ?? ''}`, Creator: 'bookings-invitations' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc
    .font('Helvetica-Bold')
    .fontSize(22)
    .text(f.event?.title ?? l.ticket);
  doc.moveDown(0.5).font('Helvetica').fontSize(12);
  const line = (label: string, value: string) =>
    doc
      .font('Helvetica-Bold')
      .text(`${label}: `, { continued: true })
      .font('Helvetica')
      .text(value);
  line(l.when, eventWhen(f.event, lang));
  line(l.timeZone, f.event?.timeZone ?? 'UTC');
  line(l.participant, f.participant);
  line(l.ticketType, f.ticketTypeName);
  line(l.booking, f.bookingId);
  line(l.ticket, f.ticketId);
  doc.moveDown();
  if (f.status !== 'valid' || !f.code) {
    doc.font('Helvetica-Bold').fontSize(18).fillColor('#b00020').text(l.cancelled);
  } else {
    drawQrCode(doc, f.code);
    doc.moveDown(0.5).font('Helvetica').fontSize(8).fillColor('#000000');
    doc.text(`${l.code}:`);
    // the code breaks anywhere: it has no spaces
    doc.font('Courier').fontSize(7).text(f.code, { lineBreak: true, width: 480 });
  }
  doc.end();
  return done;
}
