import { randomUUID } from 'node:crypto';
import { PrismaService } from '../database/prisma.service';
import { clientOf, CompaniesUnderTest, startWithStorage } from '../files/test/files-harness';
import { SYSTEM_ENTRIES } from '../settings/system-entries';

// C29, C30 against the real service: one row per relation listed by both companies, the type
// translated, the rules (400/404/409), and another tenant's ids answered 404 with nothing changed.

jest.setTimeout(30000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;
const type = (key: string) => SYSTEM_ENTRIES.RELATION_TYPES!.find((e) => e.key === key)!.id;
const SUBSIDIARY = type('subsidiary');
const SUPPLIER = type('supplier');
const PARTNER = type('partner');

let svc: CompaniesUnderTest;
const { call, gql, company } = clientOf(() => svc, A);

const relate = (from: string, to: string, typeId: string, extra: Record<string, unknown> = {}) =>
  call('POST', `/companies/${from}/relations`, {
    relatedCompanyId: to,
    relationType: { id: typeId },
    ...extra,
  });
const rows = (ids: string[]) =>
  svc.db.companyRelation.findMany({
    where: { OR: [{ fromCompanyId: { in: ids } }, { toCompanyId: { in: ids } }] },
  });

beforeAll(async () => {
  svc = await startWithStorage('crm_companies_it_relations');
}, 60000);
afterAll(async () => {
  await svc?.stop();
});

describe('C29 POST /companies/{id}/relations', () => {
  it('writes one row and answers it from the writing side', async () => {
    const [parent, child] = [await company('Holding AG'), await company('Tochter GmbH')];
    const res = await relate(child, parent, SUBSIDIARY, {
      since: '2020-01-01',
      note: '  100 % owned ',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      direction: 'outgoing',
      company: { id: parent, name: 'Holding AG' },
      relationType: { id: SUBSIDIARY, text: 'Subsidiary' },
      fromCompanyId: child,
      toCompanyId: parent,
      since: '2020-01-01T00:00:00.000Z',
      until: null,
      note: '100 % owned',
      dateCreated: expect.stringMatching(/Z$/),
      dateModified: expect.stringMatching(/Z$/),
    });
    expect(await rows([child])).toHaveLength(1);
  });

  it('accepts a type of the tenant and translates system types', async () => {
    const [a, b] = [await company('Alpha'), await company('Beta')];
    const own = await svc.db.companySettingsEntry.create({
      data: { tenantId: A, list: 'RELATION_TYPES', text: 'Joint venture' },
    });
    const res = await relate(a, b, own.id);
    expect(res.body.data.relationType).toEqual({ id: own.id, text: 'Joint venture' });
    const de = await call(
      'POST',
      `/companies/${a}/relations`,
      { relatedCompanyId: b, relationType: { id: SUPPLIER } },
      A,
      { 'Accept-Language': 'de' },
    );
    expect(de.body.data.relationType).toEqual({ id: SUPPLIER, text: 'Lieferant' });
  });

  it('400: to itself, until before since, unknown type, bad fields; translated', async () => {
    const [a, b] = [await company(), await company()];
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { relatedCompanyId: a, relationType: { id: SUBSIDIARY } },
        'relatedCompanyId',
        'selfRelation',
      ],
      [
        {
          relatedCompanyId: b,
          relationType: { id: SUBSIDIARY },
          since: '2024-05-01',
          until: '2024-04-30',
        },
        'until',
        'notBefore',
      ],
      [
        { relatedCompanyId: b, relationType: { id: randomUUID() } },
        'relationType.id',
        'unknownEntry',
      ],
      [{ relatedCompanyId: b, relationType: { id: 'x' } }, 'relationType.id', 'isUuid'],
      [{ relatedCompanyId: b }, 'relationType', 'isDefined'],
      [
        { relatedCompanyId: 'nope', relationType: { id: SUBSIDIARY } },
        'relatedCompanyId',
        'isUuid',
      ],
      [
        { relatedCompanyId: b, relationType: { id: SUBSIDIARY }, since: 'yesterday' },
        'since',
        'isIso8601',
      ],
      [
        { relatedCompanyId: b, relationType: { id: SUBSIDIARY }, note: 'x'.repeat(1001) },
        'note',
        'maxLength',
      ],
      [
        { relatedCompanyId: b, relationType: { id: SUBSIDIARY }, direction: 'incoming' },
        'direction',
        'whitelistValidation',
      ],
    ];
    for (const [body, field, rule] of cases) {
      const res = await call('POST', `/companies/${a}/relations`, body);
      expect([res.status, res.body.errors?.[0]?.field, res.body.errors?.[0]?.rule]).toEqual([
        400,
        field,
        rule,
      ]);
    }
    const self = await call(
      'POST',
      `/companies/${a}/relations`,
      { relatedCompanyId: a.toUpperCase(), relationType: { id: SUBSIDIARY } },
      A,
      { 'Accept-Language': 'de' },
    );
    expect(self.body.errors).toEqual([
      {
        field: 'relatedCompanyId',
        rule: 'selfRelation',
        message: 'relatedCompanyId: ein Unternehmen kann nicht mit sich selbst in Beziehung stehen',
      },
    ]);
    expect(await rows([a, b])).toEqual([]);
  });

  it('404 for an unknown or foreign company on either side; nothing written', async () => {
    const mine = await company('Mine');
    const foreign = await company('Foreign', B);
    const related = await relate(mine, foreign, SUBSIDIARY);
    expect(related.status).toBe(404);
    expect(related.body.errors[0]).toMatchObject({
      field: 'relatedCompanyId',
      rule: 'companyNotFound',
    });
    expect((await relate(mine, randomUUID(), SUBSIDIARY)).status).toBe(404);
    expect((await relate(foreign, mine, SUBSIDIARY)).status).toBe(404);
    expect((await relate(randomUUID(), mine, SUBSIDIARY)).status).toBe(404);
    const asB = await call(
      'POST',
      `/companies/${mine}/relations`,
      { relatedCompanyId: foreign, relationType: { id: SUBSIDIARY } },
      B,
    );
    expect(asB.status).toBe(404);
    expect(await rows([mine, foreign])).toEqual([]);
  });

  it('409 for the same (from, to, type); the reverse or another type is another relation', async () => {
    const [a, b] = [await company(), await company()];
    expect((await relate(a, b, PARTNER)).status).toBe(201);
    const again = await relate(a, b, PARTNER);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      message: 'The companies are related by this type already',
      errors: [{ field: 'relationType.id', rule: 'duplicate' }],
    });
    expect((await relate(b, a, PARTNER)).status).toBe(201);
    expect((await relate(a, b, SUPPLIER)).status).toBe(201);
    const race = await Promise.all([relate(a, b, SUBSIDIARY), relate(a, b, SUBSIDIARY)]);
    expect(race.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await rows([a])).toHaveLength(4);
  });
});

