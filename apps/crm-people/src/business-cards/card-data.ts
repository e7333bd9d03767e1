import { Prisma } from '../generated/prisma/client';
import type { AddressData, CardRecord } from './business-cards.repository';
import type { CardAddressInput } from './dto/card-address.input';
import type { BusinessCardInput } from './dto/business-card.input';
import { toDate } from './card-rules';

// Input -> columns. On update (`partial`) an absent field is left out (unchanged); null clears it,
// and a flag set to null returns to its default.

const given = <T extends object>(input: T, key: keyof T, partial: boolean) =>
  !partial || input[key] !== undefined;

function pick<T extends object, K extends keyof T, V>(
  input: T,
  partial: boolean,
  keys: readonly K[],
  convert: (value: T[K]) => V,
): Partial<Record<K, V>> {
  const out: Partial<Record<K, V>> = {};
  for (const k of keys) if (given(input, k, partial)) out[k] = convert(input[k]);
  return out;
}

const orNull = <T>(v: T | null | undefined): T | null => v ?? null;

/** The card's own columns (phones, e-mails, positions and addresses are prepared apart). */
export interface CardColumns {
  alternativeSalutation?: string | null;
  alternativeTitle?: string | null;
  alternativeFirstname?: string | null;
  alternativeLastname?: string | null;
  business?: string | null;
  companyId?: string | null;
  isPrivate?: boolean;
  useAlternativeName?: boolean;
  isActive?: boolean;
  companyRelationSince?: Date | null;
  companyRelationUntil?: Date | null;
  validFrom?: Date | null;
  validTo?: Date | null;
  companyRelationTypeId?: string | null;
  isFavorite?: boolean;
  markAsFavorite?: boolean;
}

export function cardColumns(input: BusinessCardInput, partial: boolean): CardColumns {
  const favorite =
    input.isFavorite === true || input.markAsFavorite === true
      ? true
      : input.isFavorite === undefined && input.markAsFavorite === undefined
        ? undefined
        : false;
  return {
    ...pick(
      input,
      partial,
      [
        'alternativeSalutation',
        'alternativeTitle',
        'alternativeFirstname',
        'alternativeLastname',
        'business',
        'companyId',
      ] as const,
      orNull,
    ),
    ...pick(input, partial, ['isPrivate', 'useAlternativeName'] as const, (v) => v ?? false),
    ...pick(input, partial, ['isActive'] as const, (v) => v ?? true),
    ...pick(
      input,
      partial,
      ['companyRelationSince', 'companyRelationUntil', 'validFrom', 'validTo'] as const,
      toDate,
    ),
    ...(given(input, 'companyRelationType', partial)
      ? { companyRelationTypeId: input.companyRelationType?.id ?? null }
      : {}),
    // isFavorite and markAsFavorite move together: either set true makes the card the favorite
    ...(favorite !== undefined || !partial
      ? { isFavorite: favorite ?? false, markAsFavorite: favorite ?? false }
      : {}),
  };
}

/** The effective values after an update: input where given, else what is stored. */
export function mergedCard(input: BusinessCardInput, existing: CardRecord | null) {
  const cols = cardColumns(input, existing !== null);
  const value = <K extends keyof typeof cols, V>(k: K, stored: V): V =>
    (cols[k] !== undefined ? cols[k] : stored) as V;
  return {
    isPrivate: value('isPrivate', existing?.isPrivate ?? false),
    companyId: value('companyId', existing?.companyId ?? null) as string | null,
    companyRelationTypeId: value(
      'companyRelationTypeId',
      existing?.companyRelationTypeId ?? null,
    ) as string | null,
    companyRelationSince: value('companyRelationSince', existing?.companyRelationSince ?? null),
    companyRelationUntil: value('companyRelationUntil', existing?.companyRelationUntil ?? null),
    validFrom: value('validFrom', existing?.validFrom ?? null) as Date | null,
    validTo: value('validTo', existing?.validTo ?? null) as Date | null,
  };
}

const ADDRESS_TEXTS = [
  'country',
  'street',
  'streetAdditional',
  'zip',
  'city',
  'postboxNumber',
  'federalState',
  'cityDistrict',
  'cityAddition',
] as const;

/** An address's columns (favorite handled by the caller; B5 items are whole, B13 partial). */
export function addressColumns(
  input: CardAddressInput,
  partial: boolean,
): Omit<AddressData, 'isFavorite' | 'position'> {
  const out: Omit<AddressData, 'isFavorite' | 'position'> = {
    ...pick(input, partial, ADDRESS_TEXTS, orNull),
    ...pick(input, partial, ['isPostOfficeBox'] as const, (v) => v ?? false),
  };
  if (given(input, 'countryCode', partial))
    out.countryCode = input.countryCode?.toUpperCase() ?? null;
  if (given(input, 'addressTypes', partial)) {
    out.addressTypeIds = [...new Set((input.addressTypes ?? []).map((t) => t.id))];
  }
  if (given(input, 'coordinates', partial)) {
    out.longitude = input.coordinates?.longitude ?? null;
    out.latitude = input.coordinates?.latitude ?? null;
  }
  if (given(input, 'validationInfo', partial)) {
    const v = input.validationInfo;
    out.validationInfo = v
      ? {
          status: v.status ?? null,
          deviation: v.deviation ?? null,
          lastValidationDate: v.lastValidationDate
            ? new Date(v.lastValidationDate).toISOString()
            : null,
          message: v.message ?? null,
        }
      : Prisma.DbNull;
  }
  return out;
}
