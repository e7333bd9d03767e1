import { createAppLogger, isoTimeField, pinoLevel } from './app-logger';
import { REDACTED, redactText } from './redaction';
import { acceptableRequestId, runInRequest } from './request-context';
import { logRequest, requestFields } from './request-logging';

/** A logger writing into an array of parsed lines. */
function capture(level: 'log' | 'debug' = 'debug') {
  const lines: Record<string, unknown>[] = [];
  const log = createAppLogger({
    app: 'crm-people',
    nodeEnv: 'production',
    level,
    destination: { write: (s: string) => void lines.push(JSON.parse(s)) },
  });
  return { log, lines };
}

describe('createAppLogger', () => {
  it('writes JSON lines with the level as a word, an ISO time, the app and the host', () => {
    const { log, lines } = capture();
    log.info({ bookingId: 'b1' }, 'booked');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      app: 'crm-people',
      bookingId: 'b1',
      msg: 'booked',
    });
    expect(new Date(lines[0].time as string).toISOString()).toBe(lines[0].time);
    expect(typeof lines[0].host).toBe('string');
  });

  it('redacts secrets by key, at the top and nested', () => {
    const { log, lines } = capture();
    log.info(
      {
        apiKey: 'k-123',
        headers: { authorization: 'Bearer abc', 'x-internal-token': 'tok', accept: 'json' },
        endpoint: { url: 'https://hooks.example', secret: 'whsec_1' },
        user: { profile: { password: 'hunter2' } },
      },
      'call',
    );
    const line = JSON.stringify(lines[0]);
    for (const secret of ['k-123', 'Bearer abc', '"tok"', 'whsec_1', 'hunter2']) {
      expect(line).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({
      apiKey: REDACTED,
      headers: { authorization: REDACTED, 'x-internal-token': REDACTED, accept: 'json' },
      endpoint: { url: 'https://hooks.example', secret: REDACTED },
      user: { profile: { password: REDACTED } },
    });
  });

  it("matches keys in any case and leaves the caller's objects as they were", () => {
    const { log, lines } = capture();
    const headers = { Authorization: 'Bearer xyz', 'X-Api-Key': 'k-9', accept: 'json' };
    const fields = { headers, DATABASE_URL: 'postgres://u:p@h/db', count: 3 };
    log.info(fields, 'call');
    expect(lines[0]).toMatchObject({
      headers: { Authorization: REDACTED, 'X-Api-Key': REDACTED, accept: 'json' },
      DATABASE_URL: REDACTED,
      count: 3,
    });
    expect(headers.Authorization).toBe('Bearer xyz');
    expect(fields.DATABASE_URL).toBe('postgres://u:p@h/db');
  });

  it('redacts passwords in URLs and bearer tokens in messages and errors', () => {
    const { log, lines } = capture();
    log.warn('cannot reach postgres://crm:s3cret@db:5432/people');
    log.error(
      { err: new Error('connect to nats://app:pw1@nats:4222 failed, Authorization: Bearer t0k') },
      'down',
    );
    const text = JSON.stringify(lines);
    expect(text).not.toMatch(/s3cret|pw1|t0k/);
    expect(lines[0].msg).toBe(`cannot reach postgres://crm:${REDACTED}@db:5432/people`);
    expect((lines[1].err as { message: string }).message).toContain(`nats://app:${REDACTED}@nats`);
    expect((lines[1].err as { stack: string }).stack).not.toContain('pw1');
  });

  it('follows LOG_LEVEL with the defaults per NODE_ENV', () => {
    expect(pinoLevel('production')).toBe('info');
    expect(pinoLevel('test')).toBe('warn');
    expect(pinoLevel('development')).toBe('debug');
    expect(pinoLevel('production', 'verbose')).toBe('trace');
    expect(pinoLevel('development', 'error')).toBe('error');
    const { log, lines } = capture('log');
    log.debug('hidden');
    log.info('shown');
    expect(lines.map((l) => l.msg)).toEqual(['shown']);
  });
});

describe('the request context', () => {
  it("puts the request's fields on every line logged while it is handled, also after an await", async () => {
    const { log, lines } = capture();
    log.info('before');
    await runInRequest({ requestId: 'r-7', tenant: 't-1' }, async () => {
      log.info({ step: 1 }, 'inside');
      await new Promise((r) => setImmediate(r));
      log.info({ requestId: 'own' }, 'a line that names its own id keeps it');
    });
    log.info('after');
    expect(lines.map((l) => [l.msg, l.requestId, l.tenant])).toEqual([
      ['before', undefined, undefined],
      ['inside', 'r-7', 't-1'],
      ['a line that names its own id keeps it', 'own', 't-1'],
      ['after', undefined, undefined],
    ]);
  });

  it('keeps two requests handled at once apart', async () => {
    const { log, lines } = capture();
    const handle = (id: string) =>
      runInRequest({ requestId: id }, async () => {
        await new Promise((r) => setImmediate(r));
        log.info(id);
      });
    await Promise.all([handle('a'), handle('b'), handle('c')]);
    expect(lines.map((l) => [l.msg, l.requestId]).sort()).toEqual([
      ['a', 'a'],
      ['b', 'b'],
      ['c', 'c'],
    ]);
  });
});

