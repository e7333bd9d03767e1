import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '@crm/config';
import { createAppLogging, runInRequest } from '@crm/logging';
import { createServiceApp } from '@crm/service-kit';
import { freePort, NATS_TEST_URL, ServiceTestKit } from '@crm/testing';
import { AppModule, SERVICE_NAME } from '../app.module';
import { EventsConfig } from '../config';
import { PrismaService } from '../database/prisma.service';
import { asTenantDo, inspect } from '../test/scopes';
import { RunningService, startEvents } from '../test/service-harness';
import { eventually, WebhookReceiver } from './test/webhook-receiver';
import { WebhookFanout } from './webhook-fanout.service';
import { WebhookWorker } from './webhook-worker.service';
import { type AttemptRecord, WebhooksRepository } from './webhooks.repository';

// The delivery worker with two replicas (two apps on one database, as two pods would be): each
// attempt is sent once; and an endpoint that keeps failing is disabled, its owner sees why.

jest.setTimeout(60000);

// The process's first app logging is the root every app's Nest loggers write through: the lines
// of the apps below land here (at debug: the worker's line per attempt).
const lines: Record<string, unknown>[] = [];
createAppLogging({
  app: 'events',
  nodeEnv: 'production',
  level: 'debug',
  destination: { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) },
});

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RETRY_SCHEDULE_S: '1,1,1,1,1,1,1,1',
  WEBHOOK_WORKER_POLL_MS: '50',
  WEBHOOK_WORKER_BATCH_SIZE: '4',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_DISABLE_AFTER_FAILING_S: '2',
};

let svc: RunningService;
let second: INestApplication;
let t: ServiceTestKit;
let db: PrismaService;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  svc = await startEvents('events_it_webhook_worker', ENV);
  const port = await freePort();
  const config = loadConfig(EventsConfig, {
    NODE_ENV: 'test',
    PORT: String(port),
    DATABASE_URL: svc.databaseUrl,
    NATS_URL: NATS_TEST_URL,
    ...ENV,
  });
  second = await createServiceApp(AppModule.forRoot(config), {
    service: SERVICE_NAME,
    title: 'events replica',
    config,
  });
  await second.listen(port, '127.0.0.1');
  t = new ServiceTestKit(svc);
  db = svc.app.get(PrismaService);
}, 60000);
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await second?.close();
  await t?.close();
});

async function endpoint(tenant: string, answer: () => number) {
  const r = await WebhookReceiver.start(answer);
  receivers.push(r);
  const res = await t.call(
    'POST',
    '/integrations/webhooks',
    { url: r.url, eventTypes: ['company.deleted'] },
    tenant,
  );
  expect(res.status).toBe(201);
  return { r, id: res.body.data.id as string };
}

/** As the consumer of source events does: in a transaction as their tenant. */
const fanOut = (tenant: string, n: number) =>
  asTenantDo(tenant, () =>
    db.$transaction(async (tx) => {
      const fanout = svc.app.get(WebhookFanout);
      for (let i = 0; i < n; i++) {
        await fanout.fanOut(tx, tenant, 'company.deleted', randomUUID(), { companyIds: [] });
      }
    }),
  );

it('the lines about a delivery carry the request id of the change that caused it', async () => {
  const tenant = `tenant-r-${randomUUID().slice(0, 8)}`;
  const { r, id } = await endpoint(tenant, () => 200);
  const requestId = `req-${randomUUID()}`;
  // as the consumer of the source event runs it: inside the request that wrote the event
  await runInRequest({ requestId, tenant }, () => fanOut(tenant, 1));
  await r.waitFor(1);
  const [delivery] = await inspect(() =>
    db.webhookDelivery.findMany({ where: { endpointId: id } }),
  );
  const line = await eventually(async () =>
    lines.find((l) => String(l.msg).startsWith(`webhook delivery ${delivery.id} (attempt 1): 200`)),
  );
  expect(line).toMatchObject({ level: 'debug', requestId, tenant });
});

it('two replicas send each of 60 deliveries once', async () => {
  const tenant = `tenant-w-${randomUUID().slice(0, 8)}`;
  const { r, id } = await endpoint(tenant, () => 200);
  await fanOut(tenant, 60);
  await r.waitFor(60);
  await eventually(async () =>
    (await inspect(() =>
      db.webhookDelivery.count({ where: { endpointId: id, status: 'succeeded' } }),
    )) === 60
      ? true
      : null,
  );
  await new Promise((res) => setTimeout(res, 500));
  const ids = r.received.map((x) => x.headers['webhook-id']);
  expect(ids).toHaveLength(60);
  expect(new Set(ids).size).toBe(60);
  expect(
    await inspect(() => db.webhookAttempt.count({ where: { delivery: { endpointId: id } } })),
  ).toBe(60);
});

