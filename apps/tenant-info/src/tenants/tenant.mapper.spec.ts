import { SubscriptionStatus } from './dto/tenant-subscription.dto';
import {
  compactContact,
  toContact,
  toSubscription,
  toTenant,
  toTenantSummary,
} from './tenant.mapper';
import type { SubscriptionRecord, TenantRecord } from './tenants.repository';

const record: TenantRecord = {
  id: 'acme',
  name: 'ACME GmbH',
  contact: { email: 'office@acme.test', city: ' Berlin ', phone: '', unknown: 'x', zip: 10115 },
  tariffId: 'complete',
  dateCreated: new Date('2026-01-01T00:00:00.000Z'),
  dateModified: new Date('2026-01-02T00:00:00.000Z'),
};

describe('tenant mapping', () => {
  it('keeps only known, non-empty string contact fields (trimmed)', () => {
    expect(compactContact(record.contact)).toEqual({ email: 'office@acme.test', city: 'Berlin' });
    expect(compactContact(null)).toEqual({});
    expect(compactContact(['a'])).toEqual({});
  });

  it('TI1 shows every contact field, null when unknown', () => {
    expect(toContact(record.contact)).toEqual({
      companyName: null,
      contactPerson: null,
      email: 'office@acme.test',
      phone: null,
      street: null,
      zip: null,
      city: 'Berlin',
      country: null,
      website: null,
    });
  });

  it('maps the tenant for TI1 and for NATS replies', () => {
    expect(toTenant(record)).toMatchObject({
      id: 'acme',
      name: 'ACME GmbH',
      tariffId: 'complete',
      dateCreated: '2026-01-01T00:00:00.000Z',
      dateModified: '2026-01-02T00:00:00.000Z',
    });
    expect(toTenantSummary(record)).toEqual({
      id: 'acme',
      name: 'ACME GmbH',
      contact: { email: 'office@acme.test', city: 'Berlin' },
      tariffId: 'complete',
      dateCreated: '2026-01-01T00:00:00.000Z',
    });
  });

  it('maps a subscription with its derived renewal', () => {
    const sub: SubscriptionRecord = {
      tenantId: 'acme',
      status: 'ACTIVE',
      billingPeriod: 'yearly',
      startDate: new Date('2025-03-01T00:00:00.000Z'),
      endDate: null,
      renewsAt: null,
      seats: 5,
    };
    expect(toSubscription(sub, new Date('2026-06-01T00:00:00.000Z'))).toEqual({
      tenantId: 'acme',
      status: SubscriptionStatus.ACTIVE,
      billingPeriod: 'yearly',
      startDate: '2025-03-01T00:00:00.000Z',
      endDate: null,
      renewsAt: '2027-03-01T00:00:00.000Z',
      seats: 5,
    });
  });
});
