import type { IncomingMessage, ServerResponse } from 'node:http';
import type { I18nService } from 'nestjs-i18n';
import { createAppLogging } from '@crm/logging';
import type { GatewayAuthService } from '../auth/gateway-auth.service';
import type { GatewayConfig } from '../config';
import { clientAddress, isProxied, RestProxy, type RestProxyDeps } from './rest-proxy';
import type { IdempotentCalls } from './idempotent-calls';
import { RateLimits } from './rate-limit/rate-limits.service';
import type { ServiceForwarder } from './service-forwarder';

const logging = createAppLogging({
  app: 'gateway',
  nodeEnv: 'test',
  destination: { write: () => undefined },
});

const request = (method: string, url: string, headers: Record<string, string> = {}) =>
  ({
    method,
    url,
    headers,
    socket: { remoteAddress: '10.0.0.5' },
    resume: () => undefined,
  }) as unknown as IncomingMessage;

describe('isProxied: which calls the REST proxy takes', () => {
  it.each([
    ['GET', '/v1/crm/people/7'],
    ['GET', '/v1/crm/companies?pageSize=50&sort=name'],
    ['GET', '/v1/crm/websites/public/abc/events'],
    ['HEAD', '/v1/crm/people/7'],
    ['POST', '/v1/crm/people'],
    ['PUT', '/v1/crm/people/7'],
    ['PATCH', '/v1/crm/people/7'],
    ['DELETE', '/v1/crm/people/7'],
    ['OPTIONS', '/v1/crm/people'],
    // passed on as sent: the service's router refuses what it cannot decode
    ['GET', '/v1/crm/people?q=%00'],
    ['GET', '/v1/crm/people/%E0%A4%A'],
    ['GET', `/v1/crm/people/${'x'.repeat(3000)}`],
    // no owner or dot segments: the proxy's 404, after the header check
    ['GET', '/v1/crm/no-such-area'],
    ['GET', '/v1/crm/people/../companies'],
  ])('takes %s %s', (method, url) => {
    expect(isProxied(request(method, url))).toBe(true);
  });

  it.each([
    // the gateway's own document, and its other routes
    ['GET', '/v1/crm/openapi.json'],
    ['GET', '/v1/crm/openapi.json?x=1'],
    ['POST', '/graphql'],
    ['GET', '/health/ready'],
    ['POST', '/v1/admin/tenants'],
    // another spelling of the prefix: Fastify's 404
    ['GET', '/V1/crm/people'],
    ['GET', '/v1/crm'],
    ['TRACE', '/v1/crm/people'],
  ])('leaves %s %s to Fastify', (method, url) => {
    expect(isProxied(request(method, url))).toBe(false);
  });
});

