import en from '../i18n/en/invoices.json';
import de from '../i18n/de/invoices.json';
import { formatMoney, invoiceFileName, taxLines, type InvoiceFacts } from './invoice-document';
import { toWinAnsi } from './document-pdf';
import { renderInvoicePdf } from './invoice-pdf';

import { pdfText as readPdf } from '@crm/testing';

const pdfText = async (buf: Buffer): Promise<string> => (await readPdf(buf)).text;

const facts = (over: Partial<InvoiceFacts> = {}): InvoiceFacts => ({
  language: 'en',
  invoiceNumber: 'RE-2026-000042',
  invoiceDate: new Date('2026-05-04T10:00:00Z'),
  bookingId: '0b3f6f9e-8a55-4c3b-9a57-5a3c0f3f1f11',
  currency: 'EUR',
  booker: { firstname: 'Zoë', lastname: 'Müller', email: 'zoe@example.test' },
  event: {
    title: 'Summit 2026',
    startsAt: new Date('2026-06-01T07:00:00Z'),
    timeZone: 'Europe/Berlin',
  },
  sender: {
    name: 'Events GmbH',
    city: 'Berlin',
    vatId: 'DE123456789',
    iban: 'DE89370400440532013000',
  },
  tickets: [
    {
      ticketTypeName: 'Standard',
      participantFirstname: 'Zoë',
      participantLastname: 'Müller',
      priceNet: '100.00',
      priceTax: '19.00',
      priceGross: '119.00',
      taxRatePercent: '19',
    },
    {
      ticketTypeName: 'Standard',
      participantFirstname: 'Ada',
      participantLastname: 'Łukasz',
      priceNet: '100.00',
      priceTax: '19.00',
      priceGross: '119.00',
      taxRatePercent: '19.00',
    },
    {
      ticketTypeName: 'Workshop',
      participantFirstname: 'Ada',
      participantLastname: 'L',
      priceNet: '50.00',
      priceTax: '3.50',
      priceGross: '53.50',
      taxRatePercent: '7',
    },
  ],
  totals: { net: '250.00', tax: '41.50', gross: '291.50' },
  ...over,
});

describe('taxLines', () => {
  it('sums net, tax and gross per rate, highest rate first, whatever the rate’s notation', () => {
    const lines = taxLines(
      facts().tickets.map((t) => ({
        rate: t.taxRatePercent,
        net: t.priceNet,
        tax: t.priceTax,
        gross: t.priceGross,
      })),
    );
    expect(
      lines.map((l) => [l.rate, l.net.toFixed(2), l.tax.toFixed(2), l.gross.toFixed(2)]),
    ).toEqual([
      ['19', '200.00', '38.00', '238.00'],
      ['7', '50.00', '3.50', '53.50'],
    ]);
  });
});

describe('renderInvoicePdf', () => {
  it('holds the number, date, booker, event, each ticket, the tax per rate and the totals (en)', async () => {
    const text = await pdfText(await renderInvoicePdf(facts(), en.pdf));
    for (const s of [
      'Invoice',
      'RE-2026-000042',
      '4 May 2026',
      'Zoë Müller',
      'Summit 2026',
      'Events GmbH',
      'DE123456789',
      'Workshop',
      'Ada Lukasz', // Ł is outside the standard fonts: shown as L
      formatMoney('200.00', 'EUR', 'en'), // the 19 % line's net and tax
      formatMoney('38.00', 'EUR', 'en'),
      formatMoney('3.50', 'EUR', 'en'),
      formatMoney('250.00', 'EUR', 'en'),
      formatMoney('41.50', 'EUR', 'en'),
      formatMoney('291.50', 'EUR', 'en'),
    ]) {
      expect(text).toContain(
        toWinAnsi(s)
          .replace(/\u00a0/g, ' ')
          .replace('Ł', 'L'),
      );
    }
  });

  it('speaks German and says when no sender is set', async () => {
    const pdf = await renderInvoicePdf(facts({ language: 'de', sender: null }), de.pdf);
    const text = (await pdfText(pdf)).replace(/\u00a0/g, ' ');
    expect(text).toContain('Rechnung');
    expect(text).toContain('Rechnungsnummer: RE-2026-000042');
    expect(text).toContain('kein Rechnungssteller');
    expect(text).toContain('291,50 €');
    expect(text).not.toContain('storniert');
  });
  it('continues on further pages for a booking of many tickets, totals after the last line', async () => {
    const one = facts().tickets[0];
    const many = Array.from({ length: 120 }, (_, i) => ({
      ...one,
      participantLastname: `No${i + 1}`,
    }));
    const { text, pages } = await readPdf(
      await renderInvoicePdf(
        facts({ tickets: many, totals: { net: '12000.00', tax: '2280.00', gross: '14280.00' } }),
        en.pdf,
      ),
    );
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain('Zoë No120');
    expect(text.indexOf('Total €14,280.00')).toBeGreaterThan(text.indexOf('Zoë No120'));
  });
});

describe('toWinAnsi and file names', () => {
  it('keeps Latin-1 and €, strips accents it cannot show, else ?', () => {
    expect(toWinAnsi('Zoë € Œ ő 李')).toBe('Zoë € Œ o ?');
  });
  it('names the file after the number, path-safe', () => {
    expect(invoiceFileName('RE/2026 1', 'en')).toBe('invoice-RE_2026_1.pdf');
    expect(invoiceFileName('7', 'de')).toBe('Rechnung-7.pdf');
  });
});
