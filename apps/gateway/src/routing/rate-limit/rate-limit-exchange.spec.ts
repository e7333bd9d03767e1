import { RateLimitExchange } from './rate-limit-exchange';
import { RateLimiter, type RatePolicy } from './rate-limiter';

const T0 = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
const POLICY: RatePolicy = { name: 'key', quota: 100, windowSeconds: 60 };

/** A replica: its limiter and exchange, on a shared fake clock, with its log lines. */
function replica(clock: { now: number }, quota = POLICY.quota, maxKeys = 1000) {
  const lines: string[] = [];
  const logger = {
    log: (m: string) => lines.push(`log ${m}`),
    warn: (m: string) => lines.push(`warn ${m}`),
  };
  const holder: { exchange?: RateLimitExchange } = {};
  const limiter = new RateLimiter([{ ...POLICY, quota }], {
    maxKeys,
    replicas: () => holder.exchange!.replicas(),
    now: () => clock.now,
  });
  const exchange = new RateLimitExchange([limiter], {
    subject: 'crm.gateway.rate-limits.test',
    intervalMs: 200,
    logger,
    now: () => clock.now,
  });
  holder.exchange = exchange;
  return { limiter, exchange, lines };
}

/** Every replica's reports to every other, as core NATS would carry them. */
function exchangeAll(replicas: { exchange: RateLimitExchange }[]): void {
  const reports = replicas.map((r) => r.exchange.reports());
  replicas.forEach((r, i) =>
    reports.forEach((list, j) => {
      if (i !== j) for (const data of list) r.exchange.receive(data);
    }),
  );
}

describe('RateLimitExchange', () => {
  it('two replicas taking requests for one key in turn admit the quota between them, not twice it', () => {
    const clock = { now: T0 + 1000 };
    const a = replica(clock);
    const b = replica(clock);
    a.exchange.setShared(true);
    b.exchange.setShared(true);
    exchangeAll([a, b]); // they hear of each other
    expect(a.exchange.replicas()).toBe(2);
    let admitted = 0;
    // 500 requests, a report every 20 of them (a burst far faster than the reports)
    for (let i = 0; i < 500; i++) {
      const r = i % 3 === 0 ? b : a;
      if (r.limiter.take('k').allowed) admitted++;
      if (i % 20 === 19) {
        exchangeAll([a, b]);
        clock.now += 200;
      }
    }
    // the share rule: at most one more per replica and interval near the end
    expect(admitted).toBeGreaterThanOrEqual(POLICY.quota);
    expect(admitted).toBeLessThanOrEqual(POLICY.quota + 1);
  });

  it('without the share rule each replica would admit its own quota (control)', () => {
    const clock = { now: T0 + 1000 };
    const a = replica(clock);
    const b = replica(clock);
    // never connected: neither hears the other
    let admitted = 0;
    for (let i = 0; i < 500; i++) if ((i % 2 ? a : b).limiter.take('k').allowed) admitted++;
    expect(admitted).toBe(2 * POLICY.quota);
  });

  it('ignores its own reports, malformed ones and unknown policies', () => {
    const clock = { now: T0 };
    const a = replica(clock);
    a.limiter.take('k');
    const own = a.exchange.reports();
    a.exchange.receive(own[0]);
    a.exchange.receive(Buffer.from('not json'));
    a.exchange.receive(Buffer.from(JSON.stringify({ r: 'x', c: [['other', 'k', 1, 5], 'bad'] })));
    expect(a.limiter.take('k').states[0].remaining).toBe(98);
    // x was heard from (its report was well-formed), so it counts as a replica
    expect(a.exchange.replicas()).toBe(2);
  });

  it('cuts large reports below the NATS message size, and sends one empty report as a heartbeat', () => {
    const clock = { now: T0 };
    const a = replica(clock, 10, 20_000);
    const decode = (d: Uint8Array) => JSON.parse(Buffer.from(d).toString()) as { c: unknown[] };
    expect(a.exchange.reports().map((d) => decode(d).c)).toEqual([[]]);
    for (let i = 0; i < 12_000; i++) a.limiter.take(`key-${'x'.repeat(100)}-${i}`);
    const reports = a.exchange.reports();
    expect(reports.map((d) => decode(d).c.length)).toEqual([5000, 5000, 2000]);
    expect(reports.every((d) => d.length < 1024 * 1024)).toBe(true);
  });

  it('a replica not heard from for 5 intervals (at least 1 s) no longer shares the quota', () => {
    const clock = { now: T0 };
    const a = replica(clock);
    const b = replica(clock);
    exchangeAll([a, b]);
    expect(a.exchange.replicas()).toBe(2);
    clock.now += 999;
    expect(a.exchange.replicas()).toBe(2);
    clock.now += 2;
    expect(a.exchange.replicas()).toBe(1);
  });

  describe('NATS down', () => {
    it('falls back to the local quota: never refuses everything, never admits more than the quota per replica', () => {
      const clock = { now: T0 };
      const a = replica(clock, 10);
      const b = replica(clock, 10);
      a.exchange.setShared(true);
      b.exchange.setShared(true);
      exchangeAll([a, b]);
      b.limiter.take('k');
      b.limiter.take('k');
      exchangeAll([a, b]);
      a.exchange.setShared(false, 'disconnected');
      expect(a.exchange.replicas()).toBe(1);
      // what it heard before still counts (2 of b's), the rest is its own
      let admitted = 0;
      for (let i = 0; i < 50; i++) if (a.limiter.take('k').allowed) admitted++;
      expect(admitted).toBe(8);
      // another key is served in full
      for (let i = 0; i < 10; i++) expect(a.limiter.take(`other`).allowed).toBe(true);
    });

    it('says so once when it starts and once when it ends', () => {
      const clock = { now: T0 };
      const a = replica(clock);
      a.exchange.setShared(false, 'connection refused');
      a.exchange.setShared(false, 'connection refused');
      a.exchange.setShared(true);
      a.exchange.setShared(true);
      a.exchange.setShared(false, 'disconnected');
      expect(a.lines).toEqual([
        expect.stringMatching(
          /^warn rate limits counted by this replica alone: NATS unreachable \(connection refused\)/,
        ),
        expect.stringMatching(/^log rate limits shared with the other gateway replicas/),
        expect.stringMatching(
          /^warn rate limits counted by this replica alone: NATS unreachable \(disconnected\)/,
        ),
      ]);
      expect(a.exchange.isShared).toBe(false);
    });
  });
});
