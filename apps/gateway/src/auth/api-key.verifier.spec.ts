import { AppException, ErrorCode } from '@crm/errors';
import { MessageBus, Subjects, VerifyApiKeyReply } from '@crm/messaging';
import { ApiKeyCache } from './api-key.cache';
import { ApiKeyVerifier, hashApiKey } from './api-key.verifier';

/** Stands in for the NATS request to tenant-info (the unit under test is the caching around it). */
class FakeBus {
  readonly calls: { subject: string; payload: object }[] = [];
  answers = new Map<string, VerifyApiKeyReply>();
  failWith: Error | null = null;
  /** Each call waits for its own gate (in call order) when gates are queued. */
  gates: Promise<void>[] = [];

  async request<T>(subject: string, payload: object): Promise<T> {
    this.calls.push({ subject, payload });
    const { keyHash } = payload as { keyHash: string };
    // tenant-info answers with the state at the time it was asked
    const answer = this.answers.get(keyHash) ?? { valid: false };
    await (this.gates.shift() ?? Promise.resolve());
    if (this.failWith) throw this.failWith;
    return answer as T;
  }
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

describe('ApiKeyVerifier', () => {
  let bus: FakeBus;
  let cache: ApiKeyCache;
  let verifier: ApiKeyVerifier;
  const reply: VerifyApiKeyReply = { valid: true, keyId: 'k1', tenantId: 't1', modules: ['crm'] };

  beforeEach(() => {
    bus = new FakeBus();
    bus.answers.set(hashApiKey('good-key'), reply);
    cache = new ApiKeyCache({ ttlMs: 60000 });
    verifier = new ApiKeyVerifier(bus as unknown as MessageBus, cache);
  });

  it('sends only the SHA-256 hex of the key', async () => {
    await verifier.verify('good-key');
    expect(bus.calls).toEqual([
      {
        subject: Subjects.tenantInfo.verifyApiKey,
        payload: { keyHash: hashApiKey('good-key') },
      },
    ]);
    expect(hashApiKey('good-key')).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(bus.calls)).not.toContain('good-key');
  });

  it("keeps a key's scopes and expiry, and the expiry of tenant-info's answer for an expired key", async () => {
    const scoped: VerifyApiKeyReply = {
      ...reply,
      scopes: ['crm:read'],
      expiresAt: '2027-01-01T00:00:00.000Z',
    };
    bus.answers.set(hashApiKey('scoped-key'), scoped);
    bus.answers.set(hashApiKey('expired-key'), {
      valid: false,
      expiresAt: '2026-01-01T00:00:00.000Z',
    });
    expect(await verifier.verify('scoped-key')).toEqual(scoped);
    expect(await verifier.verify('expired-key')).toEqual({
      valid: false,
      expiresAt: '2026-01-01T00:00:00.000Z',
    });
    // From the cache too: the gateway checks the expiry of every request against it.
    expect(await verifier.verify('scoped-key')).toEqual(scoped);
    expect(bus.calls).toHaveLength(2);
  });

  it('caches valid and invalid answers', async () => {
    expect(await verifier.verify('good-key')).toEqual(reply);
    expect(await verifier.verify('good-key')).toEqual(reply);
    expect(await verifier.verify('bad-key')).toEqual({ valid: false });
    expect(await verifier.verify('bad-key')).toEqual({ valid: false });
    expect(bus.calls).toHaveLength(2);
  });

  it('asks again after the tenant was dropped', async () => {
    await verifier.verify('good-key');
    cache.dropTenant('t1');
    bus.answers.set(hashApiKey('good-key'), { valid: false });
    expect(await verifier.verify('good-key')).toEqual({ valid: false });
    expect(bus.calls).toHaveLength(2);
  });

  it('shares one request among concurrent checks of the same key', async () => {
    const g = gate();
    bus.gates.push(g.promise);
    const all = Promise.all([1, 2, 3].map(() => verifier.verify('good-key')));
    g.open();
    expect(await all).toEqual([reply, reply, reply]);
    expect(bus.calls).toHaveLength(1);
  });

  it('does not cache an answer that was in flight when access changed', async () => {
    const slow = gate();
    const quick = gate();
    bus.gates.push(slow.promise, quick.promise);
    const stale = verifier.verify('good-key'); // asked while the key was valid
    bus.answers.set(hashApiKey('good-key'), { valid: false }); // revoked meanwhile ...
    cache.dropTenant('t1'); // ... and announced
    const fresh = verifier.verify('good-key'); // must not join the stale request
    quick.open();
    expect(await fresh).toEqual({ valid: false });
    slow.open(); // the stale answer arrives last
    expect(await stale).toEqual(reply);
    expect(bus.calls).toHaveLength(2);
    expect(cache.get(hashApiKey('good-key'))).toEqual({ valid: false });
  });

  it('does not cache a failure (503): the next call asks again', async () => {
    bus.failWith = new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.unavailable');
    await expect(verifier.verify('good-key')).rejects.toMatchObject({
      code: ErrorCode.SERVICE_UNAVAILABLE,
    });
    bus.failWith = null;
    expect(await verifier.verify('good-key')).toEqual(reply);
    expect(bus.calls).toHaveLength(2);
  });

  describe('while tenant-info cannot be asked (stale-if-error)', () => {
    const down = () =>
      new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.unavailable');
    let now: number;
    beforeEach(() => {
      now = 1_000_000;
      cache = new ApiKeyCache({ ttlMs: 5000, staleMs: 15 * 60_000, now: () => now });
      verifier = new ApiKeyVerifier(bus as unknown as MessageBus, cache, 2000);
    });

    it('accepts a key verified within the stale window, refuses one it never verified', async () => {
      await verifier.verify('good-key');
      now += 10 * 60_000;
      bus.failWith = down();
      expect(await verifier.verify('good-key')).toEqual(reply);
      await expect(verifier.verify('other-key')).rejects.toMatchObject({
        code: ErrorCode.SERVICE_UNAVAILABLE,
      });
    });

    it('refuses a key verified longer ago than the stale window', async () => {
      await verifier.verify('good-key');
      now += 15 * 60_000;
      bus.failWith = down();
      await expect(verifier.verify('good-key')).rejects.toMatchObject({
        code: ErrorCode.SERVICE_UNAVAILABLE,
      });
    });

    it('serves stale at once after a failure and asks in the background', async () => {
      await verifier.verify('good-key');
      now += 6000;
      bus.failWith = down();
      expect(await verifier.verify('good-key')).toEqual(reply); // asked, failed, stale
      const gated = gate();
      bus.gates.push(gated.promise); // the background question hangs ...
      expect(await verifier.verify('good-key')).toEqual(reply); // ... the caller does not wait
      expect(bus.calls).toHaveLength(3);
      gated.open();
    });

    it('honours a revocation once tenant-info answers again', async () => {
      await verifier.verify('good-key');
      now += 6000;
      bus.failWith = down();
      expect(await verifier.verify('good-key')).toEqual(reply);
      bus.failWith = null;
      bus.answers.set(hashApiKey('good-key'), { valid: false });
      await new Promise((r) => setTimeout(r, 2100)); // the degraded window ends
      expect(await verifier.verify('good-key')).toEqual({ valid: false });
      expect(cache.getStale(hashApiKey('good-key'))).toBeUndefined();
    });

    it('does not fall back on a refusal that is not an outage', async () => {
      await verifier.verify('good-key');
      now += 6000;
      bus.failWith = new AppException(ErrorCode.FORBIDDEN, 'errors.auth.unknownKey');
      await expect(verifier.verify('good-key')).rejects.toMatchObject({
        code: ErrorCode.FORBIDDEN,
      });
    });
  });

  it('treats a reply without valid: true as invalid', async () => {
    bus.answers.set(hashApiKey('odd'), { keyId: 'x', tenantId: 't' } as VerifyApiKeyReply);
    expect(await verifier.verify('odd')).toEqual({ valid: false });
  });
});
