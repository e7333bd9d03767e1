import { creditNoteContent, feeLines, type CancelledTicket } from './credit-note-lines';

const ticket = (id: string, gross: string, net: string, rate: string): CancelledTicket => ({
  id,
  ticketTypeName: rate === '7' ? 'Workshop' : 'Standard',
  participantFirstname: 'Ada',
  participantLastname: id,
  priceGross: gross,
  priceNet: net,
  priceTax: (Number(gross) - Number(net)).toFixed(2),
  taxRatePercent: rate,
});

const A = ticket('a', '119.00', '100.00', '19');
const B = ticket('b', '119.00', '100.00', '19.00');
const W = ticket('w', '53.50', '50.00', '7');

describe('creditNoteContent', () => {
  it('reverses each cancelled ticket at its frozen prices; no fee: the whole gross is credited', () => {
    const c = creditNoteContent([A, W], '0.00');
    expect(c.lines).toEqual([
      {
        kind: 'ticket',
        ticketId: 'a',
        ticketTypeName: 'Standard',
        participant: 'Ada a',
        rate: '19',
        net: '-100.00',
        tax: '-19.00',
        gross: '-119.00',
      },
      {
        kind: 'ticket',
        ticketId: 'w',
        ticketTypeName: 'Workshop',
        participant: 'Ada w',
        rate: '7',
        net: '-50.00',
        tax: '-3.50',
        gross: '-53.50',
      },
    ]);
    expect(c.totals).toEqual({ net: '-150.00', tax: '-22.50', gross: '-172.50' });
    expect(c.fee).toBe('0.00');
  });

  it('keeps the fee as positive lines: total gross = -(cancelled gross - fee)', () => {
    const c = creditNoteContent([A, B], '23.80');
    expect(c.lines.filter((l) => l.kind === 'fee')).toEqual([
      {
        kind: 'fee',
        ticketId: null,
        ticketTypeName: null,
        participant: null,
        rate: '19',
        net: '20.00',
        tax: '3.80',
        gross: '23.80',
      },
    ]);
    expect(c.totals).toEqual({ net: '-180.00', tax: '-34.20', gross: '-214.20' });
    expect(c.fee).toBe('23.80');
  });

  it('splits a fee over the tax rates in proportion to their gross, cents summing exactly', () => {
    // 238.00 at 19 %, 53.50 at 7 %: a fee of 100.00 -> 81.65 + 18.35
    const fees = feeLines([A, B, W], '100.00');
    expect(fees.map((f) => [f.rate, f.gross, f.net, f.tax])).toEqual([
      ['19', '81.65', '68.61', '13.04'],
      ['7', '18.35', '17.15', '1.20'],
    ]);
    const c = creditNoteContent([A, B, W], '100.00');
    expect(c.totals.gross).toBe('-191.50');
    for (const oddFee of ['0.01', '0.03', '33.33', '291.49']) {
      const sum = feeLines([A, B, W], oddFee).reduce(
        (s, f) => s + Math.round(Number(f.gross) * 100),
        0,
      );
      expect(sum).toBe(Math.round(Number(oddFee) * 100));
    }
  });

  it('never keeps more than the cancelled gross (the credit note is never a charge)', () => {
    const c = creditNoteContent([W], '500.00');
    expect(c.fee).toBe('53.50');
    expect(c.totals.gross).toBe('0.00');
  });
});
