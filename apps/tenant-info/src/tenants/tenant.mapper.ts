import type { TenantContactInput, TenantSummary } from '@crm/messaging';
import type { Tenant, TenantContact } from './dto/tenant.dto';
import { SubscriptionStatus, TenantSubscription } from './dto/tenant-subscription.dto';
import { renewalDate } from './subscription-renewal';
import type { SubscriptionRecord, TenantRecord } from './tenants.repository';

/** The fields of the `contact` JSON column, in output order. */
export const CONTACT_FIELDS = [
  'companyName',
  'contactPerson',
  'email',
  'phone',
  'street',
  'zip',
  'city',
  'country',
  'website',
] as const satisfies readonly (keyof TenantContactInput & keyof TenantContact)[];

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/** Only the known, non-empty string fields of a contact: what is stored and what NATS returns. */
export function compactContact(raw: unknown): TenantContactInput {
  const src = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const out: TenantContactInput = {};
  for (const f of CONTACT_FIELDS) {
    const v = src[f];
    if (typeof v === 'string' && v.trim() !== '') out[f] = v.trim();
  }
  return out;
}

/** TI1 contact: every field present, null when unknown. */
export function toContact(raw: unknown): TenantContact {
  const c = compactContact(raw);
  return {
    companyName: c.companyName ?? null,
    contactPerson: c.contactPerson ?? null,
    email: c.email ?? null,
    phone: c.phone ?? null,
    street: c.street ?? null,
    zip: c.zip ?? null,
    city: c.city ?? null,
    country: c.country ?? null,
    website: c.website ?? null,
  };
}

export function toTenant(r: TenantRecord): Tenant {
  return {
    id: r.id,
    name: r.name,
    contact: toContact(r.contact),
    tariffId: r.tariffId,
    dateCreated: iso(r.dateCreated),
    dateModified: iso(r.dateModified),
  };
}

export function toTenantSummary(r: TenantRecord): TenantSummary {
  return {
    id: r.id,
    name: r.name,
    contact: compactContact(r.contact),
    tariffId: r.tariffId,
    dateCreated: iso(r.dateCreated),
  };
}

export function toSubscription(r: SubscriptionRecord, now = new Date()): TenantSubscription {
  return {
    tenantId: r.tenantId,
    status: SubscriptionStatus[r.status],
    billingPeriod: r.billingPeriod,
    startDate: iso(r.startDate),
    endDate: isoOrNull(r.endDate),
    renewsAt: isoOrNull(renewalDate(r, now)),
    seats: r.seats,
  };
}
