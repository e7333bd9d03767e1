import { PublicRateLimiter } from './public-rate-limit';

describe('PublicRateLimiter', () => {
  let now = 0;
  const limiter = (perMinute = 60, burst = 3, maxClients = 1000) =>
    new PublicRateLimiter({ perMinute, burst, maxClients }, () => now);

  beforeEach(() => (now = 1_000_000));

  it('lets a burst through, then refuses with the seconds until the next request may pass', () => {
    const l = limiter(60, 3);
    expect([1, 2, 3].map(() => l.take('a').allowed)).toEqual([true, true, true]);
    expect(l.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now += 1000; // 60 per minute: one token per second
    expect(l.take('a').allowed).toBe(true);
    expect(l.take('a').allowed).toBe(false);
  });

  it('counts each client address on its own', () => {
    const l = limiter(60, 1);
    expect(l.take('a').allowed).toBe(true);
    expect(l.take('a').allowed).toBe(false);
    expect(l.take('b').allowed).toBe(true);
  });

  it('names a longer wait when the sustained rate is low', () => {
    const l = limiter(2, 1); // one request per 30 s
    l.take('a');
    expect(l.take('a')).toEqual({ allowed: false, retryAfterSeconds: 30 });
    now += 29_000;
    expect(l.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('refused requests do not buy more time (no debt beyond an empty bucket)', () => {
    const l = limiter(60, 1);
    l.take('a');
    for (let i = 0; i < 100; i++) l.take('a');
    now += 1000;
    expect(l.take('a').allowed).toBe(true);
  });

  it('forgets the least recently seen clients beyond maxClients', () => {
    const l = limiter(60, 1, 2);
    l.take('a');
    l.take('b');
    l.take('a'); // a is now the most recent
    l.take('c'); // b goes
    expect(l.size).toBe(2);
    expect(l.take('a').allowed).toBe(false); // a was kept, its bucket empty
    expect(l.take('b').allowed).toBe(true); // a fresh bucket: b was forgotten
  });
});
