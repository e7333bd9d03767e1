import { isISO31661Alpha2 } from 'class-validator';
import {
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/max';
import type { FieldProblem, MessageArgs } from '@crm/errors';
import type { CompanyAddressFields } from './dto/contact-data.output';
import type { CompanyPhoneCalculated } from './dto/contact-validation.output';
import type { CompanyAddressInput } from './dto/address.input';

// Pure rules of a company's contact data: what a write stores and what is wrong with it.

/** A rule of this domain: its words are contact.rules.<rule> (contact.json). */
export function problem(field: string, rule: string, args: MessageArgs = {}): FieldProblem {
  return { field, rule, args, messageKey: `contact.rules.${rule}` };
}

export function countryCodeProblems(
  value: string | null | undefined,
  field = 'countryCode',
): FieldProblem[] {
  if (value === null || value === undefined || isISO31661Alpha2(value)) return [];
  return [problem(field, 'countryCode', { value })];
}

// --- addresses ---------------------------------------------------------------------------

export type AddressValues = { [K in keyof CompanyAddressFields]: CompanyAddressFields[K] };

const ADDRESS_KEYS = [
  'type',
  'country',
  'countryCode',
  'street',
  'streetAdditional',
  'zip',
  'city',
  'postboxNumber',
  'federalState',
  'cityDistrict',
  'isPostOfficeBox',
  'longitude',
  'latitude',
] as const satisfies readonly (keyof AddressValues)[];

export const EMPTY_ADDRESS: AddressValues = {
  type: null,
  country: null,
  countryCode: null,
  street: null,
  streetAdditional: null,
  zip: null,
  city: null,
  postboxNumber: null,
  federalState: null,
  cityDistrict: null,
  isPostOfficeBox: false,
  longitude: null,
  latitude: null,
};

/**
 * The address after a write: given fields replace `stored` (an absent one stays, null clears,
 * isPostOfficeBox null is false); the country code is upper-cased. Texts come trimmed (DTO).
 */
export function addressValues(
  input: CompanyAddressInput,
  stored: AddressValues = EMPTY_ADDRESS,
): AddressValues {
  const out: AddressValues = { ...EMPTY_ADDRESS };
  for (const key of ADDRESS_KEYS) {
    const given = input[key];
    (out as Record<string, unknown>)[key] = given === undefined ? stored[key] : given;
  }
  out.isPostOfficeBox = out.isPostOfficeBox === true;
  out.countryCode = out.countryCode?.toUpperCase() ?? null;
  return out;
}

/** The checks of an address beyond its fields' shapes (`address` is the result of the write). */
export function addressProblems(
  input: CompanyAddressInput,
  address: AddressValues,
): FieldProblem[] {
  const out = countryCodeProblems(input.countryCode);
  if (!address.street && !address.zip && !address.city && !address.postboxNumber) {
    out.push(problem('street', 'addressLine'));
  }
  if (address.isPostOfficeBox && !address.postboxNumber) {
    out.push(problem('postboxNumber', 'postboxRequired'));
  }
  const lon = address.longitude !== null;
  const lat = address.latitude !== null;
  if (lon !== lat) {
    out.push(
      lon
        ? problem('latitude', 'coordinatesPair', { other: 'longitude' })
        : problem('longitude', 'coordinatesPair', { other: 'latitude' }),
    );
  }
  return out;
}

// --- phones ------------------------------------------------------------------------------

export interface ReadPhone {
  phone: PhoneNumber | null;
  problems: FieldProblem[];
}

/**
 * Reads a number as typed. With `countryCode` a national number is read in that region; without
 * it the number must be international. Stored as E.164, which has no extension: a number with
 * one is refused rather than silently shortened.
 */
export function readPhone(number: string, countryCode: string | null | undefined): ReadPhone {
  const codeProblems = countryCodeProblems(countryCode);
  if (codeProblems.length) return { phone: null, problems: codeProblems };
  const region = countryCode?.toUpperCase();
  if (region && !isSupportedCountry(region)) {
    return { phone: null, problems: [problem('countryCode', 'phoneRegion', { value: region })] };
  }
  const parsed = parsePhoneNumberFromString(number, region as CountryCode | undefined);
  if (!parsed?.isValid()) {
    return {
      phone: null,
      problems: [
        region
          ? {
              ...problem('number', 'phoneNumber', { region }),
              messageKey: 'contact.rules.phoneNumberInRegion',
            }
          : problem('number', 'phoneNumber'),
      ],
    };
  }
  if (parsed.ext) {
    return { phone: null, problems: [problem('number', 'phoneExtension', { ext: parsed.ext })] };
  }
  return { phone: parsed, problems: [] };
}

/** What libphonenumber-js knows about a stored (E.164) or just read number. */
export function phoneFacts(phone: PhoneNumber | string): CompanyPhoneCalculated {
  const p = typeof phone === 'string' ? parsePhoneNumberFromString(phone) : phone;
  if (!p) throw new Error(`not an E.164 number: ${String(phone)}`);
  return {
    e164: p.number,
    national: p.formatNational(),
    international: p.formatInternational(),
    country: p.country ?? null,
    numberType: p.getType() ?? null,
  };
}

// --- e-mails -----------------------------------------------------------------------------

/** The part after the last @, lower-cased (C3 finds a company by it). */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/** E-mail addresses are the same when they differ only in case (domains are case-insensitive). */
export const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
