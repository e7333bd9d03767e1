import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { VerifyApiKeyReply } from '@crm/messaging';
import { Subjects } from '@crm/messaging';
import { startDraining } from '@crm/service-kit';
import { tenantHeaders } from '@crm/testing';
import { bootGateway, eventually, json, RunningGateway } from '../../test/support/gateway';
import { TenantInfoStub } from '../../test/support/tenant-info-stub';
import { hashApiKey } from '../auth/api-key.verifier';
import { ServiceForwarder } from './service-forwarder';
import type { ReplicaSet } from './replicas';

// Two replicas of crm-people as real HTTP servers on 127.0.0.2 and 127.0.0.3 with one port (as
// Docker's DNS answers a scaled service's name), a host name mapped to both, and the gateway in
// front: a replica draining or dying fails no call a retry can save.

// 2,000 calls per test and the gateway's readiness probes take seconds, more on a busy machine:
// the tests wait for what they expect, and jest's 5 s default is not a limit they promise.
jest.setTimeout(120_000);

const KEY = `replicas-${randomBytes(16).toString('hex')}`;
const HOST = 'people.replicas.test';
const ADDRESSES = ['127.0.0.2', '127.0.0.3'];

/** One stand-in replica: counts the API calls it took, and every POST by its id. */
class FakeReplica {
  calls = 0;
  readonly posts = new Map<string, number>();
  draining = false;
  private server: http.Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly address: string,
    public port: number,
  ) {}

  async start(): Promise<this> {
    const server = http.createServer((req, res) => {
      if (this.draining) res.setHeader('connection', 'close');
      if (req.url === '/health/ready') {
        res.writeHead(this.draining ? 503 : 200).end();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.calls++;
        if (req.method === 'POST') {
          const { id } = JSON.parse(Buffer.concat(chunks).toString()) as { id: string };
          this.posts.set(id, (this.posts.get(id) ?? 0) + 1);
        }
        // a little work, so that calls are in flight when a replica goes
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ data: { by: this.address }, message: null, statusCode: 200 }));
        }, 2);
      });
    });
    server.keepAliveTimeout = 5000;
    server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(this.port, this.address, resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** As a service ends its drain: takes no new connection, answers what it has, then closes. */
  close(): Promise<void> {
    const server = this.server!;
    this.server = null;
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  }

  /** As kill -9: every connection reset at once, calls in flight unanswered. */
  kill(): void {
    this.server?.close();
    this.server = null;
    for (const s of this.sockets) s.destroy();
  }
}

let stub: TenantInfoStub;
let gw: RunningGateway;
let a: FakeReplica;
let b: FakeReplica;
let replicas: () => ReplicaSet;

const headers = {
  ...tenantHeaders('tenant-r'),
  Authorization: `Bearer ${KEY}`,
};

/** Calls of a load not answered yet, by index. */
type InFlight = Map<number, Promise<unknown>>;

/** `total` calls, `concurrency` at a time; `during` runs once `at` of them are answered. */
async function load(
  total: number,
  concurrency: number,
  call: (i: number) => Promise<number>,
  at = 0,
  during: (inFlight: InFlight) => Promise<void> = async () => undefined,
): Promise<{ statuses: Map<number, number>; failed: number[] }> {
  const statuses = new Map<number, number>();
  const failed: number[] = [];
  const inFlight: InFlight = new Map();
  let next = 0;
  let done = 0;
  let duringDone: Promise<void> | null = null;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const pending = call(i).catch(() => 0);
        inFlight.set(i, pending);
        const status = await pending;
        inFlight.delete(i);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status !== 200) failed.push(i);
        if (++done === at) duringDone = during(inFlight);
      }
    }),
  );
  await duringDone;
  return { statuses, failed };
}

const get = (i: number) =>
  fetch(`${gw.url}/v1/crm/people/${i}`, { headers }).then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  });
const post = (id: string) =>
  fetch(`${gw.url}/v1/crm/people`, { method: 'POST', headers, body: JSON.stringify({ id }) }).then(
    async (r) => {
      await r.arrayBuffer();
      return r.status;
    },
  );

