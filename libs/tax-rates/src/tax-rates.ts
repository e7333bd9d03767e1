/**
 * Vendor list `tax-rates`: value-added tax rates per country and kind, shipped with the service,
 * the same for every tenant, read-only (ES4). One id per country and kind (`de-standard`,
 * `de-reduced`); each has its periods with the rate as a decimal string ("19.00", percent).
 * `validFrom` and `validTo` are ISO dates, both inclusive; `validTo` null means "until further
 * notice". A date before the first period listed answers null from taxRateAt: the list covers the
 * periods given here, not the whole history of a country's tax law.
 *
 * Sources (checked for every rate and date below):
 * - EU member states: European Commission, "VAT rates applied in the Member States of the
 *   European Union" (taxation_customs.ec.europa.eu, the list of VAT rates, yearly editions),
 *   and the national laws it cites:
 *   - DE: Umsatzsteuergesetz § 12 (19 % / 7 % since 2007-01-01, 16 % / 7 % before); the
 *     temporary 16 % / 5 % from 2020-07-01 to 2020-12-31 by § 28 UStG as amended by the
 *     Zweites Corona-Steuerhilfegesetz (BGBl. I 2020 S. 1512).
 *   - AT: Umsatzsteuergesetz 1994 § 10 (20 %, 10 %, 13 % since 2016-01-01 by the
 *     Steuerreformgesetz 2015/2016).
 *   - FR: Code général des impôts art. 278 ff. (20 % / 10 % since 2014-01-01, before 19.6 % /
 *     7 % from 2012-01-01; 5.5 % and 2.1 %).
 *   - NL: Wet op de omzetbelasting 1968 (21 % since 2012-10-01, before 19 %; 9 % since
 *     2019-01-01, before 6 %).
 *   - BE: Code de la TVA, arrêté royal n° 20 (21 %, 12 %, 6 %).
 *   - IT: DPR 633/1972 (22 % since 2013-10-01, 21 % from 2011-09-17; 10 %, 4 %; 5 % since
 *     2016-01-01 by the Legge di Stabilità 2016).
 *   - ES: Ley 37/1992 del IVA (21 % / 10 % since 2012-09-01, 18 % / 8 % from 2010-07-01; 4 %).
 * - CH: Eidgenössische Steuerverwaltung ESTV, "MWST-Steuersätze" (Art. 25 MWSTG): 8.1 % / 2.6 % /
 *   3.8 % since 2024-01-01, 7.7 % / 2.5 % / 3.7 % 2018-2023, 8.0 % / 2.5 % / 3.8 % 2011-2017,
 *   7.6 % / 2.4 % 2001-2010.
 * - GB: HM Revenue & Customs, "VAT rates" (gov.uk/guidance/rates-of-vat-on-different-goods-and-
 *   services): 20 % since 2011-01-04, 17.5 % from 2010-01-01; reduced 5 %.
 * - US: no value-added tax; sales taxes are levied by states and cities and are not modelled
 *   here: `us-none` (0.00) says so explicitly.
 */
export type TaxRateKind =
  | 'standard'
  | 'intermediate'
  | 'reduced'
  | 'reduced-2'
  | 'super-reduced'
  | 'accommodation'
  | 'none';

export interface TaxRatePeriod {
  /** ISO date, inclusive. */
  validFrom: string;
  /** ISO date, inclusive; null: until further notice. */
  validTo: string | null;
  /** Percent as a decimal string with two decimals ("19.00"). */
  rate: string;
}

export interface TaxRate {
  /** `<country in lower case>-<kind>`, e.g. `de-standard`. */
  id: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  kind: TaxRateKind;
  periods: readonly TaxRatePeriod[];
}

const p = (validFrom: string, validTo: string | null, rate: string): TaxRatePeriod => ({
  validFrom,
  validTo,
  rate,
});

const rate = (country: string, kind: TaxRateKind, periods: TaxRatePeriod[]): TaxRate => ({
  id: `${country.toLowerCase()}-${kind}`,
  country,
  kind,
  periods,
});

