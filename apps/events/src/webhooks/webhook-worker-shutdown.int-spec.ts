import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '@crm/config';
import type { WorkerProcess } from '@crm/service-kit';
import { freePort, NATS_TEST_URL, runSql, ServiceTestKit, until } from '@crm/testing';
import { EventsConfig } from '../config';
import { PrismaService } from '../database/prisma.service';
import { asTenantDo } from '../test/scopes';
import { RunningService, startEvents } from '../test/service-harness';
import { startWorkerProcessOfEvents } from '../worker-process';
import { WebhookReceiver } from './test/webhook-receiver';
import { WebhookFanout } from './webhook-fanout.service';

// Issue 23, drain: a webhook worker process shut down (what its SIGTERM runs: readiness 503,
// then the Nest context closes) while it holds claimed deliveries in flight. What it sent is
// recorded before it is gone; nothing stays leased to it, so the next worker sends the rest at
// once, not after the lease (WEBHOOK_TIMEOUT_MS + WEBHOOK_LEASE_MARGIN_MS, 63 s here) runs out;
// and the real receiver gets every delivery once: none both sent and handed back.

jest.setTimeout(120_000);

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_WORKER_POLL_MS: '50',
  WEBHOOK_WORKER_BATCH_SIZE: '4',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_LEASE_MARGIN_MS: '60000',
};
const DELIVERIES = 24;

let svc: RunningService;
let t: ServiceTestKit;
let receiver: WebhookReceiver;
let dir: string;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  // The API process sends nothing (as deployed): only the workers below do.
  svc = await startEvents('events_it_webhook_shutdown', { ...ENV, PROCESS_ROLE: 'api' });
  t = new ServiceTestKit(svc);
  receiver = await WebhookReceiver.start();
  dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-shutdown-'));
}, 60_000);
afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
  await receiver?.close();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function startWorker(): Promise<WorkerProcess> {
  const config = loadConfig(EventsConfig, {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    DATABASE_URL: svc.databaseUrl,
    NATS_URL: NATS_TEST_URL,
    FILE_STORAGE_DIR: dir,
    PROCESS_ROLE: 'worker',
    WORKER_NICE: '0',
    ...ENV,
  });
  const w = await startWorkerProcessOfEvents(config);
  workers.push(w);
  return w;
}

interface Row {
  id: string;
  messageId: string;
  status: string;
  attempts: number;
  leased: boolean;
}
const deliveries = (tenant: string) =>
  runSql<Row>(
    svc.databaseUrl,
    `SELECT id, "messageId", status, attempts,
            (status = 'pending' AND "nextAttemptAt" > now()) AS leased
       FROM "WebhookDelivery" WHERE "tenantId" = $1`,
    [tenant],
  );

it('closed while sending: what it sent is recorded, nothing stays leased, the next worker sends the rest at once, each once', async () => {
  const tenant = `tenant-s-${randomUUID().slice(0, 8)}`;
  const res = await t.call(
    'POST',
    '/integrations/webhooks',
    { url: receiver.url, eventTypes: ['company.deleted'] },
    tenant,
  );
  expect(res.status).toBe(201);
  const db = svc.app.get(PrismaService);
  const fanout = svc.app.get(WebhookFanout);
  // as the consumer of the source events does: in a transaction as their tenant
  await asTenantDo(tenant, () =>
    db.$transaction(async (tx) => {
      for (let i = 0; i < DELIVERIES; i++)
        await fanout.fanOut(tx, tenant, 'company.deleted', randomUUID(), { companyIds: [] });
    }),
  );
  const received = () => receiver.received.map((r) => r.headers['webhook-id']!);

  // slow answers: the shutdown lands while a claimed round is being sent
  receiver.delayMs = 400;
  const first = await startWorker();
  await receiver.waitFor(1);
  await first.close();

  const rows = await deliveries(tenant);
  expect(rows).toHaveLength(DELIVERIES);
  // handed back or recorded, nothing in between
  expect(rows.filter((r) => r.leased)).toEqual([]);
  const sentAtClose = new Set(received());
  expect(sentAtClose.size).toBeGreaterThan(0);
  expect(sentAtClose.size).toBeLessThan(DELIVERIES);
  // every delivery that reached the receiver was recorded as such (not released to be sent again)
  for (const r of rows)
    expect({ id: r.messageId, recorded: r.attempts > 0 }).toEqual({
      id: r.messageId,
      recorded: sentAtClose.has(r.messageId),
    });

  // the rest at once by the next worker: well within the 63 s a held lease would take
  receiver.delayMs = 0;
  await startWorker();
  await until(
    'every delivery succeeded',
    () => deliveries(tenant),
    (all) => all.every((r) => r.status === 'succeeded'),
    30_000,
  );
  const ids = received();
  expect(ids).toHaveLength(DELIVERIES);
  expect(new Set(ids).size).toBe(DELIVERIES);
});
