import { freePort, natsServer, NatsProcess, startStack } from '@crm/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, eventually, TestTenant } from './client';

// The bus is not a single point of failure for reads: this stack has a nats-server of its own,
// killed mid-run. Keys the gateway verified recently keep working (stale-if-error), requests
// that need no other service keep answering, and a revocation is honoured once NATS is back.

let nats: NatsProcess;
let store: string;
let client: Client;
let t: TestTenant;
let personId: string;

beforeAll(async () => {
  store = mkdtempSync(path.join(os.tmpdir(), 'nats-outage-'));
  nats = await natsServer(await freePort(), store);
  client = new Client(
    await startStack('natsoutage', ['tenant-info', 'crm-people'], { env: { NATS_URL: nats.url } }),
  );
  t = await client.tenant();
  const created = await client.rest(t, 'POST', '/people', { firstname: 'Ada', lastname: 'Byron' });
  expect(created.status).toBe(201);
  personId = created.body.data.id;
}, 120000);

afterAll(async () => {
  await client?.stack.shutdown();
  await nats?.stop();
  rmSync(store, { recursive: true, force: true });
});

it('reads keep working while NATS is down; an unverified key is 503; a revocation is heard when it is back', async () => {
  expect((await client.rest(t, 'GET', `/people/${personId}`)).status).toBe(200);
  await nats.stop();
  // Past the fresh TTL of the stack's key cache (1.5 s): every answer below needs the stale copy.
  await new Promise((r) => setTimeout(r, 2000));

  const statuses: number[] = [];
  for (let i = 0; i < 20; i++) {
    const read = i % 2 ? `/people/${personId}` : '/people?pageSize=5';
    statuses.push((await client.rest(t, 'GET', read)).status);
  }
  expect(statuses.filter((s) => s === 200)).toHaveLength(20);

  // A key the gateway never verified cannot be checked now: 503, not a guess either way.
  const stranger = await client.rest({ ...t, key: `unknown_${'x'.repeat(30)}` }, 'GET', '/people');
  expect(stranger.status).toBe(503);
  expect(stranger.body).toMatchObject({ data: null, statusCode: 503 });

  await nats.start();
  // tenant-info and the gateway reconnect; the revocation goes through the admin API over NATS.
  await eventually(async () => {
    expect((await client.admin('DELETE', `/api-keys/${t.keyId}`)).status).toBe(200);
  }, 20000);
  await eventually(async () => {
    expect((await client.rest(t, 'GET', `/people/${personId}`)).status).toBe(401);
  }, 8000);
}, 90000);
