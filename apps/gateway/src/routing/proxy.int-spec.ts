import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { VerifyApiKeyReply } from '@crm/messaging';
import { Subjects } from '@crm/messaging';
import { metricSamples, tenantHeaders } from '@crm/testing';
import {
  bootGateway,
  closedPortUrl,
  eventually,
  INTERNAL_TOKEN,
  RunningGateway,
  json,
} from '../../test/support/gateway';
import { TenantInfoStub } from '../../test/support/tenant-info-stub';
import { startUpstream, Upstream } from '../../test/support/upstream';
import { hashApiKey } from '../auth/api-key.verifier';

// The REST side of the gateway against real NATS (a stand-in tenant-info answering key checks)
// and real HTTP servers standing in for the services.

const ALL_MODULES: VerifyApiKeyReply['modules'] = ['crm', 'events', 'bookings', 'tenant-info'];
const keyOf = (name: string) => `${name}-${randomBytes(16).toString('hex')}`;
const KEY_A = keyOf('a');
const KEY_A_ID = randomUUID();
const KEY_B = keyOf('b');
const KEY_CRM_ONLY = keyOf('crm');
const keys = new Map<string, VerifyApiKeyReply>([
  [hashApiKey(KEY_A), { valid: true, keyId: KEY_A_ID, tenantId: 'tenant-a', modules: ALL_MODULES }],
  [
    hashApiKey(KEY_B),
    { valid: true, keyId: randomUUID(), tenantId: 'tenant-b', modules: ALL_MODULES },
  ],
  [
    hashApiKey(KEY_CRM_ONLY),
    { valid: true, keyId: randomUUID(), tenantId: 'tenant-c', modules: ['crm'] },
  ],
]);

let stub: TenantInfoStub;
let people: Upstream;
let events: Upstream;
let gw: RunningGateway;
let gatewayEnv: Record<string, string>;

const withKey = (tenant: string, key: string, extra: Record<string, string> = {}) => ({
  ...tenantHeaders(tenant),
  Authorization: `Bearer ${key}`,
  ...extra,
});
const apiCalls = (u: Upstream) => u.received.filter((r) => r.url.startsWith('/v1/crm/'));
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A raw HTTP request (fetch would normalise dot segments and hide streaming). */
function rawRequest(
  path: string,
  options: http.RequestOptions = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    // Path given apart from the URL: Node would resolve the dot segments of a URL string.
    const { hostname, port } = new URL(gw.url);
    const req = http.request({ hostname, port, path, ...options }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  stub = await TenantInfoStub.start();
  await stub.answer(Subjects.tenantInfo.verifyApiKey, (data) => ({
    response: keys.get((data as { keyHash: string }).keyHash) ?? { valid: false },
  }));
  people = await startUpstream();
  events = await startUpstream();
  gatewayEnv = {
    CRM_PEOPLE_URL: people.url,
    EVENTS_URL: events.url,
    CRM_COMPANIES_URL: await closedPortUrl(),
    TENANT_INFO_URL: await closedPortUrl(),
    GRAPHQL_SUBGRAPHS: 'crm-people',
    SUPERGRAPH_RETRY_MS: '600000',
    KEY_CACHE_TTL_MS: '600000',
    // above the slow service below (4.5 s), below the test timeout
    UPSTREAM_ANSWER_TIMEOUT_MS: '7000',
  };
  gw = await bootGateway(gatewayEnv);
});

afterAll(async () => {
  await gw?.app.close();
  await people?.close();
  await events?.close();
  await stub?.close();
});

