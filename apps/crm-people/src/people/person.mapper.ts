import type { EntryView } from '../settings/settings-lookup.service';
import type {
  BusinessCard,
  CardAddress,
  EmbeddedPersonality,
  EmbeddedTag,
  LifecycleOutput,
  PeopleNote,
  Person,
} from './dto/person.dto';
import type { NoteRecord, PersonRecord } from './people.repository';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const isoDate = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : null);
const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

/** Read-only `name`: first and last name (title and salutation are separate fields). */
export function displayName(p: { firstname: string | null; lastname: string | null }): string {
  return [p.firstname, p.lastname]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(' ');
}

/** Read-only `initials`: first letter of first and last name, upper case (A.S. -> "AS"). */
export function initials(p: { firstname: string | null; lastname: string | null }): string {
  return [p.firstname, p.lastname]
    .map((s) => [...(s?.trim() ?? '')][0] ?? '')
    .join('')
    .toUpperCase();
}

/** Ids of settings entries a person refers to, to be resolved in one query before mapping. */
export function referencedEntryIds(p: PersonRecord): string[] {
  const ids = new Set<string>();
  if (p.lifecycleId) ids.add(p.lifecycleId);
  p.lifecycleHistories.forEach((h) => ids.add(h.lifecycleId));
  p.cards.forEach((c) => cardEntryIds(c).forEach((id) => ids.add(id)));
  return [...ids];
}

type CardRecord = PersonRecord['cards'][number];
type AddressRecord = CardRecord['addresses'][number];

/** Ids of settings entries a card refers to (company relation type, address types). */
export function cardEntryIds(c: CardRecord): string[] {
  const ids = new Set<string>();
  if (c.companyRelationTypeId) ids.add(c.companyRelationTypeId);
  c.addresses.forEach((a) => a.addressTypeIds.forEach((t) => ids.add(t)));
  return [...ids];
}

export function toNote(n: NoteRecord): PeopleNote {
  return {
    note: n.note,
    createdBy: n.createdBy,
    modifiedBy: n.modifiedBy,
    dateCreated: iso(n.dateCreated),
    dateModified: iso(n.dateModified),
    createdByUserId: n.createdByUserId,
    modifiedByUserId: n.modifiedByUserId,
  };
}

export function lifecycle(
  id: string,
  at: Date | null,
  entries: Map<string, EntryView>,
): LifecycleOutput {
  const e = entries.get(id);
  // An entry removed from the list still shows in history, with its id and no text.
  return { lifecycleId: id, text: e?.text ?? '', color: e?.color ?? null, dateChanged: iso(at) };
}

export function toAddress(a: AddressRecord, entries: Map<string, EntryView>): CardAddress {
  return {
    id: a.id,
    isFavorite: a.isFavorite,
    addressTypes: a.addressTypeIds.map((id) => ({ id, text: entries.get(id)?.text ?? null })),
    country: a.country,
    countryCode: a.countryCode,
    street: a.street,
    streetAdditional: a.streetAdditional,
    zip: a.zip,
    city: a.city,
    postboxNumber: a.postboxNumber,
    federalState: a.federalState,
    cityDistrict: a.cityDistrict,
    cityAddition: a.cityAddition,
    coordinates:
      a.longitude !== null && a.latitude !== null
        ? { longitude: a.longitude, latitude: a.latitude }
        : null,
    validationInfo: (a.validationInfo as CardAddress['validationInfo']) ?? null,
    isPostOfficeBox: a.isPostOfficeBox,
  };
}

export function toCard(c: CardRecord, entries: Map<string, EntryView>): BusinessCard {
  return {
    id: c.id,
    isPrivate: c.isPrivate,
    alternativeSalutation: c.alternativeSalutation,
    alternativeTitle: c.alternativeTitle,
    alternativeFirstname: c.alternativeFirstname,
    alternativeLastname: c.alternativeLastname,
    useAlternativeName: c.useAlternativeName,
    companyId: c.companyId,
    business: c.business,
    companyRelationType: c.companyRelationTypeId
      ? { id: c.companyRelationTypeId, text: entries.get(c.companyRelationTypeId)?.text ?? null }
      : null,
    companyRelationSince: iso(c.companyRelationSince),
    companyRelationUntil: iso(c.companyRelationUntil),
    validFrom: iso(c.validFrom),
    validTo: iso(c.validTo),
    phones: list(c.phones),
    emails: list(c.emails),
    businessPositions: list(c.businessPositions),
    addresses: c.addresses.map((a) => toAddress(a, entries)),
    isFavorite: c.isFavorite,
    isActive: c.isActive,
    markAsFavorite: c.markAsFavorite,
  };
}

/** Database record -> the People resource of the API. `entries` resolves settings ids to texts. */
export function toPerson(p: PersonRecord, entries: Map<string, EntryView>): Person {
  const orgaTags: EmbeddedTag[] = p.tags
    .filter((t) => t.kind === 'ORGA')
    .map((t) => ({ id: t.entryId, text: t.entry.text }));
  const personalities: EmbeddedPersonality[] = p.tags
    .filter((t) => t.kind === 'PERSONALITY')
    .map((t) => ({ id: t.entryId, text: t.entry.text, category: t.entry.category }));
  const hasBirthday = p.birthday !== null || p.considerBirthYear !== null;
  return {
    id: p.id,
    createdBy: p.createdBy,
    modifiedBy: p.modifiedBy,
    dateCreated: p.dateCreated.toISOString(),
    dateModified: p.dateModified.toISOString(),
    createdByUserId: p.createdByUserId,
    modifiedByUserId: p.modifiedByUserId,
    salutation: p.salutation,
    title: p.title,
    firstname: p.firstname,
    lastname: p.lastname,
    birthday: hasBirthday
      ? { birthday: isoDate(p.birthday), considerBirthYear: p.considerBirthYear }
      : null,
    importantDates: list(p.importantDates),
    socialMedias: list(p.socialMedias),
    orgaTags,
    personalities,
    customerNumber: p.customerNumber,
    note: p.note ? toNote(p.note) : null,
    cards: p.cards.map((c) => toCard(c, entries)),
    relations: p.relations.map((r) => ({
      id: r.id,
      personId: r.toPersonId,
      type: { typeIdentifier: r.typeIdentifier, isFavorite: r.isFavorite },
    })),
    userMail: p.userMail,
    employeeStatus: p.employeeStatus,
    employeeNumber: p.employeeNumber,
    userId: p.userId,
    lifecycle: p.lifecycleId ? lifecycle(p.lifecycleId, p.lifecycleChanged, entries) : null,
    lifecycleHistories: p.lifecycleHistories.map((h) =>
      lifecycle(h.lifecycleId, h.dateChanged, entries),
    ),
    profileImage: p.profileImage,
    initials: initials(p),
    detailImagePath: p.profileImage ? `/v1/crm/people/${p.id}/profile-image/detail` : null,
    name: displayName(p),
  };
}
