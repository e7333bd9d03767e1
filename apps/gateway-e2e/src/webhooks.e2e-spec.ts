import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { startStack } from '@crm/testing';
import { Client, EVENT_SERVICES, TestTenant } from './client';

// I1-I6 through the gateway (one success and the main failure per row, another tenant's ids 404)
// and webhooks end to end: a person created through the gateway reaches a real HTTP receiver as
// `person.created`, signed; also when the events service was down while the person was created
// (crm-people's outbox -> JetStream -> events' durable consumer once it is back).

jest.setTimeout(120000);

interface Hit {
  headers: Record<string, string>;
  body: string;
}

let client: Client;
let a: TestTenant;
let b: TestTenant;
let server: http.Server;
const hits: Hit[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  client = new Client(
    await startStack('webhooks', EVENT_SERVICES, {
      env: {
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
        WEBHOOK_WORKER_POLL_MS: '100',
        WEBHOOK_RETRY_SCHEDULE_S: '1,1,1',
      },
    }),
  );
  a = await client.tenant();
  b = await client.tenant();
}, 180000);
afterAll(async () => {
  await client?.stack.shutdown();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
}, 30000);

const receiverUrl = (path: string) =>
  `http://127.0.0.1:${(server.address() as AddressInfo).port}/${path}`;

