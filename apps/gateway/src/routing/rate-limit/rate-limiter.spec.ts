import type { GatewayConfig } from '../../config';
import { RateLimiter, type RatePolicy, retryAfter } from './rate-limiter';
import { keyPolicies, publicPolicies } from './rate-limits.service';

const MINUTE: RatePolicy = { name: 'key', quota: 10, windowSeconds: 60 };
/** A window start (a multiple of 60 s), so that elapsed fractions are exact. */
const T0 = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);

function limiter(policies: RatePolicy[] = [MINUTE], replicas = 1, maxKeys = 1000) {
  const clock = { now: T0 };
  const l = new RateLimiter(policies, { maxKeys, replicas: () => replicas, now: () => clock.now });
  return { l, clock };
}
const admitted = (l: RateLimiter, key: string, n: number) =>
  Array.from({ length: n }, () => l.take(key).allowed).filter(Boolean).length;

describe('RateLimiter: one replica', () => {
  it('takes the quota, then refuses without counting the refusals', () => {
    const { l } = limiter();
    const first = l.take('a');
    expect(first).toMatchObject({ allowed: true, states: [{ remaining: 9, resetSeconds: 60 }] });
    expect(admitted(l, 'a', 20)).toBe(9);
    const refused = l.take('a');
    expect(refused.allowed).toBe(false);
    expect(refused.states[0]).toMatchObject({ remaining: 0 });
    // another key is not affected
    expect(l.take('b').allowed).toBe(true);
  });

  it('weighs the previous window by the part of it still inside the sliding window', () => {
    const { l, clock } = limiter();
    expect(admitted(l, 'a', 10)).toBe(10);
    // the next window's start: the previous 10 weigh fully
    clock.now = T0 + 60_000;
    expect(l.take('a').allowed).toBe(false);
    // halfway: 10 × 0.5 = 5 used, 5 left
    clock.now = T0 + 90_000;
    expect(admitted(l, 'a', 10)).toBe(5);
    // two windows on, nothing is left of either
    clock.now = T0 + 180_000;
    expect(admitted(l, 'a', 20)).toBe(10);
  });

  it('says in Retry-After when the next request is allowed (sliding window arithmetic)', () => {
    const { l, clock } = limiter();
    admitted(l, 'a', 10);
    clock.now = T0 + 30_000;
    const refused = l.take('a');
    // 10 now, in the next window 10 × (1 - t) ≤ 9: t ≥ 0.1, 30 s + 6 s from here
    expect(refused.retryAfterSeconds).toBe(36);
    expect(refused.states[0].resetSeconds).toBe(36);
    clock.now = T0 + 30_000 + 35_000;
    expect(l.take('a').allowed).toBe(false);
    clock.now = T0 + 30_000 + 36_000;
    expect(l.take('a').allowed).toBe(true);
  });

  it('retryAfter: within the window when only the previous one is in the way', () => {
    // prev 10, cur 2, quota 10: 10 × (1 - t) + 2 ≤ 9 → t ≥ 0.3
    expect(retryAfter(10, 2, 0.1, MINUTE)).toBe(12);
    // cur over the quota: into the next window, until 20 × (1 - t) ≤ 9: 30 s + 33 s
    expect(retryAfter(0, 20, 0.5, MINUTE)).toBe(63);
    expect(retryAfter(0, 0, 0.99, MINUTE)).toBe(1);
  });

  it('every policy must allow a call; the RateLimit states name each', () => {
    const burst: RatePolicy = { name: 'burst', quota: 3, windowSeconds: 10 };
    const { l, clock } = limiter([MINUTE, burst]);
    expect(admitted(l, 'a', 5)).toBe(3);
    const refused = l.take('a');
    expect(refused.states.map((s) => [s.policy.name, s.remaining])).toEqual([
      ['key', 7],
      ['burst', 0],
    ]);
    clock.now = T0 + 20_000;
    expect(admitted(l, 'a', 10)).toBe(3);
    clock.now = T0 + 40_000;
    expect(admitted(l, 'a', 10)).toBe(3);
    // the burst window would take another (3 × 0.5 + 1), the minute is used up after one
    clock.now = T0 + 55_000;
    expect(admitted(l, 'a', 10)).toBe(1);
    expect(l.take('a').states.map((s) => s.remaining)).toEqual([0, 0]);
  });

  it('remembers at most maxKeys keys and forgets keys whose windows have passed', () => {
    const { l, clock } = limiter([MINUTE], 1, 3);
    for (const k of ['a', 'b', 'c', 'd']) l.take(k);
    expect(l.size).toBe(3);
    l.changes();
    clock.now = T0 + 120_000;
    l.sweep();
    expect(l.size).toBe(0);
  });
});

