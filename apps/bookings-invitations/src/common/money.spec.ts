import Decimal from 'decimal.js';
import { Money, sumMoney, toCents } from './money';

describe('money', () => {
  it('adds decimals exactly (no float error)', () => {
    expect(new Money('0.1').plus('0.2').toFixed(2)).toBe('0.30');
    expect(sumMoney(['0.10', '0.20', '0.70'], (v) => v)).toBe('1.00');
  });

  it('rounds half up to the cent', () => {
    expect(new Money('2.345').toDecimalPlaces(2, Money.ROUND_HALF_UP).toFixed(2)).toBe('2.35');
    expect(new Money('2.344').toDecimalPlaces(2, Money.ROUND_HALF_UP).toFixed(2)).toBe('2.34');
    expect(toCents('12.5')).toBe('12.50');
    expect(toCents(new Decimal('3'))).toBe('3.00');
  });

  it('keeps 40 significant digits', () => {
    expect(new Money(1).dividedBy(3).toString()).toBe('0.' + '3'.repeat(40));
  });

  it('sums nothing to 0.00 and takes amounts of any shape', () => {
    expect(sumMoney([], () => '1')).toBe('0.00');
    expect(sumMoney([{ gross: new Decimal('9.99') }, { gross: '0.01' }], (t) => t.gross)).toBe(
      '10.00',
    );
  });
});