async function waitForHits(where: (h: Hit) => boolean, n = 1, ms = 30000): Promise<Hit[]> {
  const end = Date.now() + ms;
  for (;;) {
    const got = hits.filter(where);
    if (got.length >= n) return got;
    if (Date.now() > end) throw new Error(`the receiver got ${got.length} of ${n} requests`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const signedPayload = (secret: string, h: Hit) =>
  new Webhook(secret).verify(h.body, {
    'webhook-id': h.headers['webhook-id'],
    'webhook-timestamp': h.headers['webhook-timestamp'],
    'webhook-signature': h.headers['webhook-signature'],
  }) as { type: string; data: { personIds: string[] } };

async function createPerson(lastname: string): Promise<string> {
  const res = await client.rest(a, 'POST', '/people', { lastname });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const forPerson = (id: string) => (h: Hit) => h.body.includes(id);

describe('I1-I6 through the gateway', () => {
  let endpoint: { id: string; secret: string };

  it('I1 registers (secret once) and lists; a bad event type is a 400 naming the field', async () => {
    const res = await client.rest(a, 'POST', '/integrations/webhooks', {
      url: receiverUrl('rows'),
      eventTypes: ['person.created'],
    });
    expect(res.status).toBe(201);
    endpoint = res.body.data;
    expect(endpoint.secret).toMatch(/^whsec_/);
    const list = await client.rest(a, 'GET', '/integrations/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const bad = await client.rest(a, 'POST', '/integrations/webhooks', {
      url: receiverUrl('x'),
      eventTypes: ['person.teleported'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('eventTypes');
  });

  it('a person created through the gateway is delivered as person.created, signed', async () => {
    const personId = await createPerson('Webhook');
    const [hit] = await waitForHits(forPerson(personId));
    expect(signedPayload(endpoint.secret, hit)).toMatchObject({
      type: 'person.created',
      data: { personIds: [personId] },
    });
  });

  it('I3 shows the delivery; a bad status filter is a 400', async () => {
    let log: { body: { data: { id: string; status: string; messageId: string }[] } } | undefined;
    const end = Date.now() + 10000;
    while (Date.now() < end) {
      log = await client.rest(a, 'GET', `/integrations/webhooks/${endpoint.id}/deliveries`);
      if (log.body.data?.[0]?.status === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(log!.body.data[0]).toMatchObject({ status: 'succeeded', eventType: 'person.created' });
    const bad = await client.rest(
      a,
      'GET',
      `/integrations/webhooks/${endpoint.id}/deliveries?status=lost`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('status');
  });

  it('I4 sends a delivery again with the same webhook-id; an unknown delivery is 404', async () => {
    const log = await client.rest(a, 'GET', `/integrations/webhooks/${endpoint.id}/deliveries`);
    const delivery = log.body.data[0];
    const before = hits.filter((h) => h.headers['webhook-id'] === delivery.messageId).length;
    const res = await client.rest(
      a,
      'POST',
      `/integrations/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`,
    );
    expect(res.status).toBe(200);
    await waitForHits((h) => h.headers['webhook-id'] === delivery.messageId, before + 1);
    const missing = await client.rest(
      a,
      'POST',
      `/integrations/webhooks/${endpoint.id}/deliveries/${endpoint.id}/redeliver`,
    );
    expect(missing.status).toBe(404);
  });

  it('I5 replays since a time; a missing time is a 400', async () => {
    const res = await client.rest(a, 'POST', `/integrations/webhooks/${endpoint.id}/replay`, {
      since: '2020-01-01T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.queued).toBeGreaterThanOrEqual(1);
    const bad = await client.rest(a, 'POST', `/integrations/webhooks/${endpoint.id}/replay`, {});
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('since');
  });

  it('I6 rotates: the new secret and the old one both verify during the overlap', async () => {
    const res = await client.rest(a, 'POST', `/integrations/webhooks/${endpoint.id}/secret`, {
      overlapMinutes: 60,
    });
    expect(res.status).toBe(200);
    const personId = await createPerson('Rotated');
    const [hit] = await waitForHits(forPerson(personId));
    expect(signedPayload(res.body.data.secret, hit).type).toBe('person.created');
    expect(signedPayload(endpoint.secret, hit).type).toBe('person.created');
    endpoint.secret = res.body.data.secret;
    const bad = await client.rest(a, 'POST', `/integrations/webhooks/${endpoint.id}/secret`, {
      overlapMinutes: 99999,
    });
    expect(bad.status).toBe(400);
  });

  it("another tenant's endpoint is 404 on every route", async () => {
    const base = `/integrations/webhooks/${endpoint.id}`;
    for (const [method, path, body] of [
      ['PUT', base, { enabled: false }],
      ['DELETE', base, undefined],
      ['GET', `${base}/deliveries`, undefined],
      ['POST', `${base}/replay`, { since: '2020-01-01T00:00:00Z' }],
      ['POST', `${base}/secret`, {}],
    ] as const) {
      expect([method, path, (await client.rest(b, method, path, body)).status]).toEqual([
        method,
        path,
        404,
      ]);
    }
    expect((await client.rest(a, 'GET', base)).body.data.enabled).toBe(true);
  });

  it('I2 updates and removes; a removed endpoint is 404', async () => {
    const put = await client.rest(a, 'PUT', `/integrations/webhooks/${endpoint.id}`, {
      description: 'CRM sync',
    });
    expect(put.status).toBe(200);
    expect(put.body.data.description).toBe('CRM sync');
    const bad = await client.rest(a, 'PUT', `/integrations/webhooks/${endpoint.id}`, {
      url: 'ftp://example.com',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('url');
    const del = await client.rest(a, 'DELETE', `/integrations/webhooks/${endpoint.id}`);
    expect(del.status).toBe(200);
    const again = await client.rest(a, 'DELETE', `/integrations/webhooks/${endpoint.id}`);
    expect(again.status).toBe(404);
  });
});

it('a person created while the events service is stopped is delivered once it runs again', async () => {
  const reg = await client.rest(a, 'POST', '/integrations/webhooks', {
    url: receiverUrl('outage'),
    eventTypes: ['person.created'],
  });
  expect(reg.status).toBe(201);
  // both processes of the service: the api and the worker that consumes and sends
  await client.stack.stop('events-worker');
  await client.stack.stop('events');
  const personId = await createPerson('While events was down');
  await new Promise((r) => setTimeout(r, 1000));
  expect(hits.filter(forPerson(personId))).toEqual([]);
  await client.stack.start('events');
  await client.stack.start('events-worker');
  const [hit] = await waitForHits(forPerson(personId));
  expect(signedPayload(reg.body.data.secret, hit).data.personIds).toEqual([personId]);
});
