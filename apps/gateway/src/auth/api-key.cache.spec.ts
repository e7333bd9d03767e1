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
    const cache = new ApiKeyCache({ ttlMs: 5000, maxEntries: 100, now: clock });
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

  describe('stale copies (stale-if-error)', () => {
    const cache = () =>
      new ApiKeyCache({ ttlMs: 5000, staleMs: 15 * 60_000, maxEntries: 100, now: clock });

    it('keeps a valid answer as a stale copy for staleMs after it was verified, then drops it', () => {
      const c = cache();
      c.set('h1', valid('t1'));
      now += 5000;
      expect(c.get('h1')).toBeUndefined();
      expect(c.getStale('h1')).toEqual(valid('t1'));
      now += 15 * 60_000 - 5001;
      expect(c.getStale('h1')).toEqual(valid('t1'));
      now += 1;
      expect(c.getStale('h1')).toBeUndefined();
      expect(c.size).toBe(0);
    });

    it('never keeps a stale invalid answer, and has no stale copy of an unknown key', () => {
      const c = cache();
      c.set('x', invalid);
      expect(c.getStale('x')).toBeUndefined();
      now += 5000;
      expect(c.get('x')).toBeUndefined();
      expect(c.getStale('nope')).toBeUndefined();
    });

    it("a tenant's drop (a revocation heard) removes its stale copies too", () => {
      const c = cache();
      c.set('a1', valid('a'));
      c.set('b1', valid('b'));
      now += 6000;
      c.dropTenant('a');
      expect(c.getStale('a1')).toBeUndefined();
      expect(c.getStale('b1')).toEqual(valid('b'));
    });

    it('expireAll makes every answer be asked again but keeps the valid ones as stale copies', () => {
      const c = cache();
      c.set('a1', valid('a'));
      c.set('x', invalid);
      c.expireAll();
      expect(c.get('a1')).toBeUndefined();
      expect(c.getStale('a1')).toEqual(valid('a'));
      expect(c.get('x')).toBeUndefined();
    });

    it('has no stale copies when the cache is off', () => {
      const c = new ApiKeyCache({ ttlMs: 0, staleMs: 60000, now: clock });
      c.set('a1', valid('a'));
      expect(c.getStale('a1')).toBeUndefined();
    });
  });

  it('stores nothing with a TTL of 0', () => {
    const cache = new ApiKeyCache({ ttlMs: 0, maxEntries: 100, now: clock });
    cache.set('h1', valid('t1'));
    expect(cache.get('h1')).toBeUndefined();
  });

  it("drops a tenant's answers (and every invalid one), keeps other tenants'", () => {
    const cache = new ApiKeyCache({ ttlMs: 60000, maxEntries: 100, now: clock });
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
    const cache = new ApiKeyCache({ ttlMs: 60000, maxEntries: 100, now: clock });
    cache.set('a1', valid('a'));
    cache.set('x', invalid);
    cache.dropInvalid();
    expect(cache.get('a1')).toEqual(valid('a'));
    expect(cache.get('x')).toBeUndefined();
  });

  it('refuses an answer requested before a drop (it may predate the change)', () => {
    const cache = new ApiKeyCache({ ttlMs: 60000, maxEntries: 100, now: clock });
    const generation = cache.currentGeneration;
    cache.dropTenant('a');
    cache.set('a1', valid('a'), generation);
    expect(cache.get('a1')).toBeUndefined();
    cache.set('a1', valid('a'), cache.currentGeneration);
    expect(cache.get('a1')).toEqual(valid('a'));
  });

  it('is bounded: the oldest entries go first', () => {
    const cache = new ApiKeyCache({ ttlMs: 60000, maxEntries: 3, now: clock });
    for (const h of ['h1', 'h2', 'h3', 'h4']) cache.set(h, invalid);
    expect(cache.size).toBe(3);
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h4')).toEqual(invalid);
  });

  it('clear forgets everything', () => {
    const cache = new ApiKeyCache({ ttlMs: 60000, maxEntries: 100, now: clock });
    cache.set('a1', valid('a'));
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
