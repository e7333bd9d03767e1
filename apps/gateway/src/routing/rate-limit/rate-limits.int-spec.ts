import { randomBytes, randomUUID } from 'node:crypto';
import type { VerifyApiKeyReply } from '@crm/messaging';
import { Subjects } from '@crm/messaging';
import { tenantHeaders } from '@crm/testing';
import {
  bootGateway,
  closedPortUrl,
  eventually,
  RunningGateway,
} from '../../../test/support/gateway';
import { TenantInfoStub } from '../../../test/support/tenant-info-stub';
import { startUpstream, Upstream } from '../../../test/support/upstream';
import { hashApiKey } from '../../auth/api-key.verifier';
import { RateLimits } from './rate-limits.service';

// Two gateways of one group (two replicas) on the real NATS, in front of a stand-in service:
// what a key and a public client get in total across both, the headers, and the 429.

/** The quotas under test: small, so that a burst is far over them. */
const N = 30;
const PUBLIC_N = 20;
const MODULES: VerifyApiKeyReply['modules'] = ['crm', 'events', 'bookings', 'tenant-info'];
const keyOf = (name: string) => `${name}-${randomBytes(16).toString('hex')}`;
const KEY_A = keyOf('a');
const KEY_B = keyOf('b');
const KEY_C = keyOf('c');
const keys = new Map<string, VerifyApiKeyReply>(
  (
    [
      [KEY_A, 'rl-a'],
      [KEY_B, 'rl-b'],
      [KEY_C, 'rl-a'],
    ] as const
  ).map(([key, tenantId]) => [
    hashApiKey(key),
    { valid: true, keyId: randomUUID(), tenantId, modules: MODULES },
  ]),
);

let stub: TenantInfoStub;
let upstream: Upstream;
let gw1: RunningGateway;
let gw2: RunningGateway;
const limits = (gw: RunningGateway) => gw.app.get(RateLimits).exchange;

interface Answer {
  gateway: 1 | 2;
  status: number;
  policy: string | null;
  rateLimit: string | null;
  retryAfter: string | null;
  body: any;
}

const keyed = (key: string, tenant: string) => (gw: RunningGateway) =>
  fetch(`${gw.url}/v1/crm/people/rl`, {
    headers: { ...tenantHeaders(tenant), Authorization: `Bearer ${key}` },
  });
const publicCall = (gw: RunningGateway) =>
  fetch(`${gw.url}/v1/crm/websites/public/config?url=x.example`, {
    headers: tenantHeaders('rl-a'),
  });

async function answerOf(gateway: 1 | 2, res: Response): Promise<Answer> {
  const text = await res.text();
  return {
    gateway,
    status: res.status,
    policy: res.headers.get('ratelimit-policy'),
    rateLimit: res.headers.get('ratelimit'),
    retryAfter: res.headers.get('retry-after'),
    body: text ? JSON.parse(text) : null,
  };
}

/** `size` calls at once, every other one to each gateway. */
async function round(call: (gw: RunningGateway) => Promise<Response>, size: number) {
  return Promise.all(
    Array.from({ length: size }, async (_, i) => {
      const gateway = i % 2 ? 2 : 1;
      return answerOf(gateway, await call(gateway === 1 ? gw1 : gw2));
    }),
  );
}

/**
 * Until each gateway has received two reports of the other since now: the second was sent after
 * now, so each knows every call the other had answered by now.
 */
async function synced(): Promise<void> {
  const [a, b] = [limits(gw1), limits(gw2)];
  const seenA = a.reportsFrom(b.replicaId);
  const seenB = b.reportsFrom(a.replicaId);
  await eventually(async () => {
    expect(a.reportsFrom(b.replicaId)).toBeGreaterThanOrEqual(seenA + 2);
    expect(b.reportsFrom(a.replicaId)).toBeGreaterThanOrEqual(seenB + 2);
  });
}

/**
 * A burst of 3 × quota at once, split over both gateways, then small rounds (each after both
 * know of every call so far) until a round is refused whole: the quota is used up.
 */
async function useUp(call: (gw: RunningGateway) => Promise<Response>, quota: number) {
  const started = Date.now();
  const burst = await round(call, 3 * quota);
  const all = [...burst];
  for (let i = 0; i < 40; i++) {
    await synced();
    const answers = await round(call, 4);
    all.push(...answers);
    if (answers.every((a) => a.status === 429)) break;
  }
  const ok = (list: Answer[]) => list.filter((a) => a.status === 200).length;
  return { burst: ok(burst), total: ok(all), all, seconds: (Date.now() - started) / 1000 };
}

/**
 * The tolerance, quota + 3 + what fades. Between two reports each of the 2 replicas takes at most
 * its half of what is left, but always one while it sees the quota not used up, so near the end
 * both may take the last one; a report still in flight while the other decides leaves its view a
 * report behind, which can repeat that once more (seen: 30-32 of 30; without sharing, 53-60). And
 * the counts are a sliding window of two fixed ones: if the test crosses a window's end, the calls
 * before it fade out by the part of the window gone since, at most quota × the test's seconds / 60.
 */
const tolerance = (quota: number, seconds: number) => quota + 3 + Math.ceil((quota * seconds) / 60);

