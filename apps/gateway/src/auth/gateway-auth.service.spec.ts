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
    expect(caller).toMatchObject({ keyId: null, modules: [], context: { callerId: null } });
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
