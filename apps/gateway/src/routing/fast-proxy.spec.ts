import type { IncomingMessage, ServerResponse } from 'node:http';
import type { I18nService } from 'nestjs-i18n';
import { createAppLogging } from '@crm/logging';
import { clientAddress, fastProxyHandler, fastRoute } from './fast-proxy';
import type { RestProxy } from './proxy.route';

const logging = createAppLogging({
  app: 'gateway',
  nodeEnv: 'test',
  destination: { write: () => undefined },
});

const fastEligible = (req: IncomingMessage) => fastRoute(req) !== null;

const request = (method: string, url: string, headers: Record<string, string> = {}) =>
  ({ method, url, headers }) as unknown as IncomingMessage;

describe('fastRoute: which calls skip Fastify', () => {
  it('takes keyed GETs without a body under /v1/crm/', () => {
    expect(fastEligible(request('GET', '/v1/crm/people/7'))).toBe(true);
    expect(fastEligible(request('GET', '/v1/crm/companies?pageSize=50&sort=name'))).toBe(true);
    expect(fastEligible(request('GET', '/v1/crm/people', { 'content-length': '0' }))).toBe(true);
    // public reads too (the rate limit counts by clientAddress)
    expect(fastEligible(request('GET', '/v1/crm/websites/public/abc/events'))).toBe(true);
  });

  it.each([
    ['POST', '/v1/crm/people', {}],
    ['HEAD', '/v1/crm/people/7', {}],
    ['DELETE', '/v1/crm/people/7', {}],
    // Fastify decodes and checks these (NUL as %00, malformed escapes)
    ['GET', '/v1/crm/people?q=%00', {}],
    ['GET', '/v1/crm/people/%E0%A4%A', {}],
    // another spelling of the prefix, no owner, dot segments: Fastify's route answers 404
    ['GET', '/V1/crm/people', {}],
    ['GET', '/v1/crm/no-such-area', {}],
    ['GET', '/v1/crm/people/../companies', {}],
    ['GET', `/v1/crm/people/${'x'.repeat(1000)}`, {}],
    ['GET', '/v1/crm/people', { 'content-length': '12' }],
    ['GET', '/v1/crm/people', { 'transfer-encoding': 'chunked' }],
  ])('leaves %s %s %j to Fastify', (method, url, headers) => {
    expect(fastEligible(request(method, url, headers as Record<string, string>))).toBe(false);
  });
});

describe('fastProxyHandler', () => {
  it('answers 500 in the envelope when the answer cannot be written (no unhandled rejection)', async () => {
    const proxy = {
      call: jest.fn().mockResolvedValue({
        statusCode: 200,
        headers: { 'x-bad': 'a\u0001b' },
        body: Buffer.from('{}'),
      }),
    } as unknown as RestProxy;
    const i18n = { t: (key: string) => key } as unknown as I18nService;
    const headers = new Map<string, unknown>();
    let ended: Buffer | undefined;
    const res = {
      headersSent: false,
      statusCode: 200,
      setHeader: (name: string, value: unknown) => {
        // as node:http does for a control character in a value
        if (typeof value === 'string' && value.includes('\u0001')) throw new TypeError('bad');
        headers.set(name.toLowerCase(), value);
      },
      end: (bytes: Buffer) => (ended = bytes),
      once: () => undefined,
    } as unknown as ServerResponse;
    const handler = fastProxyHandler(
      proxy,
      i18n,
      () => false,
      0,
      logging,
      () => undefined,
    );
    expect(handler(request('GET', '/v1/crm/people/7'), res)).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(res.statusCode).toBe(500);
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(ended!.toString())).toMatchObject({ data: null, statusCode: 500 });
  });

  it('leaves every call to Fastify once the app is closing (Fastify answers 503)', () => {
    const proxy = { call: jest.fn() } as unknown as RestProxy;
    let closing = false;
    const handler = fastProxyHandler(
      proxy,
      {} as never,
      () => closing,
      0,
      logging,
      () => undefined,
    );
    const res = { setHeader: jest.fn() } as never;
    closing = true;
    expect(handler(request('GET', '/v1/crm/people/7'), res)).toBe(false);
    expect(proxy.call).not.toHaveBeenCalled();
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