beforeAll(async () => {
  stub = await TenantInfoStub.start();
  const modules: VerifyApiKeyReply['modules'] = ['crm', 'events', 'bookings', 'tenant-info'];
  await stub.answer(Subjects.tenantInfo.verifyApiKey, (data) => ({
    response:
      (data as { keyHash: string }).keyHash === hashApiKey(KEY)
        ? { valid: true, keyId: randomUUID(), tenantId: 'tenant-r', modules }
        : { valid: false },
  }));
  a = await new FakeReplica(ADDRESSES[0]!, 0).start();
  b = await new FakeReplica(ADDRESSES[1]!, a.port).start();
  gw = await bootGateway(
    { CRM_PEOPLE_URL: `http://${HOST}:${a.port}`, KEY_CACHE_TTL_MS: '600000' },
    {
      lookup: async (name) => {
        if (name !== HOST) throw Object.assign(new Error(name), { code: 'ENOTFOUND' });
        return ADDRESSES.map((address) => ({ address }));
      },
    },
  );
  const origin = `http://${HOST}:${a.port}`;
  replicas = () => gw.app.get(ServiceForwarder).replicasOf(origin);
  await eventually(async () => expect(replicas().readyAddresses).toEqual(ADDRESSES));
});

afterAll(async () => {
  await gw?.app.close();
  a?.kill();
  b?.kill();
  await stub?.close();
});

describe('replicas of a service behind one name', () => {
  it('spreads calls over both', async () => {
    const before = [a.calls, b.calls];
    const { failed } = await load(200, 10, get);
    expect(failed).toEqual([]);
    expect(a.calls - before[0]!).toBeGreaterThan(50);
    expect(b.calls - before[1]!).toBeGreaterThan(50);
  });

  it('moves off a draining replica without failing a call, and takes it back once ready', async () => {
    let noticed = -1;
    const { statuses, failed } = await load(2000, 20, get, 500, async (inFlight) => {
      a.draining = true;
      // readiness 503 and Connection: close: the gateway asks again at once
      await eventually(async () => expect(replicas().readyAddresses).toEqual([ADDRESSES[1]]));
      // the calls sent before the gateway noticed may still reach it: counted once answered
      await Promise.all([...inFlight.values()]);
      noticed = a.calls;
      await a.close();
    });
    expect(failed).toEqual([]);
    expect(statuses.get(200)).toBe(2000);
    expect(noticed).toBeGreaterThan(0);
    expect(a.calls).toBe(noticed);

    // the replica back (a new container on the same address): it takes calls again once ready
    a.draining = false;
    await a.start();
    await eventually(async () => expect(replicas().readyAddresses).toEqual(ADDRESSES));
    const back = a.calls;
    expect((await load(100, 10, get)).failed).toEqual([]);
    expect(a.calls).toBeGreaterThan(back);
  });

  it('survives a replica killed under load: reads all answered, no POST sent twice', async () => {
    const run = randomUUID();
    const isPost = (i: number) => i % 4 === 0;
    const { statuses, failed } = await load(
      2000,
      20,
      (i) => (isPost(i) ? post(`${run}-${i}`) : get(i)),
      500,
      async () => a.kill(),
    );
    // only a POST in flight on the killed replica may fail, and with the clean 503
    expect(failed.filter((i) => !isPost(i))).toEqual([]);
    expect([...statuses.keys()].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    for (const i of failed) expect(isPost(i)).toBe(true);
    const seen = new Map<string, number>();
    for (const r of [a, b])
      for (const [id, n] of r.posts) if (id.startsWith(run)) seen.set(id, (seen.get(id) ?? 0) + n);
    expect([...seen.values()].filter((n) => n > 1)).toEqual([]);
    // every POST answered 200 reached a replica exactly once
    expect(seen.size).toBeGreaterThanOrEqual(500 - failed.length);
    expect(replicas().readyAddresses).toEqual([ADDRESSES[1]]);
  });

  it('answers the 503 envelope naming the service when every replica is down', async () => {
    b.kill();
    const res = await fetch(`${gw.url}/v1/crm/people/1`, { headers });
    expect(res.status).toBe(503);
    const body = await json(res);
    expect(body.statusCode).toBe(503);
    expect(body.message).toContain('crm-people');
  });

  it('drains itself like a service: readiness 503 first, every answer with Connection: close', async () => {
    expect((await fetch(`${gw.url}/health/ready`)).status).toBe(200);
    startDraining(gw.app);
    const ready = await fetch(`${gw.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('connection')).toBe('close');
    expect((await fetch(`${gw.url}/health/live`)).status).toBe(200);
    // the REST proxy too (every replica is down by now: its 503)
    const rest = await fetch(`${gw.url}/v1/crm/people/1`, { headers });
    expect(rest.headers.get('connection')).toBe('close');
  });
});
