import { ApiKeyCache } from './api-key.cache';

const valid = (tenantId: string, keyId = `${tenantId}-key`) => ({
  valid: true,
  keyId,
  tenantId,
  modules: ['crm' as const],
});
const invalid = { valid: false };

describe('ApiKeyCache', () => {
  let now: number;
  const clock = () => now;
  beforeEach(() => (now = 1_000_000));

  it('keeps valid and invalid answers for the TTL, then forgets them', () => {
    const cache = new ApiKeyCache(5000, 100, clock);
    cache.set('h1', valid('t1'));
    cache.set('h2', invalid);
    now += 4999;
    expect(cache.get('h1')).toEqual(valid('t1'));
    expect(cache.get('h2')).toEqual(invalid);
    now += 1;
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h2')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('stores nothing with a TTL of 0', () => {
    const cache = new ApiKeyCache(0, 100, clock);
    cache.set('h1', valid('t1'));
    expect(cache.get('h1')).toBeUndefined();
  });

  it("drops a tenant's answers (and every invalid one), keeps other tenants'", () => {
    const cache = new ApiKeyCache(60000, 100, clock);
    cache.set('a1', valid('a', 'k1'));
    cache.set('a2', valid('a', 'k2'));
    cache.set('b1', valid('b'));
    cache.set('x', invalid);
    cache.dropTenant('a');
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('a2')).toBeUndefined();
    expect(cache.get('x')).toBeUndefined();
    expect(cache.get('b1')).toEqual(valid('b'));
  });

  it('dropInvalid forgets only the invalid answers', () => {
    const cache = new ApiKeyCache(60000, 100, clock);
    cache.set('a1', valid('a'));
    cache.set('x', invalid);
    cache.dropInvalid();
    expect(cache.get('a1')).toEqual(valid('a'));
    expect(cache.get('x')).toBeUndefined();
  });

  it('refuses an answer requested before a drop (it may predate the change)', () => {
    const cache = new ApiKeyCache(60000, 100, clock);
    const generation = cache.currentGeneration;
    cache.dropTenant('a');
    cache.set('a1', valid('a'), generation);
    expect(cache.get('a1')).toBeUndefined();
    cache.set('a1', valid('a'), cache.currentGeneration);
    expect(cache.get('a1')).toEqual(valid('a'));
  });

  it('is bounded: the oldest entries go first', () => {
    const cache = new ApiKeyCache(60000, 3, clock);
    for (const h of ['h1', 'h2', 'h3', 'h4']) cache.set(h, invalid);
    expect(cache.size).toBe(3);
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h4')).toEqual(invalid);
  });

  it('clear forgets everything', () => {
    const cache = new ApiKeyCache(60000, 100, clock);
    cache.set('a1', valid('a'));
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