describe('C29 GET /companies/{id}/relations', () => {
  it('lists both directions with the other company and the type, paged, filtered, searched', async () => {
    const hub = await company('Hub');
    const [x, y, z] = [
      await company('Xeno Ltd'),
      await company('Yoko AG'),
      await company('Zeta SE'),
    ];
    const r1 = (await relate(hub, x, SUPPLIER)).body.data;
    const r2 = (await relate(y, hub, SUBSIDIARY, { until: '2030-12-31T12:00:00Z' })).body.data;
    const r3 = (await relate(hub, z, PARTNER)).body.data;

    const all = await call('GET', `/companies/${hub}/relations`);
    expect(all.status).toBe(200);
    expect(all.body.metaData.totalResults).toBe(3);
    expect(
      all.body.data.map((r: any) => [r.id, r.direction, r.company.name, r.relationType.text]),
    ).toEqual([
      [r1.id, 'outgoing', 'Xeno Ltd', 'Supplier'],
      [r2.id, 'incoming', 'Yoko AG', 'Subsidiary'],
      [r3.id, 'outgoing', 'Zeta SE', 'Partner'],
    ]);
    // the other side sees the same row
    const other = await call('GET', `/companies/${y}/relations`);
    expect(other.body.data).toEqual([
      expect.objectContaining({
        id: r2.id,
        direction: 'outgoing',
        company: { id: hub, name: 'Hub' },
      }),
    ]);

    const page = await call('GET', `/companies/${hub}/relations?pageSize=2&page=2`);
    expect(page.body.metaData.totalResults).toBe(3);
    expect(page.body.data.map((r: any) => r.id)).toEqual([r3.id]);
    const incoming = await call('GET', `/companies/${hub}/relations?direction=incoming`);
    expect(incoming.body.data.map((r: any) => r.id)).toEqual([r2.id]);
    const outgoing = await call(
      'GET',
      `/companies/${hub}/relations?direction=outgoing&sort=-dateCreated`,
    );
    expect(outgoing.body.data.map((r: any) => r.id)).toEqual([r3.id, r1.id]);
    const byType = await call('GET', `/companies/${hub}/relations?relationTypeId=${PARTNER}`);
    expect(byType.body.data.map((r: any) => r.id)).toEqual([r3.id]);
    const q = await call('GET', `/companies/${hub}/relations?q=yoko`);
    expect(q.body.data.map((r: any) => r.id)).toEqual([r2.id]);
    const byUntil = await call('GET', `/companies/${hub}/relations?sort=until`);
    expect(byUntil.body.data[0].id).toBe(r2.id);
    const de = await call('GET', `/companies/${hub}/relations`, undefined, A, {
      'Accept-Language': 'de',
    });
    expect(de.body.data.map((r: any) => r.relationType.text)).toEqual([
      'Lieferant',
      'Tochtergesellschaft',
      'Partner',
    ]);

    expect((await call('GET', `/companies/${hub}/relations?direction=up`)).status).toBe(400);
    expect((await call('GET', `/companies/${hub}/relations?sort=note`)).status).toBe(400);
    expect((await call('GET', `/companies/${hub}/relations`, undefined, B)).status).toBe(404);
    expect((await call('GET', `/companies/${randomUUID()}/relations`)).status).toBe(404);
  });

  it('loads a page in a fixed number of queries, however many relations it has', async () => {
    const hub = await company('Counted');
    // One query for the rows (both companies joined), one for the tenant's type entries.
    // on the app's own client (svc.db is a view of it that sees every tenant)
    const appDb = svc.app.get(PrismaService);
    const spy = jest.spyOn(appDb.companyRelation, 'findMany');
    const entriesSpy = jest.spyOn(appDb.companySettingsEntry, 'findMany');
    const own = await svc.db.companySettingsEntry.create({
      data: { tenantId: A, list: 'RELATION_TYPES', text: 'Counted type' },
    });
    for (let i = 0; i < 6; i++) {
      const other = await company(`Other ${i}`);
      await (i % 2 ? relate(hub, other, own.id) : relate(other, hub, SUBSIDIARY));
    }
    spy.mockClear();
    entriesSpy.mockClear();
    const res = await call('GET', `/companies/${hub}/relations`);
    expect(res.body.data).toHaveLength(6);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(entriesSpy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    entriesSpy.mockRestore();
  });
});

describe('C30 PUT/DELETE /companies/{id}/relations/{relationId}', () => {
  it('updates given fields from either side; null clears', async () => {
    const [a, b] = [await company('Anton'), await company('Berta')];
    const rel = (await relate(a, b, PARTNER, { since: '2021-01-01', note: 'n' })).body.data;
    const res = await call('PUT', `/companies/${a}/relations/${rel.id}`, {
      until: '2025-06-30',
      note: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: rel.id,
      since: '2021-01-01T00:00:00.000Z',
      until: '2025-06-30T00:00:00.000Z',
      note: null,
      relationType: { id: PARTNER, text: 'Partner' },
    });
    const incoming = await call('PUT', `/companies/${b}/relations/${rel.id}`, {
      relationType: { id: SUPPLIER },
      since: null,
    });
    expect(incoming.status).toBe(200);
    expect(incoming.body.data).toMatchObject({
      direction: 'incoming',
      company: { id: a, name: 'Anton' },
      relationType: { id: SUPPLIER, text: 'Supplier' },
      since: null,
    });
    expect(await rows([a])).toMatchObject([{ id: rel.id, relationTypeId: SUPPLIER, since: null }]);
  });

  it('400 as on create, 409 for a type that makes it an existing relation', async () => {
    const [a, b] = [await company(), await company()];
    const rel = (await relate(a, b, PARTNER, { since: '2022-01-01' })).body.data;
    await relate(a, b, SUPPLIER);
    const early = await call('PUT', `/companies/${a}/relations/${rel.id}`, { until: '2021-12-31' });
    expect(early.status).toBe(400);
    expect(early.body.errors[0]).toMatchObject({ field: 'until', rule: 'notBefore' });
    const unknown = await call('PUT', `/companies/${a}/relations/${rel.id}`, {
      relationType: { id: randomUUID() },
    });
    expect(unknown.body.errors[0]).toMatchObject({
      field: 'relationType.id',
      rule: 'unknownEntry',
    });
    const move = await call('PUT', `/companies/${a}/relations/${rel.id}`, { relatedCompanyId: a });
    expect(move.body.errors[0]).toMatchObject({
      field: 'relatedCompanyId',
      rule: 'whitelistValidation',
    });
    const clash = await call('PUT', `/companies/${a}/relations/${rel.id}`, {
      relationType: { id: SUPPLIER },
    });
    expect(clash.status).toBe(409);
    expect((await rows([a])).find((r) => r.id === rel.id)).toMatchObject({
      relationTypeId: PARTNER,
      until: null,
    });
  });

  it('DELETE from either side removes it for both; answers the removed relation', async () => {
    const [a, b] = [await company('Del A'), await company('Del B')];
    const one = (await relate(a, b, PARTNER)).body.data;
    const two = (await relate(a, b, SUPPLIER)).body.data;
    const del = await call('DELETE', `/companies/${b}/relations/${one.id}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toMatchObject({ id: one.id, direction: 'incoming', company: { id: a } });
    const fromA = await call('DELETE', `/companies/${a}/relations/${two.id}`);
    expect(fromA.body.data).toMatchObject({ id: two.id, direction: 'outgoing' });
    expect(await rows([a, b])).toEqual([]);
    expect((await call('DELETE', `/companies/${a}/relations/${two.id}`)).status).toBe(404);
  });

  it("404 for unknown relations, a third company's and another tenant's; nothing changes", async () => {
    const [a, b, c] = [await company(), await company(), await company()];
    const rel = (await relate(a, b, PARTNER, { note: 'keep' })).body.data;
    for (const [companyId, relationId, tenant] of [
      [a, randomUUID(), A],
      [a, 'nope', A],
      [c, rel.id, A],
      [a, rel.id, B],
      [b, rel.id, B],
    ]) {
      const put = await call(
        'PUT',
        `/companies/${companyId}/relations/${relationId}`,
        { note: 'changed' },
        tenant,
      );
      expect(put.status).toBe(404);
      const del = await call(
        'DELETE',
        `/companies/${companyId}/relations/${relationId}`,
        undefined,
        tenant,
      );
      expect(del.status).toBe(404);
    }
    const msg = await call('PUT', `/companies/${c}/relations/${rel.id}`, {});
    expect(msg.body.message).toBe(`Company relation ${rel.id} was not found`);
    expect(await rows([a])).toMatchObject([{ id: rel.id, note: 'keep' }]);
  });
});

describe('GraphQL', () => {
  const FIELDS =
    'id direction company { id name } relationType { id text } fromCompanyId toCompanyId since until note';

  it('every relation operation, with the REST rules', async () => {
    const [a, b] = [await company('GQL A'), await company('GQL B')];
    const created = await gql(
      `mutation($c: ID!, $input: CreateCompanyRelationInput!) { createCompanyRelation(companyId: $c, input: $input) { ${FIELDS} } }`,
      {
        c: a,
        input: { relatedCompanyId: b, relationType: { id: SUBSIDIARY }, since: '2020-02-02' },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const rel = created.body.data.createCompanyRelation;
    expect(rel).toMatchObject({
      direction: 'outgoing',
      company: { id: b, name: 'GQL B' },
      relationType: { id: SUBSIDIARY, text: 'Subsidiary' },
    });

    const list = await gql(
      `query($c: ID!) { companyRelations(companyId: $c, page: 1, pageSize: 10, direction: "incoming") { totalResults items { ${FIELDS} } } }`,
      { c: b },
    );
    expect(list.body.data.companyRelations).toEqual({
      totalResults: 1,
      items: [
        expect.objectContaining({
          id: rel.id,
          direction: 'incoming',
          company: { id: a, name: 'GQL A' },
        }),
      ],
    });

    const updated = await gql(
      `mutation($c: ID!, $r: ID!, $input: UpdateCompanyRelationInput!) { updateCompanyRelation(companyId: $c, relationId: $r, input: $input) { ${FIELDS} } }`,
      { c: b, r: rel.id, input: { note: 'seen from B' } },
    );
    expect(updated.body.data.updateCompanyRelation).toMatchObject({
      note: 'seen from B',
      direction: 'incoming',
    });

    const self = await gql(
      `mutation($c: ID!, $input: CreateCompanyRelationInput!) { createCompanyRelation(companyId: $c, input: $input) { id } }`,
      { c: a, input: { relatedCompanyId: a, relationType: { id: SUBSIDIARY } } },
    );
    expect(self.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
      errors: [expect.objectContaining({ field: 'relatedCompanyId', rule: 'selfRelation' })],
    });
    const dup = await gql(
      `mutation($c: ID!, $input: CreateCompanyRelationInput!) { createCompanyRelation(companyId: $c, input: $input) { id } }`,
      { c: a, input: { relatedCompanyId: b, relationType: { id: SUBSIDIARY } } },
    );
    expect(dup.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
    const foreign = await gql(
      `mutation($c: ID!, $r: ID!) { deleteCompanyRelation(companyId: $c, relationId: $r) { id } }`,
      { c: a, r: rel.id },
      B,
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });

    const deleted = await gql(
      `mutation($c: ID!, $r: ID!) { deleteCompanyRelation(companyId: $c, relationId: $r) { id direction } }`,
      { c: a, r: rel.id },
    );
    expect(deleted.body.data.deleteCompanyRelation).toEqual({ id: rel.id, direction: 'outgoing' });
    expect(await rows([a])).toEqual([]);
  });
});