describe('RestProxy.take', () => {
  const config = {
    CRM_PEOPLE_URL: 'http://127.0.0.1:1',
    CRM_COMPANIES_URL: 'http://127.0.0.1:2',
    EVENTS_URL: 'http://127.0.0.1:3',
    BOOKINGS_INVITATIONS_URL: 'http://127.0.0.1:4',
    TENANT_INFO_URL: 'http://127.0.0.1:5',
    PUBLIC_RATE_LIMIT_PER_MINUTE: 60,
    PUBLIC_RATE_LIMIT_BURST: 10,
    KEY_RATE_LIMIT_PER_MINUTE: 2,
    RATE_LIMIT_SYNC_MS: 200,
    RATE_LIMIT_GROUP: 'unit',
    TRUST_PROXY_HOPS: 0,
  } as GatewayConfig;
  const tenant = {
    'x-integration-name': 'unit',
    'x-integration-provider': 'unit',
    'x-service-tenantid': 't-1',
  };
  const proxyWith = (deps: Partial<RestProxyDeps>) =>
    new RestProxy({
      auth: {
        authenticate: jest.fn().mockResolvedValue({ keyId: 'k' }),
      } as unknown as GatewayAuthService,
      forwarder: { forward: jest.fn() } as unknown as ServiceForwarder,
      idempotency: { run: jest.fn() } as unknown as IdempotentCalls,
      rateLimits: new RateLimits(config),
      i18n: { t: (key: string) => key } as unknown as I18nService,
      config,
      logging,
      observe: () => undefined,
      closing: () => false,
      ...deps,
    });

  /** A response recording what is written, refusing a control character as node:http does. */
  function response() {
    const headers = new Map<string, unknown>();
    const res = {
      headersSent: false,
      statusCode: 200,
      ended: undefined as Buffer | undefined,
      headers,
      setHeader: (name: string, value: unknown) => {
        if (typeof value === 'string' && value.includes('\u0001')) throw new TypeError('bad');
        headers.set(name.toLowerCase(), value);
      },
      hasHeader: (name: string) => headers.has(name.toLowerCase()),
      removeHeader: (name: string) => headers.delete(name.toLowerCase()),
      end: (bytes?: Buffer) => (res.ended = bytes),
      once: () => undefined,
    };
    return res;
  }

  it('answers 500 in the envelope when the answer cannot be written (no unhandled rejection)', async () => {
    const forwarder = {
      forward: jest.fn().mockResolvedValue({
        statusCode: 200,
        headers: { 'x-bad': 'a\u0001b' },
        body: Buffer.from('{}'),
      }),
    } as unknown as ServiceForwarder;
    const res = response();
    const take = proxyWith({ forwarder }).take;
    expect(take(request('GET', '/v1/crm/people/7', tenant), res as unknown as ServerResponse)).toBe(
      true,
    );
    await new Promise((r) => setImmediate(r));
    expect(forwarder.forward).toHaveBeenCalled();
    expect(res.statusCode).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.ended!.toString())).toMatchObject({ data: null, statusCode: 500 });
  });

  it('a HEAD answer keeps the length the service gave, without a body', async () => {
    const forwarder = {
      forward: jest.fn().mockResolvedValue({
        statusCode: 200,
        headers: { 'content-type': 'application/json', 'content-length': '42' },
        body: Buffer.alloc(0),
      }),
    } as unknown as ServiceForwarder;
    const res = response();
    proxyWith({ forwarder }).take(
      request('HEAD', '/v1/crm/people/7', tenant),
      res as unknown as ServerResponse,
    );
    await new Promise((r) => setImmediate(r));
    expect(res.statusCode).toBe(200);
    expect(res.headers.get('content-length')).toBe('42');
    expect(res.ended).toBeUndefined();
  });

  it('counts keyed calls per key: RateLimit headers on each, beyond the quota 429 with Retry-After', async () => {
    const forwarder = {
      forward: jest
        .fn()
        .mockResolvedValue({ statusCode: 200, headers: {}, body: Buffer.from('{}') }),
    } as unknown as ServiceForwarder;
    const take = proxyWith({ forwarder }).take;
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = response();
      take(request('GET', '/v1/crm/people/7', tenant), res as unknown as ServerResponse);
      await new Promise((r) => setImmediate(r));
      answers.push(res);
    }
    expect(forwarder.forward).toHaveBeenCalledTimes(2);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 429]);
    for (const a of answers) expect(a.headers.get('ratelimit-policy')).toBe('"key";q=2;w=60');
    expect(answers[0].headers.get('ratelimit')).toMatch(/^"key";r=1;t=\d+$/);
    expect(answers[1].headers.get('ratelimit')).toMatch(/^"key";r=0;t=\d+$/);
    const retryAfter = Number(answers[2].headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(answers[2].headers.get('ratelimit')).toBe(`"key";r=0;t=${retryAfter}`);
    expect(JSON.parse(answers[2].ended!.toString())).toMatchObject({
      statusCode: 429,
      message: 'gateway.rateLimit.exceeded',
      errors: [{ field: 'RateLimit', rule: 'rateLimit' }],
    });
  });

  it('leaves every call to Fastify once the app is closing (Fastify answers 503)', () => {
    const forwarder = { forward: jest.fn() } as unknown as ServiceForwarder;
    let closing = false;
    const take = proxyWith({ forwarder, closing: () => closing }).take;
    closing = true;
    expect(take(request('GET', '/v1/crm/people/7', tenant), response() as never)).toBe(false);
    expect(forwarder.forward).not.toHaveBeenCalled();
  });
});

describe('clientAddress: as Fastify req.ip with trustProxy = hops', () => {
  const from = (peer: string, forwarded?: string) =>
    ({
      socket: { remoteAddress: peer },
      headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
    }) as unknown as IncomingMessage;

  it('is the peer without trusted proxies, whatever X-Forwarded-For says', () => {
    expect(clientAddress(from('10.0.0.5', '203.0.113.7'), 0)).toBe('10.0.0.5');
  });

  it('walks back one address per trusted hop, never further than the header goes', () => {
    expect(clientAddress(from('10.0.0.5', '198.51.100.1, 203.0.113.7'), 1)).toBe('203.0.113.7');
    expect(clientAddress(from('10.0.0.5', '198.51.100.1, 203.0.113.7'), 2)).toBe('198.51.100.1');
    expect(clientAddress(from('10.0.0.5', '203.0.113.7'), 5)).toBe('203.0.113.7');
    expect(clientAddress(from('10.0.0.5'), 1)).toBe('10.0.0.5');
  });
});
