import { isTaxRateId, periodAt, TAX_RATES, taxRateAt } from './tax-rates';

describe('taxRateAt', () => {
  it('DE standard: 19 % from 2007, the temporary 16 % of the second half of 2020, both ends inclusive', () => {
    expect(taxRateAt('de-standard', '2006-12-31')?.rate).toBe('16.00');
    expect(taxRateAt('de-standard', '2007-01-01')?.rate).toBe('19.00');
    expect(taxRateAt('de-standard', '2020-06-30')?.rate).toBe('19.00');
    expect(taxRateAt('de-standard', '2020-07-01')?.rate).toBe('16.00');
    expect(taxRateAt('de-standard', '2020-12-31')?.rate).toBe('16.00');
    expect(taxRateAt('de-standard', '2021-01-01')?.rate).toBe('19.00');
    expect(taxRateAt('de-standard', '2099-12-31')).toEqual({
      id: 'de-standard',
      country: 'DE',
      kind: 'standard',
      rate: '19.00',
    });
  });

  it('DE reduced: 7 %, 5 % in the second half of 2020', () => {
    expect(taxRateAt('de-reduced', '2020-06-30')?.rate).toBe('7.00');
    expect(taxRateAt('de-reduced', '2020-07-01')?.rate).toBe('5.00');
    expect(taxRateAt('de-reduced', '2021-01-01')?.rate).toBe('7.00');
  });

  it('CH: 7.7 % until 2023-12-31, 8.1 % from 2024-01-01; reduced 2.5 % / 2.6 %', () => {
    expect(taxRateAt('ch-standard', '2017-12-31')?.rate).toBe('8.00');
    expect(taxRateAt('ch-standard', '2018-01-01')?.rate).toBe('7.70');
    expect(taxRateAt('ch-standard', '2023-12-31')?.rate).toBe('7.70');
    expect(taxRateAt('ch-standard', '2024-01-01')?.rate).toBe('8.10');
    expect(taxRateAt('ch-reduced', '2023-12-31')?.rate).toBe('2.50');
    expect(taxRateAt('ch-reduced', '2024-01-01')?.rate).toBe('2.60');
  });

  it('AT 20/10/13, GB 20 % from 2011-01-04, US none', () => {
    expect(taxRateAt('at-standard', '2025-05-01')?.rate).toBe('20.00');
    expect(taxRateAt('at-reduced', '2025-05-01')?.rate).toBe('10.00');
    expect(taxRateAt('at-reduced-2', '2025-05-01')?.rate).toBe('13.00');
    expect(taxRateAt('gb-standard', '2011-01-03')?.rate).toBe('17.50');
    expect(taxRateAt('gb-standard', '2011-01-04')?.rate).toBe('20.00');
    expect(taxRateAt('us-none', '2025-01-01')).toEqual({
      id: 'us-none',
      country: 'US',
      kind: 'none',
      rate: '0.00',
    });
  });

  it('takes a Date by its UTC date; null for unknown ids, bad dates and dates before the first period', () => {
    expect(taxRateAt('de-standard', new Date('2020-06-30T23:59:59Z'))?.rate).toBe('19.00');
    expect(taxRateAt('de-standard', new Date('2020-07-01T00:00:00Z'))?.rate).toBe('16.00');
    expect(taxRateAt('de-zero', '2020-01-01')).toBeNull();
    expect(taxRateAt('de-standard', 'yesterday')).toBeNull();
    expect(taxRateAt('de-standard', new Date(NaN))).toBeNull();
    expect(taxRateAt('ch-standard', '2000-12-31')).toBeNull();
  });

  it('every rate has the countries asked for, well-formed, ordered periods without gaps or overlaps', () => {
    const countries = new Set(TAX_RATES.map((r) => r.country));
    for (const c of ['DE', 'AT', 'CH', 'FR', 'NL', 'BE', 'IT', 'ES', 'GB', 'US'])
      expect(countries).toContain(c);
    const ids = TAX_RATES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of TAX_RATES) {
      expect(r.id).toBe(`${r.country.toLowerCase()}-${r.kind}`);
      r.periods.forEach((p, i) => {
        expect(p.rate).toMatch(/^\d{1,2}\.\d{2}$/);
        expect(p.validFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        if (p.validTo !== null) expect(p.validTo >= p.validFrom).toBe(true);
        const next = r.periods[i + 1];
        if (next) {
          expect(p.validTo).not.toBeNull();
          const dayAfter = new Date(`${p.validTo}T00:00:00Z`);
          dayAfter.setUTCDate(dayAfter.getUTCDate() + 1);
          expect(next.validFrom).toBe(dayAfter.toISOString().slice(0, 10));
        } else expect(p.validTo).toBeNull();
      });
      expect(periodAt(r, '2100-01-01')).toBeDefined();
    }
    expect(isTaxRateId('fr-standard')).toBe(true);
    expect(isTaxRateId(42)).toBe(false);
  });
});
