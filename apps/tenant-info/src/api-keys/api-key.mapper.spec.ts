import { knownModules, toIssuedApiKey, toRevokedApiKey, toVerifyReply } from './api-key.mapper';
import type { ApiKeyRecord, KeyVerificationRow } from './api-keys.repository';

const row = (over: Partial<KeyVerificationRow> = {}): KeyVerificationRow => ({
  id: '7d1f3c8e-0f6a-4a47-9f1e-2b9d1c0f1a01',
  tenantId: 'acme',
  revokedAt: null,
  lastUsed: null,
  modules: ['tenant-info', 'crm'],
  ...over,
});

describe('api key mapping', () => {
  it('answers a live key with its id, tenant and modules in MODULES order', () => {
    expect(toVerifyReply(row())).toEqual({
      valid: true,
      keyId: '7d1f3c8e-0f6a-4a47-9f1e-2b9d1c0f1a01',
      tenantId: 'acme',
      modules: ['crm', 'tenant-info'],
    });
  });

  it('answers unknown and revoked keys with valid false only', () => {
    expect(toVerifyReply(null)).toEqual({ valid: false });
    expect(toVerifyReply(row({ revokedAt: new Date() }))).toEqual({ valid: false });
  });

  it('keeps a key valid when its tenant has no tariff (no modules)', () => {
    expect(toVerifyReply(row({ modules: [] }))).toMatchObject({ valid: true, modules: [] });
  });

  it('drops module names the gateway does not know', () => {
    expect(knownModules(['bookings', 'reports', 'crm', 'events'])).toEqual([
      'crm',
      'events',
      'bookings',
    ]);
  });

  const record: ApiKeyRecord = {
    id: '7d1f3c8e-0f6a-4a47-9f1e-2b9d1c0f1a01',
    tenantId: 'acme',
    name: 'ERP',
    prefix: 'crm_abcdef',
    hash: 'f'.repeat(64),
    dateCreated: new Date('2026-01-02T03:04:05.678Z'),
    lastUsed: null,
    revokedAt: null,
  };

  it('returns the clear key once, never the hash', () => {
    const issued = toIssuedApiKey(record, 'crm_abcdef-secret');
    expect(issued).toEqual({
      id: record.id,
      tenantId: 'acme',
      name: 'ERP',
      prefix: 'crm_abcdef',
      key: 'crm_abcdef-secret',
      dateCreated: '2026-01-02T03:04:05.678Z',
    });
    expect(JSON.stringify(issued)).not.toContain(record.hash);
  });

  it('maps a revoked key', () => {
    const revokedAt = new Date('2026-02-01T00:00:00.000Z');
    expect(toRevokedApiKey({ ...record, revokedAt })).toEqual({
      id: record.id,
      tenantId: 'acme',
      revokedAt: '2026-02-01T00:00:00.000Z',
    });
  });
});
