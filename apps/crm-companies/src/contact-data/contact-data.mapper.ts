import type {
  CompanyAddress as AddressRow,
  CompanyEmail as EmailRow,
  CompanyPhone as PhoneRow,
} from '../generated/prisma/client';
import type { EntryView } from '../settings/settings-lookup.service';
import type { CompanyAddress, CompanyEmail, CompanyPhone } from './dto/contact-data.output';

// Rows -> output shapes. Callers load rows ordered by position and the email-types entries of
// all rows at once (SettingsLookupService.entries), so mapping never queries.

export function toCompanyAddress(r: AddressRow): CompanyAddress {
  return {
    id: r.id,
    isFavorite: r.isFavorite,
    type: r.type,
    country: r.country,
    countryCode: r.countryCode,
    street: r.street,
    streetAdditional: r.streetAdditional,
    zip: r.zip,
    city: r.city,
    postboxNumber: r.postboxNumber,
    federalState: r.federalState,
    cityDistrict: r.cityDistrict,
    isPostOfficeBox: r.isPostOfficeBox,
    longitude: r.longitude,
    latitude: r.latitude,
  };
}

export function toCompanyPhone(r: PhoneRow): CompanyPhone {
  return { id: r.id, type: r.type, number: r.number, label: r.label, isFavorite: r.isFavorite };
}

export function toCompanyEmail(r: EmailRow, emailTypes: Map<string, EntryView>): CompanyEmail {
  const type = r.emailTypeId ? emailTypes.get(r.emailTypeId) : undefined;
  return {
    id: r.id,
    email: r.email,
    emailType: type ? { id: type.id, text: type.text } : null,
    isFavorite: r.isFavorite,
  };
}
