import { websiteDomain } from './company-domain';
import type {
  CompanyFieldsInput,
  CompanyReferenceNumberInput,
  CompanySocialMediaInput,
  CompanyTagInput,
  UpdateCompanyInput,
} from './dto/company.input';

// Input -> stored values, shared by create (C4, C8) and update (C5, C8, C10, C11). Pure functions.

/** `1998-09-04` -> that date at midnight UTC, as the `date` column stores it. */
export const dateOnly = (value: string | null | undefined): Date | null =>
  value ? new Date(`${value.slice(0, 10)}T00:00:00Z`) : null;

/** Stored shape of a reference number (Company.referenceNumbers, JSON). */
// Type aliases, not interfaces: Prisma's JSON input accepts only index-compatible shapes.
export type StoredReferenceNumber = {
  typeId: string;
  number: string;
};

/** Stored shape of a social media link (Company.socialMedias, JSON). */
export type StoredSocialMedia = {
  type: string;
  link: string;
};

export const referenceNumbers = (
  list: CompanyReferenceNumberInput[] | null | undefined,
): StoredReferenceNumber[] => (list ?? []).map((r) => ({ typeId: r.type.id, number: r.number }));

export const socialMedias = (
  list: CompanySocialMediaInput[] | null | undefined,
): StoredSocialMedia[] => (list ?? []).map((s) => ({ type: s.type, link: s.link }));

/** Scalar columns of a company written by create and update (no audit, lifecycle or tags). */
export interface CompanyScalars {
  name: string;
  nameAddition: string | null;
  website: string | null;
  websiteDomain: string | null;
  customerNumber: string | null;
  vatId: string | null;
  taxNumber: string | null;
  foundingDate: Date | null;
  legalFormId: string | null;
  industrySectorId: string | null;
  employeeCountId: string | null;
  customerCountId: string | null;
  referenceNumbers: StoredReferenceNumber[];
  socialMedias: StoredSocialMedia[];
}

/** What an update changes. `undefined` leaves a part as it is. */
export interface CompanyChanges {
  scalars: Partial<CompanyScalars>;
  /** New lifecycle id, or null to clear it. */
  lifecycleId?: string | null;
  /** Replaces the tags ([] clears them). */
  tags?: CompanyTagInput[];
}

const TEXT_FIELDS = ['nameAddition', 'customerNumber', 'vatId', 'taxNumber'] as const;
const ENTRY_FIELDS = [
  ['legalForm', 'legalFormId'],
  ['industrySector', 'industrySectorId'],
  ['employeeCount', 'employeeCountId'],
  ['customerCount', 'customerCountId'],
] as const;

/** Scalar columns of a new company: absent fields are stored as null (or []). */
export function newCompanyScalars(input: CompanyFieldsInput & { name: string }): CompanyScalars {
  return {
    name: input.name,
    nameAddition: input.nameAddition ?? null,
    website: input.website ?? null,
    websiteDomain: websiteDomain(input.website),
    customerNumber: input.customerNumber ?? null,
    vatId: input.vatId ?? null,
    taxNumber: input.taxNumber ?? null,
    foundingDate: dateOnly(input.foundingDate),
    legalFormId: input.legalForm?.id ?? null,
    industrySectorId: input.industrySector?.id ?? null,
    employeeCountId: input.employeeCount?.id ?? null,
    customerCountId: input.customerCount?.id ?? null,
    referenceNumbers: referenceNumbers(input.referenceNumbers),
    socialMedias: socialMedias(input.socialMedias),
  };
}

/**
 * The changes an update body asks for: a field that is absent stays unchanged, null clears it,
 * a list given replaces the list. websiteDomain follows website.
 */
export function companyChanges(input: UpdateCompanyInput): CompanyChanges {
  const scalars: Partial<CompanyScalars> = {};
  if (input.name !== undefined) scalars.name = input.name;
  for (const f of TEXT_FIELDS) if (input[f] !== undefined) scalars[f] = input[f] ?? null;
  if (input.website !== undefined) {
    scalars.website = input.website ?? null;
    scalars.websiteDomain = websiteDomain(input.website);
  }
  if (input.foundingDate !== undefined) scalars.foundingDate = dateOnly(input.foundingDate);
  for (const [field, column] of ENTRY_FIELDS) {
    if (input[field] !== undefined) scalars[column] = input[field]?.id ?? null;
  }
  if (input.referenceNumbers !== undefined)
    scalars.referenceNumbers = referenceNumbers(input.referenceNumbers);
  if (input.socialMedias !== undefined) scalars.socialMedias = socialMedias(input.socialMedias);

  const changes: CompanyChanges = { scalars };
  if (input.lifecycle === null) changes.lifecycleId = null;
  else if (input.lifecycle && input.lifecycle.lifecycleId !== undefined)
    changes.lifecycleId = input.lifecycle.lifecycleId ?? null;
  if (input.tags !== undefined) changes.tags = input.tags ?? [];
  return changes;
}