describe('streaming proxy', () => {
  it('passes a multi-megabyte upload through unchanged, chunked as it was sent', async () => {
    const body = randomBytes(8 * 1024 * 1024);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < body.length; i += 256 * 1024)
          controller.enqueue(body.subarray(i, i + 256 * 1024));
        controller.close();
      },
    });
    const res = await fetch(`${gw.url}/v1/crm/people/${randomUUID()}/documents`, {
      method: 'POST',
      headers: withKey('tenant-a', KEY_A, { 'Content-Type': 'application/octet-stream' }),
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(200);
    const seen = apiCalls(people).at(-1)!;
    expect(seen.bytes).toBe(body.length);
    expect(seen.sha256).toBe(sha256(body));
    expect(seen.headers['transfer-encoding']).toBe('chunked');
    expect(seen.headers['content-type']).toBe('application/octet-stream');
  });

  it('keeps Content-Length when the client sent one', async () => {
    const body = randomBytes(3 * 1024 * 1024);
    const res = await fetch(`${gw.url}/v1/crm/people/${randomUUID()}/profile-image`, {
      method: 'POST',
      headers: withKey('tenant-a', KEY_A, { 'Content-Type': 'image/png' }),
      body,
    });
    expect(res.status).toBe(200);
    const seen = apiCalls(people).at(-1)!;
    expect(seen.headers['content-length']).toBe(String(body.length));
    expect(seen.sha256).toBe(sha256(body));
  });

  it('forwards the request body while it is still arriving (no buffering)', async () => {
    let firstBytes!: () => void;
    const arrived = new Promise<void>((r) => (firstBytes = r));
    people.rawHandlers.push((req, res) => {
      if (!req.url?.startsWith('/v1/crm/people/streamed-upload')) return false;
      let total = 0;
      req.on('data', (c: Buffer) => {
        if (total === 0) firstBytes();
        total += c.length;
      });
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ total }));
      });
      return true;
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${gw.url}/v1/crm/people/streamed-upload`, {
        method: 'POST',
        headers: withKey('tenant-a', KEY_A, { 'Content-Type': 'application/octet-stream' }),
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.write(randomBytes(1024 * 1024));
      // The rest is sent only once the service has seen the beginning.
      void arrived.then(() => req.end(randomBytes(4 * 1024 * 1024)));
    });
    const res = await answer;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ total: 5 * 1024 * 1024 });
  });

  it('streams a multi-megabyte answer back while the service is still sending it', async () => {
    const first = randomBytes(1024 * 1024);
    const rest = randomBytes(7 * 1024 * 1024);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    people.rawHandlers.push((req, res) => {
      if (!req.url?.startsWith('/v1/crm/people/big-download')) return false;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-part': 'download' });
      res.write(first);
      void released.then(() => res.end(rest));
      return true;
    });
    const res = await new Promise<{
      status: number;
      headers: http.IncomingHttpHeaders;
      body: Buffer;
    }>((resolve, reject) => {
      const req = http.request(`${gw.url}/v1/crm/people/big-download`, {
        headers: withKey('tenant-a', KEY_A),
      });
      req.on('response', (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => {
          chunks.push(c);
          release(); // the first bytes arrived before the service sent the rest
        });
        r.on('end', () =>
          resolve({ status: r.statusCode ?? 0, headers: r.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-part']).toBe('download');
    expect(res.body.length).toBe(first.length + rest.length);
    expect(sha256(res.body)).toBe(sha256(Buffer.concat([first, rest])));
  });
});

describe('slow services', () => {
  it('waits for a service that takes longer than the idle-socket timeout to answer', async () => {
    people.rawHandlers.push((req, res) => {
      if (req.url !== '/v1/crm/people/slow-report') return false;
      req.resume();
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"slow":true}');
      }, 4500);
      return true;
    });
    const res = await fetch(`${gw.url}/v1/crm/people/slow-report`, {
      headers: withKey('tenant-a', KEY_A),
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ slow: true });
  }, 15000);

  it('504 naming the service when it does not begin answering in time; the service is let go', async () => {
    let stopped!: () => void;
    const upstreamClosed = new Promise<void>((r) => (stopped = r));
    people.rawHandlers.push((req, res) => {
      if (req.url !== '/v1/crm/people/stuck') return false;
      req.resume();
      res.once('close', () => stopped());
      return true;
    });
    const started = Date.now();
    const res = await fetch(`${gw.url}/v1/crm/people/stuck`, {
      headers: withKey('tenant-a', KEY_A, { 'Accept-Language': 'de' }),
    });
    expect(res.status).toBe(504);
    expect(await json(res)).toMatchObject({
      data: null,
      statusCode: 504,
      message:
        'Der Dienst crm-people hat nicht innerhalb von 7 s geantwortet; bitte später erneut versuchen',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(6900);
    await upstreamClosed;
    // the next call goes through
    expect(
      (await fetch(`${gw.url}/v1/crm/people/p-1`, { headers: withKey('tenant-a', KEY_A) })).status,
    ).toBe(200);
  }, 30000);

  it('stops the call to the service when the client goes away before the answer', async () => {
    let started!: () => void;
    const reached = new Promise<void>((r) => (started = r));
    let stopped!: () => void;
    const upstreamClosed = new Promise<void>((r) => (stopped = r));
    people.rawHandlers.push((req, res) => {
      if (req.url !== '/v1/crm/people/never-answered') return false;
      req.resume();
      // The service never answers: only the gateway closing the connection ends this call.
      res.once('close', () => stopped());
      started();
      return true;
    });
    const client = http.request(`${gw.url}/v1/crm/people/never-answered`, {
      headers: withKey('tenant-a', KEY_A),
    });
    client.on('error', () => undefined);
    client.end();
    await reached;
    client.destroy();
    const outcome = await Promise.race([
      upstreamClosed.then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('still open'), 3000)),
    ]);
    expect(outcome).toBe('closed');
  });
});

describe('headers', () => {
  it('passes the client headers on, replaces X-Caller-Id / X-Internal-Token, keeps the request id', async () => {
    const res = await fetch(`${gw.url}/v1/crm/people/p-1?fields=a,b&x=%20y`, {
      headers: withKey('tenant-a', KEY_A, {
        'X-Integration-Contact': 'ops@example.com',
        'Accept-Language': 'de',
        'X-Custom-Thing': 'kept',
        'X-Caller-Id': randomUUID(),
        'X-Internal-Token': 'forged',
        'X-Request-Id': 'trace-42',
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('trace-42');
    const seen = apiCalls(people).at(-1)!;
    expect(seen.method).toBe('GET');
    expect(seen.url).toBe('/v1/crm/people/p-1?fields=a,b&x=%20y');
    expect(seen.headers).toMatchObject({
      'x-integration-name': 'test-suite',
      'x-integration-provider': 'crm-tests',
      'x-service-tenantid': 'tenant-a',
      'x-integration-contact': 'ops@example.com',
      'accept-language': 'de',
      'x-custom-thing': 'kept',
      'x-caller-id': KEY_A_ID,
      'x-internal-token': INTERNAL_TOKEN,
      'x-request-id': 'trace-42',
    });
    // the API key stops at the gateway
    expect(seen.headers.authorization).toBeUndefined();
  });

  it('generates a request id when the client sent none and returns it', async () => {
    const res = await fetch(`${gw.url}/v1/crm/touchpoints`, {
      headers: withKey('tenant-a', KEY_A),
    });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(apiCalls(people).at(-1)!.headers['x-request-id']).toBe(id);
  });

  it("returns the service's status, headers and body unchanged", async () => {
    people.handlers.push((req, res) => {
      if (req.url !== '/v1/crm/people/teapot') return false;
      res.writeHead(418, {
        'content-type': 'text/plain; charset=utf-8',
        'x-upstream': 'yes',
        'set-cookie': ['a=1', 'b=2'],
      });
      res.end('short and stout');
      return true;
    });
    const res = await fetch(`${gw.url}/v1/crm/people/teapot`, {
      headers: withKey('tenant-a', KEY_A),
    });
    expect(res.status).toBe(418);
    expect(res.headers.get('x-upstream')).toBe('yes');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await res.text()).toBe('short and stout');
  });

  it('routes by first segment: events paths go to the events service', async () => {
    const before = apiCalls(people).length;
    const res = await fetch(`${gw.url}/v1/crm/event-settings/tax-rates`, {
      headers: withKey('tenant-a', KEY_A),
    });
    expect(res.status).toBe(200);
    expect(apiCalls(events).at(-1)!.url).toBe('/v1/crm/event-settings/tax-rates');
    expect(apiCalls(people).length).toBe(before);
  });
});

describe('errors made by the gateway (envelope)', () => {
  it('404 for a first segment no service owns', async () => {
    const res = await fetch(`${gw.url}/v1/crm/no-such-area/things`, {
      headers: withKey('tenant-a', KEY_A),
    });
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({
      data: null,
      statusCode: 404,
      message: 'No operation at GET /v1/crm/no-such-area/things',
    });
  });

  it('404 for a path with dot segments', async () => {
    const res = await rawRequest('/v1/crm/websites/public/../secret', {
      headers: tenantHeaders('tenant-a'),
    });
    expect(res.status).toBe(404);
    expect(apiCalls(events).some((r) => r.url.includes('..'))).toBe(false);
  });

  it('503 naming the service when it is down, translated', async () => {
    const res = await fetch(`${gw.url}/v1/crm/companies`, { headers: withKey('tenant-a', KEY_A) });
    expect(res.status).toBe(503);
    expect(await json(res)).toMatchObject({
      data: null,
      statusCode: 503,
      message: 'The service crm-companies cannot be reached; try again later',
    });
    const de = await fetch(`${gw.url}/v1/crm/company-settings/tags`, {
      method: 'POST',
      headers: withKey('tenant-a', KEY_A, { 'Accept-Language': 'de' }),
      body: JSON.stringify({ name: 'x' }),
    });
    expect(de.status).toBe(503);
    expect((await json(de)).message).toBe(
      'Der Dienst crm-companies ist nicht erreichbar; bitte später erneut versuchen',
    );
  });

  it.each(['X-Integration-Name', 'X-Integration-Provider', 'X-Service-TenantId'])(
    '400 naming %s when it is missing or empty',
    async (header) => {
      for (const value of [undefined, '']) {
        const headers: Record<string, string> = withKey('tenant-a', KEY_A);
        if (value === undefined) delete headers[header];
        else headers[header] = value;
        const res = await fetch(`${gw.url}/v1/crm/people`, { headers });
        expect(res.status).toBe(400);
        expect(await json(res)).toMatchObject({
          data: null,
          statusCode: 400,
          message: `The header ${header} is required and must not be empty`,
        });
      }
    },
  );
});

describe('API keys and tariff modules', () => {
  it('401 without a key, with another scheme, with an unknown key', async () => {
    for (const authorization of [undefined, `Basic ${KEY_A}`, `Bearer ${keyOf('unknown')}`]) {
      const headers: Record<string, string> = tenantHeaders('tenant-a');
      if (authorization) headers.Authorization = authorization;
      const res = await fetch(`${gw.url}/v1/crm/people`, { headers });
      expect(res.status).toBe(401);
      const body = await json(res);
      expect(body).toMatchObject({ data: null, statusCode: 401 });
      expect(body.message).toBe(
        authorization?.startsWith('Bearer')
          ? 'The API key is unknown or revoked'
          : 'An API key is required: send Authorization: Bearer <key>',
      );
    }
  });

  it("403 for another tenant's key", async () => {
    const res = await fetch(`${gw.url}/v1/crm/people`, { headers: withKey('tenant-a', KEY_B) });
    expect(res.status).toBe(403);
    expect(await json(res)).toMatchObject({
      statusCode: 403,
      message: 'The API key does not belong to tenant tenant-a',
    });
  });

  it('403 naming the module when the tariff lacks it; modules in the tariff pass', async () => {
    const before = apiCalls(events).length;
    const res = await fetch(`${gw.url}/v1/crm/events`, {
      headers: withKey('tenant-c', KEY_CRM_ONLY, { 'Accept-Language': 'de' }),
    });
    expect(res.status).toBe(403);
    expect(await json(res)).toMatchObject({
      statusCode: 403,
      message: 'Das Modul events ist nicht Teil des Tarifs des Mandanten',
    });
    expect(apiCalls(events).length).toBe(before);
    const ok = await fetch(`${gw.url}/v1/crm/people-settings/lifecycles`, {
      headers: withKey('tenant-c', KEY_CRM_ONLY),
    });
    expect(ok.status).toBe(200);
  });

  it('public operations need the headers but no key, and never carry a caller id', async () => {
    const res = await fetch(`${gw.url}/v1/crm/websites/public/config?url=https%3A%2F%2Fx.example`, {
      headers: { ...tenantHeaders('tenant-a'), 'X-Caller-Id': randomUUID() },
    });
    expect(res.status).toBe(200);
    const seen = apiCalls(events).at(-1)!;
    expect(seen.url).toBe('/v1/crm/websites/public/config?url=https%3A%2F%2Fx.example');
    expect(seen.headers['x-caller-id']).toBeUndefined();
    expect(seen.headers['x-internal-token']).toBe(INTERNAL_TOKEN);
    const noHeader = await fetch(`${gw.url}/v1/crm/bookings/public`, { method: 'POST' });
    expect(noHeader.status).toBe(400);
    // Only <segment>/public/**: a neighbouring path still needs a key.
    const notPublic = await fetch(`${gw.url}/v1/crm/websites/publicity`, {
      headers: tenantHeaders('tenant-a'),
    });
    expect(notPublic.status).toBe(401);
  });

  it('asks tenant-info once per key while the answer is cached (valid and invalid)', async () => {
    const key = keyOf('cached');
    keys.set(hashApiKey(key), {
      valid: true,
      keyId: randomUUID(),
      tenantId: 't-cache',
      modules: ['crm'],
    });
    const unknown = keyOf('nope');
    const before = stub.count(Subjects.tenantInfo.verifyApiKey);
    for (let i = 0; i < 3; i++) {
      expect(
        (await fetch(`${gw.url}/v1/crm/people`, { headers: withKey('t-cache', key) })).status,
      ).toBe(200);
      expect(
        (await fetch(`${gw.url}/v1/crm/people`, { headers: withKey('t-cache', unknown) })).status,
      ).toBe(401);
    }
    expect(stub.count(Subjects.tenantInfo.verifyApiKey) - before).toBe(2);
  });

  it('an accessChanged event drops the cached answers of that tenant at once', async () => {
    const key = keyOf('revoked');
    const keyId = randomUUID();
    keys.set(hashApiKey(key), { valid: true, keyId, tenantId: 't-rev', modules: ALL_MODULES });
    const call = () => fetch(`${gw.url}/v1/crm/people`, { headers: withKey('t-rev', key) });
    expect((await call()).status).toBe(200);
    keys.set(hashApiKey(key), { valid: false });
    // Cached for ten minutes in this file: still accepted until the event arrives.
    expect((await call()).status).toBe(200);
    await stub.emit(Subjects.tenantInfo.accessChanged, { tenantId: 't-rev', keyId });
    await eventually(async () => expect((await call()).status).toBe(401), 3000);
  });

  it('503 naming tenant-info when it does not answer, and recovers', async () => {
    const key = keyOf('later');
    keys.set(hashApiKey(key), {
      valid: true,
      keyId: randomUUID(),
      tenantId: 't-later',
      modules: ['crm'],
    });
    await stub.silence(Subjects.tenantInfo.verifyApiKey);
    try {
      const res = await fetch(`${gw.url}/v1/crm/people`, { headers: withKey('t-later', key) });
      expect(res.status).toBe(503);
      const body = await json(res);
      expect(body).toMatchObject({ data: null, statusCode: 503 });
      expect(body.message).toContain('tenant-info');
    } finally {
      await stub.answer(Subjects.tenantInfo.verifyApiKey, (data) => ({
        response: keys.get((data as { keyHash: string }).keyHash) ?? { valid: false },
      }));
    }
    const res = await fetch(`${gw.url}/v1/crm/people`, { headers: withKey('t-later', key) });
    expect(res.status).toBe(200);
  });
});

describe('public operations are rate-limited per client address', () => {
  let limited: RunningGateway;
  beforeAll(async () => {
    limited = await bootGateway({
      CRM_PEOPLE_URL: people.url,
      EVENTS_URL: events.url,
      CRM_COMPANIES_URL: await closedPortUrl(),
      TENANT_INFO_URL: await closedPortUrl(),
      GRAPHQL_SUBGRAPHS: 'crm-people',
      SUPERGRAPH_RETRY_MS: '600000',
      PUBLIC_RATE_LIMIT_BURST: '3',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '6',
      // one proxy in front: the client is the last X-Forwarded-For address
      TRUST_PROXY_HOPS: '1',
    });
  });
  afterAll(async () => limited?.app.close());

  const publicCall = (client: string, lang = 'en') =>
    fetch(`${limited.url}/v1/crm/websites/public/config?url=x.example`, {
      headers: { ...tenantHeaders('tenant-a'), 'X-Forwarded-For': client, 'Accept-Language': lang },
    });

  it('429 with Retry-After in the translated envelope beyond the burst; other clients and keyed calls pass', async () => {
    const before = apiCalls(events).length;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await publicCall('203.0.113.7')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await publicCall('203.0.113.7', 'de');
    expect(refused.status).toBe(429);
    // 3 in any 30 s (3 at 6 a minute): the 3 fade out of the sliding window in the next one
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(10);
    expect(retryAfter).toBeLessThanOrEqual(40);
    expect(refused.headers.get('ratelimit-policy')).toBe(
      '"public";q=6;w=60, "public-burst";q=3;w=30',
    );
    expect(refused.headers.get('ratelimit')).toMatch(
      new RegExp(`^"public";r=3;t=\\d+, "public-burst";r=0;t=${retryAfter}$`),
    );
    expect(await refused.json()).toMatchObject({
      data: null,
      statusCode: 429,
      message: `Zu viele Anfragen: das Limit public-burst erlaubt 3 in 30 s; bitte in ${retryAfter} s erneut versuchen`,
    });
    // the refused calls never reached the service
    expect(apiCalls(events).length - before).toBe(3);
    expect((await publicCall('203.0.113.8')).status).toBe(200);
    const keyed = await fetch(`${limited.url}/v1/crm/events`, {
      headers: withKey('tenant-a', KEY_A),
    });
    expect(keyed.status).toBe(200);
  });
});

describe("every method's answer, written back by the one REST proxy (rest-proxy.ts)", () => {
  beforeAll(() => {
    people.handlers.push((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path === '/v1/crm/people/answer-ok') {
        res.writeHead(req.method === 'POST' ? 201 : 200, {
          'content-type': 'application/json',
          'x-upstream': 'yes',
          'set-cookie': ['a=1', 'b=2'],
        });
        res.end('{"data":{"id":"answer"}}');
      } else if (path === '/v1/crm/people/answer-empty') {
        res.writeHead(204);
        res.end();
      } else if (path === '/v1/crm/people/answer-untyped') {
        // a length, so the gateway reads it whole (a body without one is streamed as it comes)
        res.writeHead(200, { 'content-length': '3' });
        res.end(req.method === 'HEAD' ? undefined : 'abc');
      } else if (path === '/v1/crm/people/answer-streamed') {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.write('a,b\n');
        setTimeout(() => res.end('1,2\n'), 20);
      } else {
        return false;
      }
      return true;
    });
  });

  it.each(['GET', 'POST', 'PUT', 'DELETE'])(
    "%s: the service's status, headers (both cookies) and body, with the request id",
    async (method) => {
      const res = await rawRequest('/v1/crm/people/answer-ok', {
        method,
        headers: withKey('tenant-a', KEY_A, { 'X-Request-Id': `answer-${method}` }),
      });
      expect(res.status).toBe(method === 'POST' ? 201 : 200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['x-upstream']).toBe('yes');
      expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
      expect(res.headers['x-request-id']).toBe(`answer-${method}`);
      expect(res.body.toString()).toBe('{"data":{"id":"answer"}}');
      const sent = apiCalls(people).at(-1)!;
      expect(sent.method).toBe(method);
      expect(sent.headers['x-request-id']).toBe(`answer-${method}`);
    },
  );

  it('a 204 carries no content type or length; an untyped body is application/octet-stream', async () => {
    const empty = await rawRequest('/v1/crm/people/answer-empty', {
      headers: withKey('tenant-a', KEY_A),
    });
    expect(empty.status).toBe(204);
    expect(empty.headers['content-type']).toBeUndefined();
    expect(empty.headers['content-length']).toBeUndefined();
    const untyped = await rawRequest('/v1/crm/people/answer-untyped', {
      headers: withKey('tenant-a', KEY_A),
    });
    expect(untyped.headers['content-type']).toBe('application/octet-stream');
    expect(untyped.body.toString()).toBe('abc');
  });

  it("HEAD: the service's length, no body", async () => {
    const res = await rawRequest('/v1/crm/people/answer-untyped', {
      method: 'HEAD',
      headers: withKey('tenant-a', KEY_A),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('3');
    expect(res.body.length).toBe(0);
  });

  it('a streamed answer arrives whole', async () => {
    const res = await rawRequest('/v1/crm/people/answer-streamed', {
      headers: withKey('tenant-a', KEY_A),
    });
    expect(res.headers['content-type']).toBe('text/csv');
    expect(res.body.toString()).toBe('a,b\n1,2\n');
  });

  it.each([
    ['GET', 'no tenant headers', { Authorization: `Bearer ${KEY_A}` }, 400],
    ['POST', 'no tenant headers', { Authorization: `Bearer ${KEY_A}` }, 400],
    ['GET', 'no key', { ...tenantHeaders('tenant-a') }, 401],
    ['PATCH', 'an unknown key', withKey('tenant-a', keyOf('unknown')), 401],
    ['DELETE', "another tenant's key", withKey('tenant-a', KEY_B), 403],
  ])(
    '%s with %s: the envelope, translated, with a request id',
    async (method, _name, headers, status) => {
      const [en, de] = await Promise.all(
        ['en', 'de'].map((lang) =>
          rawRequest('/v1/crm/people/answer-ok', {
            method,
            headers: { ...headers, 'Accept-Language': lang },
          }),
        ),
      );
      for (const res of [en, de]) {
        expect(res.status).toBe(status);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(typeof res.headers['x-request-id']).toBe('string');
        expect(JSON.parse(res.body.toString())).toMatchObject({ data: null, statusCode: status });
      }
      expect(JSON.parse(de.body.toString()).message).not.toBe(
        JSON.parse(en.body.toString()).message,
      );
    },
  );

  it('a percent-escape the service cannot decode is passed on, and its 400 returned', async () => {
    people.handlers.push((req, res) => {
      if (!req.url?.startsWith('/v1/crm/people/%E0%A4%A')) return false;
      res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"data":null,"statusCode":400}');
      return true;
    });
    const res = await rawRequest('/v1/crm/people/%E0%A4%A', {
      headers: withKey('tenant-a', KEY_A),
    });
    expect(res.status).toBe(400);
    expect(apiCalls(people).at(-1)!.url).toBe('/v1/crm/people/%E0%A4%A');
  });

  it("the gateway's own document under /v1/crm stays its own", async () => {
    // no tenant headers: the proxy would answer 400
    const res = await fetch(`${gw.url}/v1/crm/openapi.json`);
    expect(res.status).toBe(200);
    expect(await json(res)).toHaveProperty('paths');
  });

  it('public reads take it too: no key, no caller id', async () => {
    const res = await rawRequest('/v1/crm/websites/public/config?url=x.example', {
      headers: tenantHeaders('tenant-a'),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString()).data).toMatchObject({ method: 'GET' });
    expect(apiCalls(events).at(-1)!.headers['x-caller-id']).toBeUndefined();
  });
});

describe('REQUEST_OBSERVATION', () => {
  /** The proxied calls counted on a gateway's /metrics (the REST proxy's route templates). */
  async function proxiedCounts(url: string): Promise<number> {
    const samples = await metricSamples(url, 'http_request_duration_seconds_count', {
      'X-Internal-Token': INTERNAL_TOKEN,
    });
    return samples
      .filter((s) => s.labels.includes('route="/v1/crm/people/*"'))
      .reduce((n, s) => n + s.value, 0);
  }

  it('on (the default): each proxied call is counted; off (only for the bench): proxied alike, counted nowhere', async () => {
    const before = await proxiedCounts(gw.url);
    const call = (url: string) =>
      fetch(`${url}/v1/crm/people/p-observed`, {
        headers: withKey('tenant-a', KEY_A, { 'X-Request-Id': 'observed-1' }),
      });
    expect((await call(gw.url)).status).toBe(200);
    await eventually(async () => expect(await proxiedCounts(gw.url)).toBe(before + 1));

    const bare = await bootGateway({ ...gatewayEnv, REQUEST_OBSERVATION: 'off' });
    try {
      const res = await call(bare.url);
      expect(res.status).toBe(200);
      // the id is still the caller's and still passed on: only the observing stops
      expect(res.headers.get('x-request-id')).toBe('observed-1');
      expect(apiCalls(people).at(-1)!.headers['x-request-id']).toBe('observed-1');
      expect(await proxiedCounts(bare.url)).toBe(0);
    } finally {
      await bare.app.close();
    }
  });
});
