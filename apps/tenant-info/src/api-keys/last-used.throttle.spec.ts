import { LastUsedThrottle } from './last-used.throttle';

describe('LastUsedThrottle', () => {
  const t0 = Date.UTC(2026, 0, 1);

  it('writes a key never used', () => {
    expect(new LastUsedThrottle(60_000).shouldWrite('k', null, t0)).toBe(true);
  });

  it('does not write while the stored lastUsed is fresh', () => {
    const th = new LastUsedThrottle(60_000);
    expect(th.shouldWrite('k', new Date(t0 - 59_000), t0)).toBe(false);
    expect(th.shouldWrite('k', new Date(t0 - 60_000), t0)).toBe(true);
  });

  it('writes once for a burst that still reads the old value', () => {
    const th = new LastUsedThrottle(60_000);
    const stale = new Date(t0 - 3_600_000);
    const writes = Array.from({ length: 50 }, (_, i) => th.shouldWrite('k', stale, t0 + i * 10));
    expect(writes.filter(Boolean)).toHaveLength(1);
    expect(th.shouldWrite('k', stale, t0 + 60_000)).toBe(true);
  });

  it('keeps keys apart', () => {
    const th = new LastUsedThrottle(60_000);
    expect(th.shouldWrite('a', null, t0)).toBe(true);
    expect(th.shouldWrite('b', null, t0)).toBe(true);
    expect(th.shouldWrite('a', null, t0 + 1)).toBe(false);
  });

  it('bounds its memory without losing the rule for recent keys', () => {
    const th = new LastUsedThrottle(60_000, 3);
    ['a', 'b', 'c'].forEach((k) => th.shouldWrite(k, null, t0));
    // d arrives after the interval: a-c are pruned, d is written.
    expect(th.shouldWrite('d', null, t0 + 60_000)).toBe(true);
    expect(th.shouldWrite('d', null, t0 + 60_001)).toBe(false);
    expect(th.shouldWrite('a', null, t0 + 60_001)).toBe(true);
  });
});