describe('RateLimiter: counts of other replicas', () => {
  it('adds what others report, as absolute counts (a repeated or late report changes nothing)', () => {
    const { l } = limiter([MINUTE], 2);
    const w = Math.floor(T0 / 60_000);
    l.merge('b', [['key', 'a', w, 6]]);
    l.merge('b', [['key', 'a', w, 6]]);
    l.merge('b', [['key', 'a', w, 4]]);
    // 4 left, this replica's share until it reports: 4 / 2
    expect(admitted(l, 'a', 5)).toBe(2);
    expect(l.take('a').retryAfterSeconds).toBe(1);
    expect(l.changes()).toEqual([['key', 'a', w, 2]]);
    // 8 known: 1 now (always one while the quota is not used up), then the report
    expect(admitted(l, 'a', 5)).toBe(1);
    l.changes();
    expect(admitted(l, 'a', 5)).toBe(1);
    l.changes();
    const refused = l.take('a');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(1);
  });

  it("counts another replica's previous window as the previous one, and ignores older ones", () => {
    const { l, clock } = limiter([MINUTE], 1);
    const w = Math.floor(T0 / 60_000);
    clock.now = T0 + 60_000 + 30_000;
    l.merge('b', [
      ['key', 'a', w, 8], // the previous window: weighs 8 × 0.5
      ['key', 'old', w - 1, 100],
      ['other-policy', 'a', w + 1, 100],
    ]);
    expect(admitted(l, 'a', 10)).toBe(6);
    expect(admitted(l, 'old', 20)).toBe(10);
  });

  it('reports only what changed, and the last count of a window that has just ended', () => {
    const { l, clock } = limiter();
    const w = Math.floor(T0 / 60_000);
    l.take('a');
    l.take('a');
    expect(l.changes()).toEqual([['key', 'a', w, 2]]);
    expect(l.changes()).toEqual([]);
    l.take('a');
    clock.now = T0 + 60_000;
    l.take('a');
    expect(l.changes()).toEqual([
      ['key', 'a', w, 3],
      ['key', 'a', w + 1, 1],
    ]);
  });
});

describe('policies from the configuration', () => {
  it('a key: KEY_RATE_LIMIT_PER_MINUTE in 60 s; public: the minute and the burst', () => {
    const config = {
      KEY_RATE_LIMIT_PER_MINUTE: 600,
      PUBLIC_RATE_LIMIT_PER_MINUTE: 300,
      PUBLIC_RATE_LIMIT_BURST: 60,
    } as GatewayConfig;
    expect(keyPolicies(config)).toEqual([{ name: 'key', quota: 600, windowSeconds: 60 }]);
    expect(publicPolicies(config)).toEqual([
      { name: 'public', quota: 300, windowSeconds: 60 },
      { name: 'public-burst', quota: 60, windowSeconds: 12 },
    ]);
    const noBurst = { ...config, PUBLIC_RATE_LIMIT_BURST: 300 } as GatewayConfig;
    expect(publicPolicies(noBurst)).toEqual([{ name: 'public', quota: 300, windowSeconds: 60 }]);
  });
});
