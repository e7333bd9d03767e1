import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Client, eventually, startClient, TestTenant } from './client';

// The flows between crm-people and crm-companies with both real services, the gateway, NATS and
// JetStream: card <-> company (B8, company deleted), managed-by <-> people (deleted, merged),
// catch-up after a consumer was down, and GraphQL across both subgraphs with the number of
// subgraph calls per level counted.

jest.setTimeout(90000);

const ACCOUNT_MANAGER = '00000000-0000-4000-a000-000000000401';
const KEY_ACCOUNT_MANAGER = '00000000-0000-4000-a000-000000000402';
/** Events cross a relay, JetStream and a consumer: seconds, not milliseconds. */
const SETTLE_MS = 20000;

let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startClient('flows');
  a = await client.tenant();
  b = await client.tenant();
}, 120000);
afterAll(async () => client?.stack.shutdown(), 30000);

async function person(t: TestTenant, firstname: string): Promise<string> {
  const res = await client.rest(t, 'POST', '/people', { firstname, lastname: 'Flow' });
  if (res.status !== 201) throw new Error(`create person: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

async function company(t: TestTenant, name: string): Promise<string> {
  const res = await client.rest(t, 'POST', '/companies', { name });
  if (res.status !== 201) throw new Error(`create company: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

async function card(t: TestTenant, personId: string, body: object = {}): Promise<string> {
  const res = await client.rest(t, 'POST', `/people/${personId}/business-cards`, body);
  if (res.status !== 201) throw new Error(`create card: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

const connect = (t: TestTenant, personId: string, cardId: string, body: object) =>
  client.rest(t, 'PUT', `/people/${personId}/business-cards/${cardId}/company`, body);

const readCard = async (t: TestTenant, personId: string, cardId: string) =>
  (await client.rest(t, 'GET', `/people/${personId}/business-cards/${cardId}`)).body.data;

async function manages(t: TestTenant, companyId: string, personId: string, managerRoleId: string) {
  const res = await client.rest(t, 'POST', `/companies/${companyId}/managed-by`, {
    personId,
    managerRoleId,
  });
  if (res.status !== 201) throw new Error(`create manager: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

const managers = async (t: TestTenant, companyId: string) =>
  (await client.rest(t, 'GET', `/companies/${companyId}/managed-by?pageSize=500`)).body.data as {
    id: string;
    personId: string;
    managerRole: { id: string };
  }[];

describe('card and company (B8, C6)', () => {
  let p: string;
  let c: string;
  let acme: string;
  beforeAll(async () => {
    p = await person(a, 'Carla');
    c = await card(a, p, { business: 'Acme' });
    acme = await company(a, 'Acme GmbH');
  });

  it('B8 connects a card to a real company (200); unknown or another tenant’s company -> 404', async () => {
    const res = await connect(a, p, c, {
      companyId: acme,
      companyRelationSince: '2023-01-01T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ companyId: acme });
    expect((await connect(a, p, c, { companyId: randomUUID() })).status).toBe(404);
    const theirs = await company(b, 'Other Inc');
    expect((await connect(a, p, c, { companyId: theirs })).status).toBe(404);
    expect((await readCard(a, p, c)).companyId).toBe(acme);
  });

  it('B8 with crm-companies stopped -> 503 naming it, nothing written', async () => {
    const beta = await company(a, 'Beta AG');
    await client.stack.stop('crm-companies');
    try {
      const res = await connect(a, p, c, { companyId: beta });
      expect(res.status).toBe(503);
      expect(res.body.message).toContain('crm-companies');
    } finally {
      await client.stack.start('crm-companies');
    }
    expect((await readCard(a, p, c)).companyId).toBe(acme);
  });

  it('C6 company deleted -> its cards are disconnected and touchpoints let go of it', async () => {
    const gone = await company(a, 'Gone Ltd');
    const other = await card(a, p, { business: 'Gone' });
    expect(
      (
        await connect(a, p, other, {
          companyId: gone,
          companyRelationSince: '2022-01-01T00:00:00Z',
        })
      ).status,
    ).toBe(200);
    const tp = await client.rest(a, 'POST', '/touchpoints', {
      type: 'call',
      subject: 'About Gone',
      start: '2026-01-10T09:00:00Z',
      personIds: [p],
      companyId: gone,
    });
    expect(tp.status).toBe(201);
    expect((await client.rest(a, 'DELETE', `/companies/${gone}`)).status).toBe(200);

    await eventually(async () => {
      const now = await readCard(a, p, other);
      expect(now).toMatchObject({ companyId: null, companyRelationSince: null });
    }, SETTLE_MS);
    const touchpoint = await client.rest(a, 'GET', `/touchpoints/${tp.body.data.id}`);
    expect(touchpoint.body.data.companyId).toBeNull();
    // the card connected to another company keeps it
    expect((await readCard(a, p, c)).companyId).toBe(acme);
    // and the deleted company can no longer be given to a touchpoint (asked over NATS)
    const refused = await client.rest(a, 'POST', '/touchpoints', {
      type: 'call',
      subject: 'About Gone again',
      start: '2026-01-11T09:00:00Z',
      personIds: [p],
      companyId: gone,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ field: 'companyId', rule: 'unknownCompany' });
  });

  it('catch-up: crm-people down while a company is deleted disconnects the card once it is back', async () => {
    const late = await company(a, 'Late GmbH');
    const lateCard = await card(a, p, { business: 'Late' });
    expect((await connect(a, p, lateCard, { companyId: late })).status).toBe(200);
    await client.stack.stop('crm-people');
    try {
      expect((await client.rest(a, 'DELETE', `/companies/${late}`)).status).toBe(200);
    } finally {
      await client.stack.start('crm-people');
    }
    await eventually(async () => {
      expect((await readCard(a, p, lateCard)).companyId).toBeNull();
    }, SETTLE_MS);
  });
});

describe('managed-by and people (P6, P20)', () => {
  it('person deleted -> its managed-by relations are gone, the others stay', async () => {
    const m = await company(a, 'Managed One');
    const leaving = await person(a, 'Leo');
    const staying = await person(a, 'Stella');
    await manages(a, m, leaving, ACCOUNT_MANAGER);
    await manages(a, m, leaving, KEY_ACCOUNT_MANAGER);
    const kept = await manages(a, m, staying, ACCOUNT_MANAGER);
    expect((await client.rest(a, 'DELETE', `/people/${leaving}`)).status).toBe(200);
    await eventually(async () => {
      expect((await managers(a, m)).map((r) => r.id)).toEqual([kept]);
    }, SETTLE_MS);
  });

  it('people merged -> managed-by points at the target; a repeat of the target’s is dropped', async () => {
    const m1 = await company(a, 'Merge One');
    const m2 = await company(a, 'Merge Two');
    const target = await person(a, 'Tara');
    const source = await person(a, 'Sam');
    const own = await manages(a, m1, target, ACCOUNT_MANAGER);
    await manages(a, m1, source, ACCOUNT_MANAGER); // repeats the target's: dropped
    const moved = await manages(a, m2, source, KEY_ACCOUNT_MANAGER);
    const res = await client.rest(a, 'POST', '/people/merge', {
      targetId: target,
      sourceIds: [source],
    });
    expect(res.status).toBe(200);
    await eventually(async () => {
      expect(await managers(a, m2)).toEqual([
        expect.objectContaining({ id: moved, personId: target }),
      ]);
      expect(await managers(a, m1)).toEqual([
        expect.objectContaining({ id: own, personId: target }),
      ]);
    }, SETTLE_MS);
  });

  it('catch-up: crm-companies down while a person is deleted removes the relation once it is back', async () => {
    const m = await company(a, 'Managed Late');
    const leaving = await person(a, 'Lara');
    await manages(a, m, leaving, ACCOUNT_MANAGER);
    await client.stack.stop('crm-companies');
    try {
      expect((await client.rest(a, 'DELETE', `/people/${leaving}`)).status).toBe(200);
    } finally {
      await client.stack.start('crm-companies');
    }
    await eventually(async () => {
      expect(await managers(a, m)).toEqual([]);
    }, SETTLE_MS);
  });
});

/**
 * Counts the GraphQL operations a subgraph receives from the gateway. The gateway logs nothing
 * per call, so it is pointed at these pass-through proxies (restarted with their URLs): what
 * crosses them is exactly what the query planner sends, unlike SQL statistics, which the server
 * flushes late and which other work also moves.
 */
interface CountingProxy {
  url: string;
  /** Bodies of POST /graphql received since the last reset, schema polling left out. */
  operations: string[];
  close(): Promise<void>;
}

async function countingProxy(target: string): Promise<CountingProxy> {
  const operations: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const text = body.toString();
      if (req.method === 'POST' && req.url?.startsWith('/graphql') && !text.includes('_service')) {
        operations.push(text);
      }
      const forward = http.request(
        `${target}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    operations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('GraphQL across crm-companies and crm-people', () => {
  let people: CountingProxy;
  let companies: CountingProxy;
  const entities = (p: CountingProxy) => p.operations.filter((o) => o.includes('_entities'));
  const reset = () => {
    people.operations.length = 0;
    companies.operations.length = 0;
  };
  let t: TestTenant;
  let names: string[];
  let firstPerson: string;

  beforeAll(async () => {
    const stack = client.stack;
    people = await countingProxy(stack.processes.get('crm-people')!.url);
    companies = await countingProxy(stack.processes.get('crm-companies')!.url);
    const gateway = stack.processes.get('gateway')!;
    gateway.env.CRM_PEOPLE_URL = people.url;
    gateway.env.CRM_COMPANIES_URL = companies.url;
    await stack.stop('gateway');
    await stack.start('gateway');

    // a fresh tenant: three companies, each managed by two of four people, whose cards point
    // at the companies
    t = await client.tenant();
    names = ['Alpha', 'Bravo', 'Charlie'];
    const ids = [];
    for (const n of names) ids.push(await company(t, n));
    const persons = [];
    for (const n of ['Ada', 'Bert', 'Cleo', 'Dirk']) persons.push(await person(t, n));
    firstPerson = persons[0];
    for (const [i, c] of ids.entries()) {
      await manages(t, c, persons[i], ACCOUNT_MANAGER);
      await manages(t, c, persons[i + 1], KEY_ACCOUNT_MANAGER);
    }
    for (const [i, p] of persons.entries()) {
      for (const c of [ids[i % 3], ids[(i + 1) % 3]]) {
        const k = await card(t, p, { business: 'x' });
        expect((await connect(t, p, k, { companyId: c })).status).toBe(200);
      }
    }
  });
  afterAll(async () => {
    await people?.close();
    await companies?.close();
  });

  it('companies { managedBy { person } }: one crm-companies call, one _entities batch to crm-people', async () => {
    reset();
    const res = await client.graphql(
      t,
      `{ companies(sort: "name") { items { name managedBy { managerRole { id } person { firstname } } } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(
      res.body.data.companies.items.map((c: any) => [
        c.name,
        c.managedBy.map((m: any) => m.person.firstname),
      ]),
    ).toEqual([
      ['Alpha', ['Ada', 'Bert']],
      ['Bravo', ['Bert', 'Cleo']],
      ['Charlie', ['Cleo', 'Dirk']],
    ]);
    expect(companies.operations).toHaveLength(1);
    expect(people.operations).toHaveLength(1);
    expect(entities(people)).toHaveLength(1);
    // the one batch carries every person of the response (4 distinct of 6 references)
    expect(entities(people)[0].match(/"__typename":"Person"/g)!.length).toBeGreaterThanOrEqual(4);
  });

  it('person { cards { company } }: one crm-people call, one _entities batch to crm-companies', async () => {
    reset();
    const res = await client.graphql(
      t,
      `query($id: ID!) { person(id: $id) { firstname cards { company { name } } } }`,
      { id: firstPerson },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.person.firstname).toBe('Ada');
    expect(res.body.data.person.cards.map((k: any) => k.company.name).sort()).toEqual([
      'Alpha',
      'Bravo',
    ]);
    expect(people.operations).toHaveLength(1);
    expect(entities(companies)).toHaveLength(1);
    expect(companies.operations).toHaveLength(1);
  });

  it('three levels (companies -> people -> their cards’ companies): one call per level', async () => {
    reset();
    const res = await client.graphql(
      t,
      `{ companies(sort: "name") { items { name managedBy { person { firstname cards { company { name } } } } } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    const alpha = res.body.data.companies.items[0];
    expect(alpha.managedBy[0].person.cards.map((k: any) => k.company.name).sort()).toEqual([
      'Alpha',
      'Bravo',
    ]);
    // crm-companies: the list, then one batch of every card's company; crm-people: one batch
    expect(companies.operations).toHaveLength(2);
    expect(entities(companies)).toHaveLength(1);
    expect(people.operations).toHaveLength(1);
    expect(entities(people)).toHaveLength(1);
  });

  it('tenant isolation across subgraphs: another tenant sees none of it', async () => {
    const res = await client.graphql(
      b,
      `{ companies(pageSize: 500) { items { name managedBy { person { firstname } } } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    for (const c of res.body.data.companies.items) {
      expect(names).not.toContain(c.name);
      expect(c.managedBy).toEqual([]);
    }
    const person = await client.graphql(b, `query($id: ID!) { person(id: $id) { id } }`, {
      id: firstPerson,
    });
    expect(person.body.data.person).toBeNull();
  });
});