describe('isoTimeField', () => {
  it("writes pino's isoTime field exactly, across seconds, in both directions", () => {
    const base = Date.UTC(2026, 10, 29, 23, 59, 59, 0);
    const times = [0, 5, 999, 1000, 1001, 1999, 998, 60_000, 7, 86_400_000 + 42].map(
      (d) => base + d,
    );
    for (const t of [...times, ...times.reverse()])
      expect(isoTimeField(t)).toBe(`,"time":"${new Date(t).toISOString()}"`);
  });
});

describe('redactText', () => {
  it('leaves text without secrets alone', () => {
    expect(redactText('GET /v1/crm/people/7 answered 404')).toBe(
      'GET /v1/crm/people/7 answered 404',
    );
    expect(redactText('see https://example.com/a?b=c')).toBe('see https://example.com/a?b=c');
  });
});

describe('requestFields', () => {
  it('takes the request id, tenant and trace id from the headers', () => {
    expect(
      requestFields(
        {
          'x-request-id': 'r-1',
          'x-service-tenantid': '0b3c9d4e-1111-4222-8333-944445555666',
          traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        },
        'fallback',
      ),
    ).toEqual({
      requestId: 'r-1',
      tenant: '0b3c9d4e-1111-4222-8333-944445555666',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    });
  });

  it('replaces a missing or unusable id and drops what does not look like a tenant or trace', () => {
    expect(
      requestFields(
        { 'x-request-id': 'a b\nforged', 'x-service-tenantid': '{"x":1}', traceparent: 'junk' },
        'fallback',
      ),
    ).toEqual({ requestId: 'fallback' });
    expect(requestFields({}, 'fallback')).toEqual({ requestId: 'fallback' });
  });

  it('keeps every id the gateway accepts from a client, so both sides log the same one', () => {
    for (const id of ['job-17/part@2', 'trace+1=a:b.c', 'x'.repeat(128)]) {
      expect(acceptableRequestId(id)).toBe(true);
      expect(requestFields({ 'x-request-id': id }, 'fallback').requestId).toBe(id);
    }
    expect(acceptableRequestId('x'.repeat(129))).toBe(false);
    expect(acceptableRequestId(['a', 'b'])).toBe(false);
  });
});

describe('logRequest', () => {
  it('writes one line per request: info, error for a 500, warn for a refusal, debug for probes', () => {
    const { log, lines } = capture();
    logRequest(log, {
      method: 'GET',
      route: '/v1/crm/people/:id',
      status: 404,
      durationMs: 3.14159,
    });
    logRequest(
      log,
      { method: 'POST', route: '/v1/crm/people', status: 503, durationMs: 10 },
      { requestId: 'r-2', tenant: 't-2' },
    );
    logRequest(log, { method: 'GET', route: '/health/ready', status: 200, durationMs: 1 });
    logRequest(log, { method: 'PUT', route: '/v1/crm/people/:id', status: 500, durationMs: 2 });
    expect(lines.map((l) => [l.level, l.route, l.status])).toEqual([
      ['info', '/v1/crm/people/:id', 404],
      ['warn', '/v1/crm/people', 503],
      ['debug', '/health/ready', 200],
      ['error', '/v1/crm/people/:id', 500],
    ]);
    expect(lines[0].durationMs).toBe(3.1);
    expect(lines[1]).toMatchObject({ requestId: 'r-2', tenant: 't-2', msg: 'request failed' });
  });

  it("has the request's fields whether it is answered inside its request or after it", () => {
    const { log, lines } = capture();
    const fields = { requestId: 'r-3', tenant: 't-3' };
    const outcome = { method: 'GET', route: '/v1/crm/people/:id', status: 200, durationMs: 2 };
    runInRequest(fields, () => logRequest(log, outcome, fields));
    logRequest(log, outcome, fields);
    runInRequest({ requestId: 'other' }, () => logRequest(log, outcome, fields));
    expect(lines.map((l) => [l.requestId, l.tenant, l.status])).toEqual([
      ['r-3', 't-3', 200],
      ['r-3', 't-3', 200],
      ['r-3', 't-3', 200],
    ]);
  });

  it("writes a request without a tenant without one, not the context's, and leaves the context's lines as they were", () => {
    const { log, lines } = capture();
    const outcome = { method: 'GET', route: '/v1/crm/people/:id', status: 200, durationMs: 2 };
    runInRequest({ requestId: 'ctx', tenant: 't-ctx', traceId: 'a'.repeat(32) }, () => {
      logRequest(log, outcome, { requestId: 'r-4' });
      log.info('plain');
    });
    log.info('outside');
    expect(lines[0]).toMatchObject({ requestId: 'r-4', status: 200 });
    expect('tenant' in lines[0] || 'traceId' in lines[0]).toBe(false);
    expect(lines[1]).toMatchObject({ msg: 'plain', requestId: 'ctx', tenant: 't-ctx' });
    expect('requestId' in lines[2]).toBe(false);
  });

  it('builds nothing for a probe when debug is off', () => {
    const { log, lines } = capture('log');
    logRequest(log, { method: 'GET', route: '/health/live', status: 200, durationMs: 1 });
    expect(lines).toEqual([]);
  });
});