export const TAX_RATES: readonly TaxRate[] = Object.freeze([
  rate('DE', 'standard', [
    p('1998-04-01', '2006-12-31', '16.00'),
    p('2007-01-01', '2020-06-30', '19.00'),
    p('2020-07-01', '2020-12-31', '16.00'),
    p('2021-01-01', null, '19.00'),
  ]),
  rate('DE', 'reduced', [
    p('1983-07-01', '2020-06-30', '7.00'),
    p('2020-07-01', '2020-12-31', '5.00'),
    p('2021-01-01', null, '7.00'),
  ]),
  rate('AT', 'standard', [p('1984-01-01', null, '20.00')]),
  rate('AT', 'reduced', [p('1984-01-01', null, '10.00')]),
  rate('AT', 'reduced-2', [p('2016-01-01', null, '13.00')]),
  rate('CH', 'standard', [
    p('2001-01-01', '2010-12-31', '7.60'),
    p('2011-01-01', '2017-12-31', '8.00'),
    p('2018-01-01', '2023-12-31', '7.70'),
    p('2024-01-01', null, '8.10'),
  ]),
  rate('CH', 'reduced', [
    p('2001-01-01', '2010-12-31', '2.40'),
    p('2011-01-01', '2023-12-31', '2.50'),
    p('2024-01-01', null, '2.60'),
  ]),
  rate('CH', 'accommodation', [
    p('2011-01-01', '2017-12-31', '3.80'),
    p('2018-01-01', '2023-12-31', '3.70'),
    p('2024-01-01', null, '3.80'),
  ]),
  rate('FR', 'standard', [p('2000-04-01', '2013-12-31', '19.60'), p('2014-01-01', null, '20.00')]),
  rate('FR', 'intermediate', [
    p('2012-01-01', '2013-12-31', '7.00'),
    p('2014-01-01', null, '10.00'),
  ]),
  rate('FR', 'reduced', [p('2000-04-01', null, '5.50')]),
  rate('FR', 'super-reduced', [p('2000-04-01', null, '2.10')]),
  rate('NL', 'standard', [p('2001-01-01', '2012-09-30', '19.00'), p('2012-10-01', null, '21.00')]),
  rate('NL', 'reduced', [p('2001-01-01', '2018-12-31', '6.00'), p('2019-01-01', null, '9.00')]),
  rate('BE', 'standard', [p('1996-01-01', null, '21.00')]),
  rate('BE', 'reduced', [p('1996-01-01', null, '6.00')]),
  rate('BE', 'reduced-2', [p('1996-01-01', null, '12.00')]),
  rate('IT', 'standard', [p('2011-09-17', '2013-09-30', '21.00'), p('2013-10-01', null, '22.00')]),
  rate('IT', 'reduced', [p('2011-09-17', null, '10.00')]),
  rate('IT', 'reduced-2', [p('2016-01-01', null, '5.00')]),
  rate('IT', 'super-reduced', [p('2011-09-17', null, '4.00')]),
  rate('ES', 'standard', [p('2010-07-01', '2012-08-31', '18.00'), p('2012-09-01', null, '21.00')]),
  rate('ES', 'reduced', [p('2010-07-01', '2012-08-31', '8.00'), p('2012-09-01', null, '10.00')]),
  rate('ES', 'super-reduced', [p('2010-07-01', null, '4.00')]),
  rate('GB', 'standard', [p('2010-01-01', '2011-01-03', '17.50'), p('2011-01-04', null, '20.00')]),
  rate('GB', 'reduced', [p('2010-01-01', null, '5.00')]),
  rate('US', 'none', [p('1970-01-01', null, '0.00')]),
]);

const BY_ID = new Map(TAX_RATES.map((r) => [r.id, r]));

export const isTaxRateId = (id: unknown): boolean => typeof id === 'string' && BY_ID.has(id);

export const taxRate = (id: string): TaxRate | undefined => BY_ID.get(id);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The calendar date a rate is looked up for: an ISO date as given, a Date by its UTC date (pass
 * the date in the event's own zone as an ISO date where that differs).
 */
function isoDate(date: string | Date): string | null {
  if (date instanceof Date)
    return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
  if (ISO_DATE.test(date)) return date;
  const parsed = new Date(date);
  return Number.isNaN(parsed.getTime()) ? null : parsed.toISOString().slice(0, 10);
}

/** The period of a rate that covers `day` (ISO date), if one does. */
export function periodAt(r: TaxRate, day: string): TaxRatePeriod | undefined {
  return r.periods.find((x) => x.validFrom <= day && (x.validTo === null || day <= x.validTo));
}

/**
 * The rate of `id` on `date` (both ends of a period inclusive): null for an unknown id, a date
 * that is not one, or a date no period of the rate covers.
 */
export function taxRateAt(
  id: string,
  date: string | Date,
): { id: string; country: string; kind: TaxRateKind; rate: string } | null {
  const r = BY_ID.get(id);
  const day = isoDate(date);
  if (!r || !day) return null;
  const period = periodAt(r, day);
  return period ? { id: r.id, country: r.country, kind: r.kind, rate: period.rate } : null;
}
