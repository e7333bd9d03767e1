import {
  toCompanyAddress,
  toCompanyEmail,
  toCompanyPhone,
} from '../contact-data/contact-data.mapper';
import type { EntryView } from '../settings/settings-lookup.service';
import type { StoredReferenceNumber, StoredSocialMedia } from './company-changes';
import type {
  Company,
  CompanyLifecycle,
  CompanyListEntry,
  CompanyNoteOutput,
} from './dto/company.output';
import type { CompanyRecord, NoteRecord } from './companies.repository';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const isoDate = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : null);
const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

/** Where C28 serves the logo of a company. */
export const logoUrl = (companyId: string) => `/v1/crm/companies/${companyId}/logo`;

/**
 * Ids of settings entries a company refers to (lifecycle, the four single entries, reference
 * number types, e-mail types), resolved for a whole page in one lookup before mapping.
 */
export function referencedEntryIds(c: CompanyRecord): string[] {
  const ids = [
    c.lifecycleId,
    c.legalFormId,
    c.industrySectorId,
    c.employeeCountId,
    c.customerCountId,
    ...list<StoredReferenceNumber>(c.referenceNumbers).map((r) => r.typeId),
    ...c.emails.map((e) => e.emailTypeId),
  ];
  return [...new Set(ids.filter((id): id is string => Boolean(id)))];
}

/** An entry removed from its list still shows with its id and an empty text. */
function entry(id: string | null, entries: Map<string, EntryView>): CompanyListEntry | null {
  return id ? { id, text: entries.get(id)?.text ?? '' } : null;
}

export function toCompanyNote(n: NoteRecord): CompanyNoteOutput {
  return {
    note: n.note,
    createdBy: n.createdBy,
    modifiedBy: n.modifiedBy,
    createdByUserId: n.createdByUserId,
    modifiedByUserId: n.modifiedByUserId,
    dateCreated: n.dateCreated.toISOString(),
    dateModified: n.dateModified.toISOString(),
  };
}

export function toLifecycle(
  id: string,
  at: Date | null,
  entries: Map<string, EntryView>,
): CompanyLifecycle {
  const e = entries.get(id);
  return { lifecycleId: id, text: e?.text ?? '', color: e?.color ?? null, dateChanged: iso(at) };
}

/** Database record -> the Company resource of the API. `entries` resolves settings ids to texts. */
export function toCompany(c: CompanyRecord, entries: Map<string, EntryView>): Company {
  return {
    id: c.id,
    name: c.name,
    nameAddition: c.nameAddition,
    website: c.website,
    websiteDomain: c.websiteDomain,
    customerNumber: c.customerNumber,
    vatId: c.vatId,
    taxNumber: c.taxNumber,
    foundingDate: isoDate(c.foundingDate),
    legalForm: entry(c.legalFormId, entries),
    industrySector: entry(c.industrySectorId, entries),
    employeeCount: entry(c.employeeCountId, entries),
    customerCount: entry(c.customerCountId, entries),
    referenceNumbers: list<StoredReferenceNumber>(c.referenceNumbers).map((r) => ({
      type: entry(r.typeId, entries)!,
      number: r.number,
    })),
    socialMedias: list<StoredSocialMedia>(c.socialMedias).map((s) => ({
      type: s.type,
      link: s.link,
    })),
    lifecycle: c.lifecycleId ? toLifecycle(c.lifecycleId, c.lifecycleChanged, entries) : null,
    tags: c.tags.map((t) => ({ id: t.entryId, text: t.entry.text, color: t.entry.color })),
    note: c.note ? toCompanyNote(c.note) : null,
    addresses: c.addresses.map(toCompanyAddress),
    phones: c.phones.map(toCompanyPhone),
    emails: c.emails.map((e) => toCompanyEmail(e, entries)),
    logo: c.logo
      ? { url: logoUrl(c.id), dateModified: (c.logoDateModified ?? c.dateModified).toISOString() }
      : null,
    createdBy: c.createdBy,
    modifiedBy: c.modifiedBy,
    createdByUserId: c.createdByUserId,
    modifiedByUserId: c.modifiedByUserId,
    dateCreated: c.dateCreated.toISOString(),
    dateModified: c.dateModified.toISOString(),
  };
}
