import { breakdown, dayIn, normalPrice, PRICE_PATTERN, ticketTax } from './ticket-prices';

describe('ticket prices (gross entered, net and tax derived, exact decimals)', () => {
  it('derives net and tax of a gross price, half up to cents, net + tax = gross', () => {
    expect(breakdown('119.00', '19.00')).toEqual({ gross: '119.00', net: '100.00', tax: '19.00' });
    // 10 / 1.19 = 8.4033... -> 8.40
    expect(breakdown('10', '19.00')).toEqual({ gross: '10.00', net: '8.40', tax: '1.60' });
    // 0.10 / 1.07 = 0.09345... -> 0.09
    expect(breakdown('0.1', '7.00')).toEqual({ gross: '0.10', net: '0.09', tax: '0.01' });
    // 16.05 / 1.07 = 15.0 exactly; 0.3 / 1.2 = 0.25 exactly
    expect(breakdown('16.05', '7.00')).toEqual({ gross: '16.05', net: '15.00', tax: '1.05' });
    expect(breakdown('0.30', '20.00')).toEqual({ gross: '0.30', net: '0.25', tax: '0.05' });
  });

  it('rounds a half cent up (half up, not banker’s rounding)', () => {
    // 1.05 / 1.05 = 1.00; 0.21 / 1.2 = 0.175 -> 0.18 (half even would give 0.18 too), 0.15/1.2=0.125 -> 0.13
    expect(breakdown('0.15', '20.00').net).toBe('0.13');
    expect(breakdown('0.15', '20.00').tax).toBe('0.02');
    // 2.25 / 1.2 = 1.875 -> 1.88
    expect(breakdown('2.25', '20.00').net).toBe('1.88');
  });

  it('is exact where binary floats are not', () => {
    // 1234567.89 at 8.1 % (CH): 1142060.9528... -> 1142060.95
    const b = breakdown('1234567.89', '8.10');
    expect(b.net).toBe('1142060.95');
    expect(breakdown('9999999999.99', '19.00')).toEqual({
      gross: '9999999999.99',
      net: '8403361344.53',
      tax: '1596638655.46',
    });
    expect(breakdown('5.00', '0.00')).toEqual({ gross: '5.00', net: '5.00', tax: '0.00' });
  });

  it('accepts prices with at most two decimals and stores them with two', () => {
    expect(PRICE_PATTERN.test('12')).toBe(true);
    expect(PRICE_PATTERN.test('12.5')).toBe(true);
    expect(PRICE_PATTERN.test('12.505')).toBe(false);
    expect(PRICE_PATTERN.test('-1')).toBe(false);
    expect(PRICE_PATTERN.test('1e3')).toBe(false);
    expect(normalPrice('12.5')).toBe('12.50');
    expect(normalPrice('0')).toBe('0.00');
  });

  it('takes the rate of the event start day in the event’s time zone', () => {
    // 2020-06-30T23:30Z is already 1 July in Berlin: the temporary 16 % applies
    const start = new Date('2020-06-30T23:30:00Z');
    expect(dayIn(start, 'Europe/Berlin')).toBe('2020-07-01');
    expect(
      ticketTax('116.00', 'de-standard', { startsAt: start, timeZone: 'Europe/Berlin' }),
    ).toEqual({
      taxRateId: 'de-standard',
      rate: '16.00',
      gross: '116.00',
      net: '100.00',
      tax: '16.00',
    });
    expect(ticketTax('116.00', 'de-standard', { startsAt: start, timeZone: 'UTC' })?.rate).toBe(
      '19.00',
    );
    // no start: today's rate
    expect(ticketTax('10.70', 'de-reduced', null, new Date('2025-01-01T12:00:00Z'))?.net).toBe(
      '10.00',
    );
    // no rate or an unknown one: no tax figures rather than a wrong zero
    expect(ticketTax('10.00', null, null)).toBeNull();
    expect(ticketTax('10.00', 'xx-none', null)).toBeNull();
  });
});