beforeAll(async () => {
  stub = await TenantInfoStub.start();
  await stub.answer(Subjects.tenantInfo.verifyApiKey, (data) => ({
    response: keys.get((data as { keyHash: string }).keyHash) ?? { valid: false },
  }));
  upstream = await startUpstream();
  const env = {
    CRM_PEOPLE_URL: upstream.url,
    EVENTS_URL: upstream.url,
    CRM_COMPANIES_URL: await closedPortUrl(),
    TENANT_INFO_URL: await closedPortUrl(),
    GRAPHQL_SUBGRAPHS: 'crm-people',
    SUPERGRAPH_RETRY_MS: '600000',
    KEY_CACHE_TTL_MS: '600000',
    KEY_RATE_LIMIT_PER_MINUTE: String(N),
    PUBLIC_RATE_LIMIT_PER_MINUTE: String(PUBLIC_N),
    PUBLIC_RATE_LIMIT_BURST: String(PUBLIC_N),
    RATE_LIMIT_SYNC_MS: '50',
    // the two are replicas of one deployment
    RATE_LIMIT_GROUP: `test-${randomUUID()}`,
  };
  gw1 = await bootGateway(env);
  gw2 = await bootGateway(env);
  // each knows the other is there (it divides what is left between them)
  await eventually(async () => {
    expect(limits(gw1).replicas()).toBe(2);
    expect(limits(gw2).replicas()).toBe(2);
  });
});

afterAll(async () => {
  await gw1?.app.close();
  await gw2?.app.close();
  await upstream?.close();
  await stub?.close();
});

describe('rate limits shared by two gateway replicas', () => {
  it(`a key limited to ${N} a minute gets about ${N} across both, not ${2 * N}`, async () => {
    const { burst, total, all, seconds } = await useUp(keyed(KEY_A, 'rl-a'), N);
    expect(burst).toBeLessThanOrEqual(tolerance(N, seconds));
    expect(total).toBeGreaterThanOrEqual(N);
    expect(total).toBeLessThanOrEqual(tolerance(N, seconds));
    // both gateways served it
    expect(new Set(all.filter((a) => a.status === 200).map((a) => a.gateway)).size).toBe(2);

    // headers on every answer: the policy, and what is left; on a 429 when to retry
    for (const a of all) {
      expect(a.policy).toBe(`"key";q=${N};w=60`);
      const [, r, t] = /^"key";r=(\d+);t=(\d+)$/.exec(a.rateLimit ?? '') ?? [];
      expect(Number(t)).toBeGreaterThanOrEqual(1);
      if (a.status === 200) {
        expect(Number(r)).toBeLessThan(N);
        expect(Number(t)).toBeLessThanOrEqual(60);
        expect(a.retryAfter).toBeNull();
      } else {
        expect(a.status).toBe(429);
        expect(r).toBe('0');
        expect(a.retryAfter).toBe(t);
        expect(a.body).toMatchObject({
          data: null,
          statusCode: 429,
          message: `Too many requests: the rate limit key allows ${N} in 60 s; try again in ${t} s`,
          errors: [{ field: 'RateLimit', rule: 'rateLimit' }],
        });
      }
    }
    // what is left after both knew of each other's calls counts the other's too
    const after = all.slice(3 * N).filter((a) => a.status === 200);
    const fading = Math.ceil((N * seconds) / 60);
    for (const a of after)
      expect(Number(/r=(\d+)/.exec(a.rateLimit!)![1])).toBeLessThanOrEqual(N - burst - 1 + fading);

    // another key (another tenant) is not affected, on either gateway
    const other = await round(keyed(KEY_B, 'rl-b'), 4);
    expect(other.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    for (const a of other) expect(Number(/r=(\d+)/.exec(a.rateLimit!)![1])).toBeGreaterThan(N - 5);
    // a refused call is not counted: still refused, not later
    const again = await answerOf(1, await keyed(KEY_A, 'rl-a')(gw1));
    expect(again.status).toBe(429);
  });

  it('GraphQL calls count against the key as its REST calls do', async () => {
    const graphql = (gw: RunningGateway, key: string) =>
      fetch(`${gw.url}/graphql`, {
        method: 'POST',
        headers: {
          ...tenantHeaders('rl-a'),
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
    const fresh = await answerOf(2, await graphql(gw2, KEY_C));
    expect(fresh.status).toBe(200);
    expect(fresh.rateLimit).toMatch(new RegExp(`^"key";r=${N - 1};t=\\d+$`));
    const rest = await answerOf(2, await keyed(KEY_C, 'rl-a')(gw2));
    expect(rest.rateLimit).toMatch(new RegExp(`^"key";r=${N - 2};t=\\d+$`));

    // KEY_A is used up (previous test): a GraphQL-shaped 429 with Retry-After
    const refused = await answerOf(1, await graphql(gw1, KEY_A));
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.rateLimit).toBe(`"key";r=0;t=${refused.retryAfter}`);
    expect(refused.body).toMatchObject({
      errors: [{ extensions: { code: 'TOO_MANY_REQUESTS', statusCode: 429 } }],
    });
  });

  it(`a public client limited to ${PUBLIC_N} a minute gets about ${PUBLIC_N} across both`, async () => {
    const { burst, total, all, seconds } = await useUp(publicCall, PUBLIC_N);
    expect(burst).toBeLessThanOrEqual(tolerance(PUBLIC_N, seconds));
    expect(total).toBeGreaterThanOrEqual(PUBLIC_N);
    expect(total).toBeLessThanOrEqual(tolerance(PUBLIC_N, seconds));
    for (const a of all) expect(a.policy).toBe(`"public";q=${PUBLIC_N};w=60`);
    const refused = all.find((a) => a.status === 429)!;
    expect(refused.rateLimit).toBe(`"public";r=0;t=${refused.retryAfter}`);
  });
});
