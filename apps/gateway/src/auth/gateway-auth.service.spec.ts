import { AppException, ErrorCode } from '@crm/errors';
import type { VerifyApiKeyReply } from '@crm/messaging';
import { tenantHeaders } from '@crm/testing';
import type { KeyVerifier } from './api-key.verifier';
import { bearerToken, GatewayAuthService } from './gateway-auth.service';

class StubVerifier implements KeyVerifier {
  readonly asked: string[] = [];
  constructor(private readonly keys: Record<string, VerifyApiKeyReply>) {}
  async verify(key: string): Promise<VerifyApiKeyReply> {
    this.asked.push(key);
    return this.keys[key] ?? { valid: false };
  }
}

const lower = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

const headers = (tenant: string, extra: Record<string, string> = {}) =>
  lower({ ...tenantHeaders(tenant), ...extra });

async function failure(p: Promise<unknown>): Promise<AppException> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppException) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

describe('GatewayAuthService', () => {
  const verifier = new StubVerifier({
    'key-a': { valid: true, keyId: 'id-a', tenantId: 'a', modules: ['crm', 'events'] },
    'key-b': { valid: true, keyId: 'id-b', tenantId: 'b', modules: ['crm'] },
    'key-read': {
      valid: true,
      keyId: 'id-r',
      tenantId: 'a',
      modules: ['crm', 'events'],
      scopes: ['crm:read'],
      expiresAt: null,
    },
    'key-soon': {
      valid: true,
      keyId: 'id-s',
      tenantId: 'a',
      modules: ['crm'],
      scopes: ['crm:write'],
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
    // A cached valid answer whose key has expired since.
    'key-past': {
      valid: true,
      keyId: 'id-p',
      tenantId: 'a',
      modules: ['crm'],
      scopes: ['crm:write'],
      expiresAt: '2026-01-01T00:00:00.000Z',
    },
    // tenant-info's own answer for an expired key.
    'key-expired': { valid: false, expiresAt: '2026-01-02T00:00:00.000Z' },
  });
  const auth = new GatewayAuthService(verifier);

  it.each(['X-Integration-Name', 'X-Integration-Provider', 'X-Service-TenantId'])(
    '400 naming %s when missing or blank, before looking at the key',
    async (name) => {
      for (const value of [undefined, '', '   ']) {
        const h = headers('a', { Authorization: 'Bearer key-a' });
        if (value === undefined) delete h[name.toLowerCase()];
        else h[name.toLowerCase()] = value;
        const err = await failure(auth.authenticate(h, { module: 'crm' }));
        expect(err.code).toBe(ErrorCode.BAD_REQUEST);
        expect(err.messageKey).toBe('errors.header.missing');
        expect(err.args).toEqual({ header: name });
      }
    },
  );

  it('401 without a key or with another scheme', async () => {
    const variants: Record<string, string>[] = [
      {},
      { Authorization: 'Basic key-a' },
      { Authorization: 'Bearer' },
    ];
    for (const extra of variants) {
      const err = await failure(auth.authenticate(headers('a', extra), { module: 'crm' }));
      expect(err.code).toBe(ErrorCode.UNAUTHENTICATED);
      expect(err.messageKey).toBe('errors.auth.missingKey');
    }
  });

  it('401 for an unknown key; an absurdly long one is not even asked about', async () => {
    const unknown = await failure(
      auth.authenticate(headers('a', { Authorization: 'Bearer nope' }), {}),
    );
    expect(unknown.code).toBe(ErrorCode.UNAUTHENTICATED);
    expect(unknown.messageKey).toBe('errors.auth.unknownKey');
    const long = 'x'.repeat(600);
    const err = await failure(
      auth.authenticate(headers('a', { Authorization: `Bearer ${long}` }), {}),
    );
    expect(err.messageKey).toBe('errors.auth.unknownKey');
    expect(verifier.asked).not.toContain(long);
  });

  it("403 for another tenant's key, naming the tenant of the headers", async () => {
    const err = await failure(
      auth.authenticate(headers('a', { Authorization: 'Bearer key-b' }), { module: 'crm' }),
    );
    expect(err.code).toBe(ErrorCode.FORBIDDEN);
    expect(err.messageKey).toBe('errors.auth.foreignKey');
    expect(err.args).toEqual({ tenantId: 'a' });
  });

  it('403 naming the module when the tariff lacks it', async () => {
    const err = await failure(
      auth.authenticate(headers('b', { Authorization: 'Bearer key-b' }), { module: 'events' }),
    );
    expect(err.code).toBe(ErrorCode.FORBIDDEN);
    expect(err.messageKey).toBe('errors.auth.moduleNotInTariff');
    expect(err.args).toEqual({ module: 'events' });
  });

  it('accepts a key of the tenant with the module, case-insensitive scheme', async () => {
    const caller = await auth.authenticate(
      headers('a', { Authorization: 'bearer key-a', 'X-Caller-Id': 'spoofed' }),
      { module: 'events' },
    );
    expect(caller.keyId).toBe('id-a');
    expect(caller.modules).toEqual(['crm', 'events']);
    expect(caller.context).toMatchObject({ tenantId: 'a', callerId: 'id-a' });
  });

  it('403 naming the scope a key lacks: write for a write, read for a module it has none of', async () => {
    const h = headers('a', { Authorization: 'Bearer key-read' });
    const write = await failure(auth.authenticate(h, { module: 'crm', access: 'write' }));
    expect(write.code).toBe(ErrorCode.FORBIDDEN);
    expect(write.messageKey).toBe('errors.auth.scopeMissing');
    expect(write.args).toEqual({ scope: 'crm:write' });
    const read = await failure(auth.authenticate(h, { module: 'events', access: 'read' }));
    expect(read.args).toEqual({ scope: 'events:read' });
    // Without the kind of access, a write is required (the safe side).
    expect((await failure(auth.authenticate(h, { module: 'crm' }))).args).toEqual({
      scope: 'crm:write',
    });
  });

  it('read scope reads; write scope reads and writes; the caller carries the scopes', async () => {
    const reader = await auth.authenticate(headers('a', { Authorization: 'Bearer key-read' }), {
      module: 'crm',
      access: 'read',
    });
    expect(reader.scopes).toEqual(['crm:read']);
    for (const access of ['read', 'write'] as const) {
      const caller = await auth.authenticate(headers('a', { Authorization: 'Bearer key-soon' }), {
        module: 'crm',
        access,
      });
      expect(caller.keyId).toBe('id-s');
    }
  });

  it('checks the tariff before the scopes', async () => {
    const err = await failure(
      auth.authenticate(headers('b', { Authorization: 'Bearer key-b' }), {
        module: 'events',
        access: 'read',
      }),
    );
    expect(err.messageKey).toBe('errors.auth.moduleNotInTariff');
  });

  it('a key without scopes in the answer (tenant-info before scopes) may do everything', async () => {
    const caller = await auth.authenticate(headers('a', { Authorization: 'Bearer key-a' }), {
      module: 'events',
      access: 'write',
    });
    expect(caller.scopes).toContain('events:write');
  });

  it("401 saying when for an expired key, a cached valid answer or tenant-info's own", async () => {
    const cases: [string, string][] = [
      ['key-past', '2026-01-01T00:00:00.000Z'],
      ['key-expired', '2026-01-02T00:00:00.000Z'],
    ];
    for (const [key, expiresAt] of cases) {
      const err = await failure(
        auth.authenticate(headers('a', { Authorization: `Bearer ${key}` }), { module: 'crm' }),
      );
      expect(err.code).toBe(ErrorCode.UNAUTHENTICATED);
      expect(err.messageKey).toBe('errors.auth.expiredKey');
      expect(err.args).toEqual({ expiresAt });
    }
    // GraphQL authenticates without a module: the expiry applies there too.
    const graphql = await failure(
      auth.authenticate(headers('a', { Authorization: 'Bearer key-past' })),
    );
    expect(graphql.messageKey).toBe('errors.auth.expiredKey');
  });

  it('without a module requirement (GraphQL) checks the key only', async () => {
    const caller = await auth.authenticate(headers('b', { Authorization: 'Bearer key-b' }));
    expect(caller.modules).toEqual(['crm']);
  });

  it('public operations need the headers but never the key', async () => {
    const before = verifier.asked.length;
    const caller = await auth.authenticate(headers('a', { 'X-Caller-Id': 'spoofed' }), {
      isPublic: true,
      module: 'events',
    });
    expect(caller).toMatchObject({
      keyId: null,
      modules: [],
      scopes: [],
      context: { callerId: null },
    });
    expect(verifier.asked.length).toBe(before);
    const err = await failure(auth.authenticate({}, { isPublic: true }));
    expect(err.code).toBe(ErrorCode.BAD_REQUEST);
  });
});

describe('bearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer   abc  ', 'abc'],
    ['Bearer a b', null],
    ['Token abc', null],
    ['', null],
    [undefined, null],
  ])('%p -> %p', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});
