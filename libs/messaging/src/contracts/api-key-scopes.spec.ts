import { allowsScope, API_KEY_SCOPES, issueApiKeyProblems, knownScopes } from './api-key-scopes';

describe('API key scopes', () => {
  it('are read and write of every module', () => {
    expect(API_KEY_SCOPES).toEqual([
      'crm:read',
      'crm:write',
      'events:read',
      'events:write',
      'bookings:read',
      'bookings:write',
      'tenant-info:read',
      'tenant-info:write',
    ]);
  });

  it('read allows reading only; write includes read of the same module only', () => {
    expect(allowsScope(['crm:read'], 'crm', 'read')).toBe(true);
    expect(allowsScope(['crm:read'], 'crm', 'write')).toBe(false);
    expect(allowsScope(['crm:write'], 'crm', 'read')).toBe(true);
    expect(allowsScope(['crm:write'], 'crm', 'write')).toBe(true);
    expect(allowsScope(['crm:write'], 'events', 'read')).toBe(false);
    expect(allowsScope(['events:read', 'crm:read'], 'events', 'read')).toBe(true);
    expect(allowsScope([], 'crm', 'read')).toBe(false);
  });

  it('keeps known scopes in their order', () => {
    expect(knownScopes(['events:read', 'x', 'crm:write'])).toEqual(['crm:write', 'events:read']);
  });
});

describe('issueApiKeyProblems', () => {
  const now = new Date('2026-06-01T12:00:00.000Z');

  it('accepts known unique scopes and a future expiry, and their absence', () => {
    expect(
      issueApiKeyProblems(
        { scopes: ['crm:read', 'events:write'], expiresAt: '2026-06-01T12:00:01Z' },
        now,
      ),
    ).toEqual([]);
    expect(issueApiKeyProblems({}, now)).toEqual([]);
  });

  it('names an unknown scope and a repeated one by index', () => {
    expect(issueApiKeyProblems({ scopes: ['crm:read', 'crm:read', 'crm:admin', 7] }, now)).toEqual([
      { field: 'scopes[1]', rule: 'duplicateEntry' },
      {
        field: 'scopes[2]',
        rule: 'isIn',
        args: { constraint1: API_KEY_SCOPES.join(', ') },
      },
      { field: 'scopes[3]', rule: 'isIn', args: { constraint1: API_KEY_SCOPES.join(', ') } },
    ]);
  });

  it('refuses an expiry that is not ahead of now (the instant itself too)', () => {
    for (const expiresAt of [
      '2026-06-01T12:00:00.000Z',
      '2026-06-01T13:59:00+02:00',
      '2020-01-01T00:00:00Z',
    ]) {
      expect(issueApiKeyProblems({ expiresAt }, now)).toEqual([
        { field: 'expiresAt', rule: 'inFuture' },
      ]);
    }
  });
});
