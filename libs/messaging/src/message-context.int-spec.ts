import { Controller, INestMicroservice, Logger, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Ctx, MessagePattern, NatsContext, Payload } from '@nestjs/microservices';
import { Test } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import { connect, headers, type MsgHdrs } from 'nats';
import { AllExceptionsFilter } from '@crm/errors';
import { CrmI18nModule } from '@crm/i18n';
import { createAppLogging, currentRequest, fieldsFromHeaders, runInRequest } from '@crm/logging';
import { NATS_TEST_URL } from '@crm/testing';
import { MessageBus } from './message-bus';
import { MessagingModule } from './messaging.module';
import { natsServerOptions, natsSubscriptionsRegistered } from './nats-options';

// Real NATS: a request sent by MessageBus inside a request reaches the answering handler (a
// service's microservice as natsServerOptions builds it) with the request's X-Request-Id, tenant
// and traceparent, and the handler's lines carry them. Tracing is off here (the W3C context is
// passed on as it came); the traces e2e test covers the spans.

const run = randomUUID().slice(0, 8);
const WHO = `test-${run}.context.who`;
const RELAY = `test-${run}.context.relay`;

const lines: Record<string, unknown>[] = [];
const logging = createAppLogging({
  app: 'messaging-test',
  nodeEnv: 'production',
  level: 'debug',
  destination: { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) },
});

interface Seen {
  fields: unknown;
  requestId?: string;
  tenant?: string;
  traceparent?: string;
}

@Controller()
class ContextController {
  private readonly logger = new Logger(ContextController.name);

  constructor(private readonly bus: MessageBus) {}

  @MessagePattern(WHO)
  who(@Payload() data: { tag: string }, @Ctx() ctx: NatsContext): Seen {
    this.logger.log(`answering ${data.tag}`);
    const h = ctx.getHeaders() as MsgHdrs | undefined;
    return {
      fields: currentRequest(),
      requestId: h?.get('X-Request-Id'),
      tenant: h?.get('Crm-Tenant-Id'),
      traceparent: h?.get('traceparent'),
    };
  }

  /** Asks WHO in turn: the request id goes on through a second hop. */
  @MessagePattern(RELAY)
  async relay(@Payload() data: { tag: string }): Promise<Seen> {
    await new Promise((r) => setTimeout(r, 5));
    return this.bus.request<Seen>(WHO, data);
  }
}

@Module({
  imports: [
    CrmI18nModule.forRoot(),
    MessagingModule.forRoot({
      service: 'messaging-test',
      url: NATS_TEST_URL,
      // a deadline, not a wait: CI's int tier runs several workers on two cores, and ten
      // concurrent requests of two hops each once took longer than 2 s there
      requestTimeoutMs: 30_000,
    }),
  ],
  controllers: [ContextController],
  providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
})
class ContextModule {}

let app: INestMicroservice;
let bus: MessageBus;

beforeAll(async () => {
  const mod = await Test.createTestingModule({ imports: [ContextModule] }).compile();
  app = mod.createNestMicroservice(natsServerOptions(`messaging-ctx-${run}`, NATS_TEST_URL));
  app.useLogger(logging.nest);
  await app.listen();
  await natsSubscriptionsRegistered([app]);
  bus = app.get(MessageBus);
});
afterAll(async () => app?.close());

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE}-00f067aa0ba902b7-01`;

/** The fields an HTTP request with these headers would have (requestLogging). */
const inRequest = <T>(requestId: string, fn: () => Promise<T>) =>
  runInRequest(
    fieldsFromHeaders({ requestId, tenant: 'tenant-1', traceparent: TRACEPARENT }, 'unused'),
    fn,
  );

const lineOf = (msg: string) => lines.find((l) => l.msg === msg);

describe('a request over NATS carries the request it is sent for', () => {
  it("delivers X-Request-Id, tenant and traceparent; the handler's lines carry them", async () => {
    const id = `req-${randomUUID()}`;
    const tag = randomUUID();
    const seen = await inRequest(id, () => bus.request<Seen>(WHO, { tag }));
    expect(seen).toEqual({
      fields: { requestId: id, tenant: 'tenant-1', traceId: TRACE },
      requestId: id,
      tenant: 'tenant-1',
      traceparent: TRACEPARENT,
    });
    expect(lineOf(`answering ${tag}`)).toMatchObject({
      level: 'info',
      requestId: id,
      tenant: 'tenant-1',
      traceId: TRACE,
    });
    // the server's own line per handled message (debug), in the request too
    const handled = lines.filter(
      (l) => l.requestId === id && String(l.msg).startsWith(`${WHO} handled in `),
    );
    expect(handled).toEqual([expect.objectContaining({ level: 'debug', tenant: 'tenant-1' })]);
  });

  it('passes them on through a second hop, and keeps concurrent requests apart', async () => {
    const calls = Array.from({ length: 10 }, () => ({
      id: `req-${randomUUID()}`,
      tag: randomUUID(),
    }));
    const seen = await Promise.all(
      calls.map((c) => inRequest(c.id, () => bus.request<Seen>(RELAY, { tag: c.tag }))),
    );
    seen.forEach((s, i) => expect(s.requestId).toBe(calls[i].id));
    for (const c of calls) expect(lineOf(`answering ${c.tag}`)?.requestId).toBe(c.id);
  });

  it('a message sent outside any request gets a request id of its own on the other side', async () => {
    const tag = randomUUID();
    const seen = await bus.request<Seen>(WHO, { tag });
    expect(seen.requestId).toBeUndefined();
    expect(seen.traceparent).toBeUndefined();
    const fields = seen.fields as { requestId: string; traceId?: string };
    expect(fields.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(fields.traceId).toBeUndefined();
    expect(lineOf(`answering ${tag}`)?.requestId).toBe(fields.requestId);
  });

  it('drops header values that are not ids (they would be written into every line)', async () => {
    const nc = await connect({ servers: NATS_TEST_URL });
    try {
      const h = headers();
      h.set('X-Request-Id', 'a b {"forged":1}');
      h.set('Crm-Tenant-Id', '{"x":1}');
      h.set('traceparent', 'junk');
      // a request as Nest's client sends it
      const packet = { pattern: WHO, data: { tag: randomUUID() }, id: randomUUID() };
      const reply = await nc.request(WHO, JSON.stringify(packet), { headers: h, timeout: 30_000 });
      const { response } = reply.json<{ response: Seen }>();
      const fields = response.fields as Record<string, unknown>;
      expect(Object.keys(fields)).toEqual(['requestId']);
      expect(fields.requestId).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await nc.close();
    }
  });
});
