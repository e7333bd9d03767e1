import { Logger } from '@nestjs/common';
import { Subjects } from '@crm/messaging';
import type { GatewayConfig } from '../config';
import { AccessEventsListener } from './access-events.listener';
import { ApiKeyCache } from './api-key.cache';

describe('AccessEventsListener.handle', () => {
  let cache: ApiKeyCache;
  let listener: AccessEventsListener;

  beforeAll(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
  afterAll(() => jest.restoreAllMocks());

  beforeEach(() => {
    cache = new ApiKeyCache({ ttlMs: 60000 });
    cache.set('a', { valid: true, keyId: 'ka', tenantId: 'tenant-a', modules: [] });
    cache.set('b', { valid: true, keyId: 'kb', tenantId: 'tenant-b', modules: [] });
    listener = new AccessEventsListener({} as GatewayConfig, cache);
  });

  it("drops the tenant's entries for an event as Nest's ClientNats.emit sends it", () => {
    listener.handle({
      pattern: Subjects.tenantInfo.accessChanged,
      data: { tenantId: 'tenant-a', keyId: 'ka' },
    });
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
  });

  it('also understands a bare event payload', () => {
    listener.handle({ tenantId: 'tenant-b' });
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
  });

  it.each([null, 'x', {}, { pattern: 'p', data: {} }, { tenantId: '' }, { tenantId: 42 }])(
    'ignores a malformed event %p',
    (event) => {
      listener.handle(event);
      expect(cache.size).toBe(2);
    },
  );
});
