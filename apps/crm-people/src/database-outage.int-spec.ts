import { randomBytes } from 'node:crypto';
import {
  databaseUrl,
  ServiceTestClient,
  startTcpRelay,
  tenantHeaders,
  TcpRelay,
  TEST_SERVER_URL,
} from '@crm/testing';
import { RunningService, startCrmPeople } from './test/service-harness';

// crm-people reaches its PostgreSQL through a relay the test can cut: the same resets and refused
// connections as a server that died or restarts (a rollout of the database, a failover). While it
// is gone every call answers 503 SERVICE_UNAVAILABLE in the envelope (a "try again", never a 500
// that reads as a bug), liveness stays up so nobody restarts a healthy process, readiness goes
// down, and the service serves again by itself once the database is back.
jest.setTimeout(120_000);

const DB = 'crm_people_it_outage';
const tenant = `it-outage-${randomBytes(4).toString('hex')}`;
const as = (extra: Record<string, string> = {}) => tenantHeaders(tenant, extra);
const PERSON = `query($id: ID!) { person(id: $id) { id firstname } }`;

let relay: TcpRelay;
let svc: RunningService;
let api: ServiceTestClient;
let personId: string;

beforeAll(async () => {
  relay = await startTcpRelay(new URL(TEST_SERVER_URL).host);
  const name = `${process.env.TEST_DATABASE_PREFIX ?? ''}${DB}`;
  const viaRelay = new URL(databaseUrl(name));
  viaRelay.host = relay.address;
  // The database is created (and migrated) on the real server; the app talks through the relay.
  svc = await startCrmPeople(DB, { DATABASE_URL: viaRelay.toString() });
  api = new ServiceTestClient(svc.url);
  const created = await api.rest('POST', '/people', { firstname: 'Grace' }, as());
  expect(created.status).toBe(201);
  personId = created.body.data.id;
});
afterAll(async () => {
  await svc?.app.close();
  await relay?.close();
});

async function eventually<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean) {
  const deadline = Date.now() + 60_000;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what}: still ${JSON.stringify(last)} after 60 s`);
}

describe('crm-people while its database is gone', () => {
  beforeAll(async () => {
    expect((await api.rest('GET', `/people/${personId}`, undefined, as())).status).toBe(200);
    await relay.cut();
  });

  it('answers reads and writes with 503 in the envelope, translated', async () => {
    const read = await api.rest('GET', `/people/${personId}`, undefined, as());
    expect(read.status).toBe(503);
    expect(read.body).toMatchObject({
      data: null,
      statusCode: 503,
      message: "The service's database cannot be used at the moment; try again in a few seconds",
    });
    const write = await api.rest('POST', '/people', { firstname: 'Ada' }, as());
    expect(write.status).toBe(503);
    const list = await api.rest('GET', '/people', undefined, as({ 'Accept-Language': 'de' }));
    expect(list.status).toBe(503);
    expect(list.body.message).toBe(
      'Die Datenbank des Dienstes ist gerade nicht erreichbar; bitte in einigen Sekunden erneut versuchen',
    );
  });

  it('answers GraphQL with SERVICE_UNAVAILABLE, status 503', async () => {
    const res = await api.graphql(PERSON, { id: personId }, as());
    expect(res.body.errors?.[0]?.extensions).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      statusCode: 503,
    });
  });

  it('stays live and is not ready', async () => {
    expect((await fetch(`${svc.url}/health/live`)).status).toBe(200);
    const ready = await fetch(`${svc.url}/health/ready`);
    expect(ready.status).toBe(503);
  });

  it('serves again by itself once the database is back, and kept what it had', async () => {
    await relay.restore();
    const read = await eventually(
      'reading the person again',
      () => api.rest('GET', `/people/${personId}`, undefined, as()),
      (r) => r.status === 200,
    );
    expect(read.body.data.firstname).toBe('Grace');
    const write = await api.rest('POST', '/people', { firstname: 'Ada' }, as());
    expect(write.status).toBe(201);
    const refused = await api.rest('GET', '/people?pageSize=100', undefined, as());
    // The writes refused during the outage left nothing behind.
    expect(refused.body.data.map((p: { firstname: string }) => p.firstname).sort()).toEqual([
      'Ada',
      'Grace',
    ]);
  });
});
