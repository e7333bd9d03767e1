import { isISO31661Alpha2 } from 'class-validator';
import { CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { FieldProblem } from '@crm/errors';
import type { BusinessPosition, CardEmail, CardPhone } from '../people/dto/person.dto';
import type { BusinessPositionInput, CardEmailInput, CardPhoneInput } from './dto/card-lists.input';

// Pure rules of business cards: favorites, phone numbers, date order, country codes.

/** Region of phone numbers written without a country prefix when the card has no country. */
export const DEFAULT_PHONE_REGION: CountryCode = 'DE';

type Flagged = { isFavorite?: boolean | null };

/**
 * The one favorite of a list: the last item marked, as if each were added in turn and every new
 * favorite demoted the previous one. -1 when none is marked.
 */
export function favoriteIndex(items: readonly Flagged[]): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i].isFavorite) return i;
  return -1;
}

/**
 * After removing `removed` from `all`: which remaining item becomes the favorite. Only when a
 * favorite was removed and exactly one other item remains (the seed's rule); otherwise none.
 */
export function successorFavorite<T extends { id: string; isFavorite: boolean }>(
  all: readonly T[],
  removed: ReadonlySet<string>,
): string | null {
  const lostFavorite = all.some((x) => removed.has(x.id) && x.isFavorite);
  const remaining = all.filter((x) => !removed.has(x.id));
  return lostFavorite && remaining.length === 1 ? remaining[0].id : null;
}

/** Region for national phone numbers: the favorite address's country, else any, else DE. */
export function phoneRegion(
  addresses: readonly { countryCode?: string | null; isFavorite?: boolean | null }[],
): CountryCode {
  const withCode = addresses.filter((a) => a.countryCode);
  const code = (withCode.find((a) => a.isFavorite) ?? withCode[0])?.countryCode?.toUpperCase();
  return code && isSupportedCountry(code) ? code : DEFAULT_PHONE_REGION;
}

/** Validates phone numbers and writes them in E.164; every invalid one is a problem. */
export function normalizePhones(
  phones: readonly CardPhoneInput[],
  region: CountryCode,
  field = 'phones',
): { phones: CardPhone[]; problems: FieldProblem[] } {
  const fav = favoriteIndex(phones);
  const problems: FieldProblem[] = [];
  const out = phones.map((p, i) => {
    const parsed = parsePhoneNumberFromString(p.number.trim(), region);
    const valid = parsed?.isValid() ?? false;
    if (!valid) {
      problems.push({ field: `${field}[${i}].number`, rule: 'phoneNumber', args: { region } });
    }
    return {
      isFavorite: i === fav,
      type: p.type?.trim() || null,
      number: valid ? parsed!.number : p.number,
    };
  });
  return { phones: out, problems };
}

export function normalizeEmails(emails: readonly CardEmailInput[]): CardEmail[] {
  const fav = favoriteIndex(emails);
  return emails.map((e, i) => ({
    type: e.type ? { id: e.type.id.trim(), text: e.type.text?.trim() || null } : null,
    isFavorite: i === fav,
    mail: e.mail.trim(),
  }));
}

export function normalizePositions(
  positions: readonly BusinessPositionInput[],
): BusinessPosition[] {
  const fav = favoriteIndex(positions);
  return positions.map((p, i) => ({
    department: p.department?.trim() || null,
    position: p.position?.trim() || null,
    isFavorite: i === fav,
  }));
}

/** `later` must not be before `earlier` (validTo vs validFrom, relation until vs since). */
export function notBefore(
  earlier: { field: string; value: Date | null },
  later: { field: string; value: Date | null },
): FieldProblem[] {
  if (!earlier.value || !later.value || later.value >= earlier.value) return [];
  return [
    {
      field: later.field,
      rule: 'notBefore',
      args: { other: earlier.field, value: earlier.value.toISOString() },
    },
  ];
}

export function checkCountryCode(value: string | null | undefined, field: string): FieldProblem[] {
  if (value === null || value === undefined || isISO31661Alpha2(value)) return [];
  return [{ field, rule: 'countryCode', args: { value } }];
}

export const toDate = (v: string | null | undefined): Date | null => (v ? new Date(v) : null);