it('an endpoint failing without a success for the configured time (2 s here) is disabled', async () => {
  const tenant = `tenant-z-${randomUUID().slice(0, 8)}`;
  const { r, id } = await endpoint(tenant, () => 500);
  await fanOut(tenant, 1);
  const read = await eventually(async () => {
    const e = (await t.call('GET', `/integrations/webhooks/${id}`, undefined, tenant)).body.data;
    return e.enabled === false ? e : null;
  });
  expect(read.disabledReason).toMatch(/failed since/);
  expect(read.failingSince).toBeTruthy();
  expect(read.disabledAt).toBeTruthy();
  expect(r.received.length).toBeGreaterThanOrEqual(2);
  const sent = r.received.length;
  await new Promise((res) => setTimeout(res, 1500));
  expect(r.received).toHaveLength(sent);

  // the owner enables it again: the failure run is cleared and the pending delivery goes out
  r.answer = () => 200;
  const on = await t.call('PUT', `/integrations/webhooks/${id}`, { enabled: true }, tenant);
  expect(on.body.data).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  await r.waitFor(sent + 1);
  await eventually(async () =>
    (await inspect(() => db.webhookDelivery.findFirst({ where: { endpointId: id } })))?.status ===
    'succeeded'
      ? true
      : null,
  );
});

it('retention deletes old messages with their deliveries, but never one a delivery still needs', async () => {
  const tenant = `tenant-p-${randomUUID().slice(0, 8)}`;
  const { id } = await endpoint(tenant, () => 200);
  await t.call('PUT', `/integrations/webhooks/${id}`, { enabled: false }, tenant);
  const old = new Date(Date.now() - 31 * 86_400_000);
  const message = (n: number) => ({
    id: randomUUID(),
    tenantId: tenant,
    type: 'company.deleted',
    payload: { n },
    dateCreated: old,
  });
  const [done, waiting, recent] = [
    message(1),
    message(2),
    { ...message(3), dateCreated: new Date() },
  ];
  await asTenantDo(tenant, async () => {
    await db.webhookMessage.createMany({ data: [done, waiting, recent] });
    await db.webhookDelivery.createMany({
      data: [
        { tenantId: tenant, endpointId: id, messageId: done.id, status: 'succeeded' },
        { tenantId: tenant, endpointId: id, messageId: waiting.id, status: 'pending' },
        { tenantId: tenant, endpointId: id, messageId: recent.id, status: 'failed' },
      ],
    });
  });
  // the operator's gauges count every tenant's deliveries (a scrape names no tenant)
  const metrics = await (await fetch(`${svc.url}/metrics`)).text();
  const gauge = (name: string) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)$`, 'm').exec(metrics)?.[1] ?? -1);
  expect(gauge('webhook_deliveries_pending')).toBeGreaterThanOrEqual(1);
  expect(gauge('webhook_deliveries_failed')).toBeGreaterThanOrEqual(1);
  // a background sweep: runs in no tenant's scope, as the worker's timer does
  await svc.app.get(WebhookWorker).prune();
  const left = await inspect(() =>
    db.webhookMessage.findMany({ where: { tenantId: tenant }, select: { id: true } }),
  );
  expect(left.map((m) => m.id).sort()).toEqual([waiting.id, recent.id].sort());
  expect(await inspect(() => db.webhookDelivery.count({ where: { endpointId: id } }))).toBe(2);
});

it("a delivery deleted while it was being sent does not cost the round's other results", async () => {
  const tenant = `tenant-x-${randomUUID().slice(0, 8)}`;
  const [gone, kept] = [await endpoint(tenant, () => 200), await endpoint(tenant, () => 200)];
  const message = { id: randomUUID(), tenantId: tenant, type: 'company.deleted', payload: {} };
  // due in an hour: the workers leave them alone, this test records the round itself
  const later = new Date(Date.now() + 3_600_000);
  await asTenantDo(tenant, async () => {
    await db.webhookMessage.create({ data: message });
    await db.webhookDelivery.createMany({
      data: [gone, kept].map((e) => ({
        tenantId: tenant,
        endpointId: e.id,
        messageId: message.id,
        nextAttemptAt: later,
      })),
    });
  });
  const claimed = await inspect(() =>
    db.webhookDelivery.findMany({ where: { messageId: message.id } }),
  );
  const record = (endpointId: string): AttemptRecord => {
    const d = claimed.find((c) => c.endpointId === endpointId)!;
    return {
      delivery: {
        ...d,
        payload: {},
        headers: null,
        url: '',
        secret: '',
        previousSecret: null,
        previousSecretExpiresAt: null,
      },
      attemptedAt: new Date(),
      responseCode: 200,
      durationMs: 5,
      error: null,
      status: 'succeeded',
      nextAttemptAt: null,
      gone: false,
    };
  };
  // the organiser removes one endpoint (its deliveries go by cascade) while the round is sent
  expect(
    (await t.call('DELETE', `/integrations/webhooks/${gone.id}`, undefined, tenant)).status,
  ).toBe(200);
  const repo = svc.app.get(WebhooksRepository);
  await asTenantDo(tenant, () =>
    repo.transaction((tx) => repo.recordAttempts(tx, [record(gone.id), record(kept.id)])),
  );
  const after = await inspect(() =>
    db.webhookDelivery.findMany({
      where: { messageId: message.id },
      include: { attemptLog: true },
    }),
  );
  expect(after).toHaveLength(1);
  expect(after[0]).toMatchObject({ endpointId: kept.id, status: 'succeeded', attempts: 1 });
  expect(after[0].attemptLog).toHaveLength(1);
});
