import {
  canonicalTimeZone,
  checkBic,
  checkIban,
  currencyProblem,
  isCurrency,
  timeZoneProblem,
} from './settings-object.rules';
import { settingsFromRow } from './settings-object';

describe('settings object rules', () => {
  it('time zones: IANA names in their canonical spelling; offsets and unknown names refused', () => {
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('europe/zurich')).toBe('Europe/Zurich');
    expect(canonicalTimeZone('America/Argentina/Buenos_Aires')).toBe(
      'America/Argentina/Buenos_Aires',
    );
    expect(canonicalTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    for (const bad of ['+01:00', 'Mars/Olympus', '', 'Europe/', '../etc', 'Europe Berlin'])
      expect([bad, canonicalTimeZone(bad)]).toEqual([bad, null]);
    expect(timeZoneProblem('timeZone', 'Nowhere/Land')).toMatchObject({
      field: 'timeZone',
      rule: 'timeZone',
      messageKey: 'settings.problems.timeZone',
    });
    expect(timeZoneProblem('timeZone', 'Asia/Tokyo')).toBeNull();
  });

  it('currencies: ISO 4217 codes as Intl knows them', () => {
    for (const code of ['EUR', 'CHF', 'USD', 'GBP', 'JPY']) expect(isCurrency(code)).toBe(true);
    for (const code of ['EURO', 'eur', 'XYZ', '', '€']) expect(isCurrency(code)).toBe(false);
    expect(currencyProblem('currency', 'chf')).toBeNull();
    expect(currencyProblem('currency', 'ABC')?.rule).toBe('currency');
  });

  it('IBAN and BIC: checked by ibantools, stored in electronic format', () => {
    expect(checkIban('iban', 'de89 3704 0044 0532 0130 00')).toEqual({
      value: 'DE89370400440532013000',
      problem: null,
    });
    expect(checkIban('iban', 'DE89370400440532013001').problem?.rule).toBe('iban');
    expect(checkIban('iban', 'hello').problem?.rule).toBe('iban');
    expect(checkBic('bic', 'cobadeffxxx')).toEqual({ value: 'COBADEFFXXX', problem: null });
    expect(checkBic('bic', 'COBA DE FF')).toEqual({ value: 'COBADEFF', problem: null });
    expect(checkBic('bic', 'COBA').problem?.rule).toBe('bic');
  });

  it('settingsFromRow: defaults for a missing row, unknown JSON keys dropped', () => {
    expect(settingsFromRow(null)).toMatchObject({
      timeZone: 'Europe/Berlin',
      currency: 'EUR',
      eventDefaults: { capacity: null, taxRateId: null },
      invoiceSender: { iban: null },
      dateModified: null,
    });
    const row = settingsFromRow({
      timeZone: 'Europe/Vienna',
      currency: 'EUR',
      eventDefaults: { capacity: 5, stray: 1 },
      invoiceSender: ['not', 'an', 'object'],
      dateModified: new Date('2026-01-02T03:04:05Z'),
    });
    expect(row.eventDefaults).not.toHaveProperty('stray');
    expect(row.eventDefaults.capacity).toBe(5);
    expect(row.invoiceSender.name).toBeNull();
    expect(row.dateModified).toBe('2026-01-02T03:04:05.000Z');
  });
});
