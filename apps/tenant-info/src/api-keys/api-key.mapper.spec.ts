import { API_KEY_SCOPES } from '@crm/messaging';
import { knownModules, toIssuedApiKey, toRevokedApiKey, toVerifyReply } from './api-key.mapper';
import type { ApiKeyRecord, KeyVerificationRow } from './api-keys.repository';

const row = (over: Partial<KeyVerificationRow> = {}): KeyVerificationRow => ({
  id: '7d1f3c8e-0f6a-4a47-9f1e-2b9d1c0f1a01',
  tenantId: 'acme',
  revokedAt: null,
  lastUsed: null,
  scopes: ['events:write', 'crm:read'],
  expiresAt: null,
  modules: ['tenant-info', 'crm'],
  ...over,
});
const NOW = new Date('2026-06-01T12:00:00.000Z');

describe('api key mapping', () => {
  it('answers a live key with its id, tenant, modules and scopes in their lists order', () => {
    expect(toVerifyReply(row(), NOW)).toEqual({
      valid: true,
      keyId: '7d1f3c8e-0f6a-4a47-9f1e-2b9d1c0f1a01',
      tenantId: 'acme',
      modules: ['crm', 'tenant-info'],
      scopes: ['crm:read', 'events:write'],
      expiresAt: null,
    });
  });

  it('answers unknown and revoked keys with valid false only', () => {
    expect(toVerifyReply(null, NOW)).toEqual({ valid: false });
    expect(toVerifyReply(row({ revokedAt: new Date() }), NOW)).toEqual({ valid: false });
    const expiredAndRevoked = row({ revokedAt: NOW, expiresAt: new Date(NOW.getTime() - 1) });
    expect(toVerifyReply(expiredAndRevoked, NOW)).toEqual({ valid: false });
  });

  it('answers a key that will expire as valid with its expiry, for the gateway to check', () => {
    const expiresAt = new Date(NOW.getTime() + 1);
    expect(toVerifyReply(row({ expiresAt }), NOW)).toMatchObject({
      valid: true,
      expiresAt: '2026-06-01T12:00:00.001Z',
    });
  });

  it('answers an expired key as not valid, saying since when (at the instant itself too)', () => {
    for (const expiresAt of [NOW, new Date(NOW.getTime() - 86_400_000)]) {
      expect(toVerifyReply(row({ expiresAt }), NOW)).toEqual({
        valid: false,
        expiresAt: expiresAt.toISOString(),
      });
    }
  });

  it('drops scope names the gateway does not know', () => {
    expect(toVerifyReply(row({ scopes: ['crm:admin', 'crm:write'] }), NOW).scopes).toEqual([
      'crm:write',
    ]);
  });

  it('keeps a key valid when its tenant has no tariff (no modules)', () => {
    expect(toVerifyReply(row({ modules: [] }), NOW)).toMatchObject({ valid: true, modules: [] });
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
    scopes: [...API_KEY_SCOPES],
    expiresAt: null,
  };

  it('returns the clear key once, never the hash', () => {
    const issued = toIssuedApiKey(record, 'crm_abcdef-secret');
    expect(issued).toEqual({
      id: record.id,
      tenantId: 'acme',
      name: 'ERP',
      prefix: 'crm_abcdef',
      key: 'crm_abcdef-secret',
      scopes: [...API_KEY_SCOPES],
      expiresAt: null,
      dateCreated: '2026-01-02T03:04:05.678Z',
    });
    expect(JSON.stringify(issued)).not.toContain(record.hash);
  });

  it('answers the scopes and expiry the key was issued with', () => {
    const issued = toIssuedApiKey(
      { ...record, scopes: ['events:read', 'crm:write'], expiresAt: new Date(NOW) },
      'k',
    );
    expect(issued).toMatchObject({
      scopes: ['crm:write', 'events:read'],
      expiresAt: '2026-06-01T12:00:00.000Z',
    });
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
