import { randomUUID } from 'node:crypto';
import { ACCOUNT_MANAGER, KEY_ACCOUNT_MANAGER, ManagedByKit } from './test/managed-by-test-kit';

// M1-M7 over REST against the real service, database and NATS (crm-people answered by a
// stand-in on the real NATS): person and role confirmed before writing, 503 with nothing
// written when nobody answers, batches all or nothing, another tenant's ids 404 with nothing
// changed.

jest.setTimeout(60000);

let kit: ManagedByKit;

beforeAll(async () => {
  kit = await ManagedByKit.start('crm_companies_it_managed_by');
}, 60000);
afterAll(async () => {
  await kit?.close();
}, 30000);

const base = (companyId: string) => `/companies/${companyId}/managed-by`;

describe('M2 create one', () => {
  let company: string;
  let person: string;
  beforeAll(async () => {
    company = await kit.company();
    person = kit.people.person(kit.A);
  });

  it('creates the relation after crm-people confirmed person and role (201)', async () => {
    const asked = kit.people.asked.length;
    const res = await kit.call('POST', base(company), {
      personId: person,
      managerRoleId: ACCOUNT_MANAGER,
      since: '2024-01-01T00:00:00Z',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      personId: person,
      managerRole: { id: ACCOUNT_MANAGER },
      since: '2024-01-01T00:00:00.000Z',
      until: null,
      createdBy: 'test-suite',
      modifiedBy: 'test-suite',
      dateCreated: expect.stringMatching(/Z$/),
      dateModified: expect.stringMatching(/Z$/),
    });
    expect(kit.people.asked.slice(asked)).toEqual([
      { tenantId: kit.A, personIds: [person], managerRoleIds: [ACCOUNT_MANAGER] },
    ]);
    expect(await kit.rows(company)).toHaveLength(1);
  });

  it('refuses bad input with 400 naming field and rule, in German too, asking no one', async () => {
    const asked = kit.people.asked.length;
    const missing = await kit.call('POST', base(company), { managerRoleId: ACCOUNT_MANAGER });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([
      { field: 'personId', rule: 'isDefined', message: 'personId is required' },
    ]);
    const order = await kit.call(
      'POST',
      base(company),
      {
        personId: person,
        managerRoleId: KEY_ACCOUNT_MANAGER,
        since: '2024-05-01T00:00:00Z',
        until: '2024-04-01T00:00:00Z',
      },
      kit.A,
      { 'Accept-Language': 'de' },
    );
    expect(order.status).toBe(400);
    expect(order.body.errors).toEqual([
      {
        field: 'until',
        rule: 'notBefore',
        message: 'until darf nicht vor since liegen (2024-05-01T00:00:00.000Z)',
      },
    ]);
    const unknownField = await kit.call('POST', base(company), {
      personId: person,
      managerRoleId: ACCOUNT_MANAGER,
      role: 'x',
    });
    expect(unknownField.body.errors[0]).toMatchObject({
      field: 'role',
      rule: 'whitelistValidation',
    });
    expect(kit.people.asked.length).toBe(asked);
    expect(await kit.rows(company)).toHaveLength(1);
  });

  it('unknown manager role -> 400 on managerRoleId; unknown person -> 404 naming it', async () => {
    const role = await kit.call('POST', base(company), {
      personId: person,
      managerRoleId: randomUUID(),
    });
    expect(role.status).toBe(400);
    expect(role.body.errors).toEqual([
      {
        field: 'managerRoleId',
        rule: 'unknownManagerRole',
        message: 'managerRoleId does not name an entry of the people settings list manager-roles',
      },
    ]);
    const stranger = randomUUID();
    const nobody = await kit.call('POST', base(company), {
      personId: stranger,
      managerRoleId: ACCOUNT_MANAGER,
    });
    expect(nobody.status).toBe(404);
    expect(nobody.body.message).toBe(`Person ${stranger} was not found`);
    expect(nobody.body.errors).toEqual([
      {
        field: 'personId',
        rule: 'personNotFound',
        message: `personId: person ${stranger} was not found`,
      },
    ]);
    // a person of another tenant is unknown here
    const theirs = kit.people.person(kit.B);
    const foreign = await kit.call('POST', base(company), {
      personId: theirs,
      managerRoleId: ACCOUNT_MANAGER,
    });
    expect(foreign.status).toBe(404);
    // a tenant's own role is known to that tenant only
    const own = kit.people.role(kit.B);
    const foreignRole = await kit.call('POST', base(company), {
      personId: person,
      managerRoleId: own,
    });
    expect(foreignRole.status).toBe(400);
    expect(await kit.rows(company)).toHaveLength(1);
  });

  it('the same person in the same role again -> 409; in another role it is fine', async () => {
    const again = await kit.call('POST', base(company), {
      personId: person.toUpperCase(),
      managerRoleId: ACCOUNT_MANAGER,
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      `Person ${person} already manages this company in the role ${ACCOUNT_MANAGER}`,
    );
    expect(again.body.errors[0]).toMatchObject({ field: 'managerRoleId', rule: 'duplicate' });
    const other = await kit.call('POST', base(company), {
      personId: person,
      managerRoleId: KEY_ACCOUNT_MANAGER,
    });
    expect(other.status).toBe(201);
    expect(await kit.rows(company)).toHaveLength(2);
  });

  it('unknown, malformed or another tenant’s company -> 404 with nothing written and no one asked', async () => {
    const asked = kit.people.asked.length;
    const body = { personId: person, managerRoleId: ACCOUNT_MANAGER };
    expect((await kit.call('POST', base(randomUUID()), body)).status).toBe(404);
    expect((await kit.call('POST', base('not-a-uuid'), body)).status).toBe(404);
    const foreign = await kit.company(kit.B);
    const res = await kit.call('POST', base(foreign), body);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`Company ${foreign} was not found`);
    expect(await kit.rows(foreign)).toHaveLength(0);
    expect(kit.people.asked.length).toBe(asked);
  });

  it('crm-people not answering -> 503 naming it, nothing written', async () => {
    const other = await kit.company();
    await kit.people.stop();
    try {
      const res = await kit.call('POST', base(other), {
        personId: person,
        managerRoleId: ACCOUNT_MANAGER,
      });
      expect(res.status).toBe(503);
      expect(res.body.message).toContain('crm-people');
      expect(await kit.rows(other)).toHaveLength(0);
    } finally {
      await kit.people.start();
    }
  });
});

describe('M3 create several', () => {
  it('creates all, asking crm-people once per distinct role (people with the first)', async () => {
    const company = await kit.company();
    const [p1, p2] = [kit.people.person(kit.A), kit.people.person(kit.A)];
    const own = kit.people.role(kit.A);
    const asked = kit.people.asked.length;
    const res = await kit.call('POST', `${base(company)}/batch`, [
      { personId: p1, managerRoleId: ACCOUNT_MANAGER },
      { personId: p2, managerRoleId: own, since: '2023-01-01T00:00:00Z' },
      { personId: p1, managerRoleId: own },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.metaData.totalResults).toBe(3);
    expect(res.body.data.map((m: any) => [m.personId, m.managerRole.id])).toEqual([
      [p1, ACCOUNT_MANAGER],
      [p2, own],
      [p1, own],
    ]);
    // one request confirms every person and role of the batch
    expect(kit.people.asked.slice(asked)).toEqual([
      { tenantId: kit.A, personIds: [p1, p2], managerRoleIds: [ACCOUNT_MANAGER, own] },
    ]);
    expect(await kit.rows(company)).toHaveLength(3);
  });

  it('is all or nothing: every problem by index (400), unknown people (404), repeats (409)', async () => {
    const company = await kit.company();
    const p = kit.people.person(kit.A);
    const bad = await kit.call('POST', `${base(company)}/batch`, [
      { personId: p, managerRoleId: ACCOUNT_MANAGER },
      { personId: 'x', managerRoleId: ACCOUNT_MANAGER },
      { personId: p, managerRoleId: KEY_ACCOUNT_MANAGER, since: '2024-02-01', until: '2024-01-01' },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => [e.field, e.rule])).toEqual([
      ['[1].personId', 'isUuid'],
    ]);
    const order = await kit.call('POST', `${base(company)}/batch`, [
      { personId: p, managerRoleId: ACCOUNT_MANAGER },
      { personId: p, managerRoleId: KEY_ACCOUNT_MANAGER, since: '2024-02-01', until: '2024-01-01' },
    ]);
    expect(order.status).toBe(400);
    expect(order.body.errors.map((e: any) => [e.field, e.rule])).toEqual([
      ['[1].until', 'notBefore'],
    ]);

    const stranger = randomUUID();
    const nobody = await kit.call('POST', `${base(company)}/batch`, [
      { personId: p, managerRoleId: ACCOUNT_MANAGER },
      { personId: stranger, managerRoleId: ACCOUNT_MANAGER },
      { personId: stranger, managerRoleId: KEY_ACCOUNT_MANAGER },
    ]);
    expect(nobody.status).toBe(404);
    expect(nobody.body.errors.map((e: any) => e.field)).toEqual(['[1].personId', '[2].personId']);
    const role = await kit.call('POST', `${base(company)}/batch`, [
      { personId: p, managerRoleId: ACCOUNT_MANAGER },
      { personId: p, managerRoleId: randomUUID() },
    ]);
    expect(role.status).toBe(400);
    expect(role.body.errors.map((e: any) => [e.field, e.rule])).toEqual([
      ['[1].managerRoleId', 'unknownManagerRole'],
    ]);
    const twice = await kit.call('POST', `${base(company)}/batch`, [
      { personId: p, managerRoleId: ACCOUNT_MANAGER },
      { personId: p, managerRoleId: ACCOUNT_MANAGER },
    ]);
    expect(twice.status).toBe(409);
    expect(twice.body.errors.map((e: any) => [e.field, e.rule])).toEqual([
      ['[1].managerRoleId', 'duplicate'],
    ]);
    expect(await kit.rows(company)).toHaveLength(0);

    await kit.call('POST', base(company), { personId: p, managerRoleId: KEY_ACCOUNT_MANAGER });
    const existing = await kit.call('POST', `${base(company)}/batch`, [
      { personId: p, managerRoleId: ACCOUNT_MANAGER },
      { personId: p, managerRoleId: KEY_ACCOUNT_MANAGER },
    ]);
    expect(existing.status).toBe(409);
    expect(existing.body.errors[0].field).toBe('[1].managerRoleId');
    expect(await kit.rows(company)).toHaveLength(1);
  });

  it('refuses a body that is not a list of 1 to 1000 items', async () => {
    const company = await kit.company();
    const item = { personId: kit.people.person(kit.A), managerRoleId: ACCOUNT_MANAGER };
    const obj = await kit.call('POST', `${base(company)}/batch`, item);
    expect(obj.status).toBe(400);
    expect(obj.body.errors[0]).toMatchObject({ field: 'body', rule: 'isArray' });
    expect((await kit.call('POST', `${base(company)}/batch`, [])).body.errors[0].rule).toBe(
      'arrayMinSize',
    );
    const many = await kit.call('POST', `${base(company)}/batch`, Array(1001).fill(item));
    expect(many.status).toBe(400);
    expect(many.body.errors[0]).toMatchObject({ field: 'body', rule: 'arrayMaxSize' });
  });

  it('another tenant’s company -> 404; crm-people down -> 503; nothing written', async () => {
    const foreign = await kit.company(kit.B);
    const item = { personId: kit.people.person(kit.B), managerRoleId: ACCOUNT_MANAGER };
    expect((await kit.call('POST', `${base(foreign)}/batch`, [item])).status).toBe(404);
    const mine = await kit.company();
    await kit.people.stop();
    try {
      const res = await kit.call('POST', `${base(mine)}/batch`, [
        { personId: kit.people.person(kit.A), managerRoleId: ACCOUNT_MANAGER },
      ]);
      expect(res.status).toBe(503);
    } finally {
      await kit.people.start();
    }
    expect(await kit.rows(foreign)).toHaveLength(0);
    expect(await kit.rows(mine)).toHaveLength(0);
  });
});

describe('M1 list', () => {
  let company: string;
  let people: string[];
  beforeAll(async () => {
    company = await kit.company();
    people = [kit.people.person(kit.A), kit.people.person(kit.A), kit.people.person(kit.A)];
    for (const [i, p] of people.entries()) {
      const res = await kit.call('POST', base(company), {
        personId: p,
        managerRoleId: i === 2 ? KEY_ACCOUNT_MANAGER : ACCOUNT_MANAGER,
        since: `202${3 - i}-01-01T00:00:00Z`,
      });
      expect(res.status).toBe(201);
    }
  });

  it('pages (oldest first by default) with the total across pages', async () => {
    const first = await kit.call('GET', `${base(company)}?pageSize=2`);
    expect(first.status).toBe(200);
    expect(first.body.metaData.totalResults).toBe(3);
    expect(first.body.data.map((m: any) => m.personId)).toEqual(people.slice(0, 2));
    const second = await kit.call('GET', `${base(company)}?pageSize=2&page=2`);
    expect(second.body.data.map((m: any) => m.personId)).toEqual([people[2]]);
  });

  it('sorts and filters', async () => {
    const bySince = await kit.call('GET', `${base(company)}?sort=since`);
    expect(bySince.body.data.map((m: any) => m.personId)).toEqual([...people].reverse());
    const role = await kit.call('GET', `${base(company)}?managerRoleId=${KEY_ACCOUNT_MANAGER}`);
    expect(role.body.data.map((m: any) => m.personId)).toEqual([people[2]]);
    expect(role.body.metaData.totalResults).toBe(1);
    const person = await kit.call('GET', `${base(company)}?personId=${people[1]}`);
    expect(person.body.data.map((m: any) => m.personId)).toEqual([people[1]]);
  });

  it('bad paging or sort -> 400; unknown or another tenant’s company -> 404', async () => {
    const sort = await kit.call('GET', `${base(company)}?sort=lastname`);
    expect(sort.status).toBe(400);
    expect(sort.body.errors[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
    const size = await kit.call('GET', `${base(company)}?pageSize=501`);
    expect(size.status).toBe(400);
    expect(size.body.errors[0]).toMatchObject({ field: 'pageSize', rule: 'max' });
    expect((await kit.call('GET', `${base(company)}?q=x`)).status).toBe(400);
    expect((await kit.call('GET', base(randomUUID()))).status).toBe(404);
    expect((await kit.call('GET', base(company), undefined, kit.B)).status).toBe(404);
  });
});

describe('M5 update one', () => {
  let company: string;
  let person: string;
  let relation: string;
  beforeAll(async () => {
    company = await kit.company();
    person = kit.people.person(kit.A);
    const res = await kit.call('POST', base(company), {
      personId: person,
      managerRoleId: ACCOUNT_MANAGER,
      since: '2022-01-01T00:00:00Z',
    });
    relation = res.body.data.id;
    await kit.call('POST', base(company), { personId: person, managerRoleId: KEY_ACCOUNT_MANAGER });
  });

  it('changes the given fields only; dates need no one else, even with crm-people down', async () => {
    await kit.people.stop();
    try {
      const res = await kit.call('PUT', `${base(company)}/${relation}`, {
        until: '2025-12-31T00:00:00Z',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: relation,
        personId: person,
        managerRole: { id: ACCOUNT_MANAGER },
        since: '2022-01-01T00:00:00.000Z',
        until: '2025-12-31T00:00:00.000Z',
      });
      const cleared = await kit.call('PUT', `${base(company)}/${relation}`, { since: null });
      expect(cleared.body.data.since).toBeNull();
      expect(cleared.body.data.until).toBe('2025-12-31T00:00:00.000Z');
      // a new role must be confirmed: with nobody answering, nothing changes
      const role = kit.people.role(kit.A);
      const down = await kit.call('PUT', `${base(company)}/${relation}`, { managerRoleId: role });
      expect(down.status).toBe(503);
    } finally {
      await kit.people.start();
    }
    const row = (await kit.rows(company)).find((r) => r.id === relation)!;
    expect(row.managerRoleId).toBe(ACCOUNT_MANAGER);
  });

  it('a new role or person is confirmed: unknown role 400, unknown person 404, repeat 409', async () => {
    const role = await kit.call('PUT', `${base(company)}/${relation}`, {
      managerRoleId: randomUUID(),
    });
    expect(role.status).toBe(400);
    expect(role.body.errors[0]).toMatchObject({
      field: 'managerRoleId',
      rule: 'unknownManagerRole',
    });
    const person404 = await kit.call('PUT', `${base(company)}/${relation}`, {
      personId: randomUUID(),
    });
    expect(person404.status).toBe(404);
    expect(person404.body.errors[0]).toMatchObject({ field: 'personId', rule: 'personNotFound' });
    const repeat = await kit.call('PUT', `${base(company)}/${relation}`, {
      managerRoleId: KEY_ACCOUNT_MANAGER,
    });
    expect(repeat.status).toBe(409);
    const own = kit.people.role(kit.A);
    const other = kit.people.person(kit.A);
    const ok = await kit.call('PUT', `${base(company)}/${relation}`, {
      managerRoleId: own,
      personId: other,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ personId: other, managerRole: { id: own } });
  });

  it('bad values -> 400 (null person, until before the stored since); nothing changed', async () => {
    const before = (await kit.rows(company)).find((r) => r.id === relation)!;
    const nullPerson = await kit.call('PUT', `${base(company)}/${relation}`, { personId: null });
    expect(nullPerson.status).toBe(400);
    expect(nullPerson.body.errors[0]).toMatchObject({ field: 'personId', rule: 'isUuid' });
    await kit.call('PUT', `${base(company)}/${relation}`, { since: '2024-06-01T00:00:00Z' });
    const order = await kit.call('PUT', `${base(company)}/${relation}`, {
      until: '2024-01-01T00:00:00Z',
    });
    expect(order.status).toBe(400);
    expect(order.body.errors[0]).toMatchObject({ field: 'until', rule: 'notBefore' });
    const after = (await kit.rows(company)).find((r) => r.id === relation)!;
    expect(after.personId).toBe(before.personId);
    expect(after.until).toEqual(before.until);
  });

  it('unknown relation, another company’s or another tenant’s -> 404, unchanged', async () => {
    expect((await kit.call('PUT', `${base(company)}/${randomUUID()}`, {})).status).toBe(404);
    expect((await kit.call('PUT', `${base(company)}/nope`, {})).status).toBe(404);
    const otherCompany = await kit.company();
    const wrong = await kit.call('PUT', `${base(otherCompany)}/${relation}`, { since: null });
    expect(wrong.status).toBe(404);
    expect(wrong.body.errors[0]).toMatchObject({ field: 'relationId', rule: 'managerNotFound' });
    const foreign = await kit.call('PUT', `${base(company)}/${relation}`, { until: null }, kit.B);
    expect(foreign.status).toBe(404);
    const row = (await kit.rows(company)).find((r) => r.id === relation)!;
    expect(row.since).not.toBeNull();
    expect(row.until).not.toBeNull();
  });
});

describe('M4 update several', () => {
  it('updates all or nothing; items named by index', async () => {
    const company = await kit.company();
    const [p1, p2] = [kit.people.person(kit.A), kit.people.person(kit.A)];
    const created = await kit.call('POST', `${base(company)}/batch`, [
      { personId: p1, managerRoleId: ACCOUNT_MANAGER },
      { personId: p2, managerRoleId: ACCOUNT_MANAGER },
    ]);
    const [r1, r2] = created.body.data.map((m: any) => m.id);

    const res = await kit.call('PUT', `${base(company)}/batch`, [
      { id: r1, since: '2020-01-01T00:00:00Z' },
      { id: r2, managerRoleId: KEY_ACCOUNT_MANAGER },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: any) => [m.id, m.since, m.managerRole.id])).toEqual([
      [r1, '2020-01-01T00:00:00.000Z', ACCOUNT_MANAGER],
      [r2, null, KEY_ACCOUNT_MANAGER],
    ]);

    const twice = await kit.call('PUT', `${base(company)}/batch`, [{ id: r1 }, { id: r1 }]);
    expect(twice.status).toBe(400);
    expect(twice.body.errors[0]).toMatchObject({ field: '[1].id', rule: 'duplicateItem' });
    const unknown = await kit.call('PUT', `${base(company)}/batch`, [
      { id: r1, until: '2030-01-01T00:00:00Z' },
      { id: randomUUID() },
    ]);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0]).toMatchObject({ field: '[1].id', rule: 'managerNotFound' });
    const repeat = await kit.call('PUT', `${base(company)}/batch`, [
      { id: r1, until: '2030-01-01T00:00:00Z' },
      { id: r2, managerRoleId: ACCOUNT_MANAGER, personId: p1 },
    ]);
    expect(repeat.status).toBe(409);
    expect(repeat.body.errors[0]).toMatchObject({ field: '[1].managerRoleId', rule: 'duplicate' });
    const bad = await kit.call('PUT', `${base(company)}/batch`, [
      { id: r1, until: '2030-01-01T00:00:00Z' },
      { id: r2, since: 'yesterday' },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: '[1].since', rule: 'isIso8601' });
    expect((await kit.rows(company)).map((r) => r.until)).toEqual([null, null]);

    const foreign = await kit.call(
      'PUT',
      `${base(company)}/batch`,
      [{ id: r1, since: null }],
      kit.B,
    );
    expect(foreign.status).toBe(404);
    expect((await kit.rows(company)).find((r) => r.id === r1)!.since).not.toBeNull();
  });
});

describe('M6, M7 delete', () => {
  it('M7 deletes one and answers it; again or another tenant -> 404', async () => {
    const company = await kit.company();
    const created = await kit.call('POST', base(company), {
      personId: kit.people.person(kit.A),
      managerRoleId: ACCOUNT_MANAGER,
    });
    const id = created.body.data.id;
    expect((await kit.call('DELETE', `${base(company)}/${id}`, undefined, kit.B)).status).toBe(404);
    expect(await kit.rows(company)).toHaveLength(1);
    const res = await kit.call('DELETE', `${base(company)}/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(created.body.data);
    expect(await kit.rows(company)).toHaveLength(0);
    expect((await kit.call('DELETE', `${base(company)}/${id}`)).status).toBe(404);
  });

  it('M6 deletes all or nothing: an id of another company -> 404 naming it', async () => {
    const company = await kit.company();
    const other = await kit.company();
    const p = kit.people.person(kit.A);
    const mine = await kit.call('POST', `${base(company)}/batch`, [
      { personId: p, managerRoleId: ACCOUNT_MANAGER },
      { personId: p, managerRoleId: KEY_ACCOUNT_MANAGER },
    ]);
    const theirs = await kit.call('POST', base(other), {
      personId: p,
      managerRoleId: ACCOUNT_MANAGER,
    });
    const ids = mine.body.data.map((m: any) => m.id);
    const refused = await kit.call('DELETE', `${base(company)}/batch`, {
      ids: [...ids, theirs.body.data.id],
    });
    expect(refused.status).toBe(404);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ field: 'ids[2]', rule: 'managerNotFound' }),
    ]);
    expect(await kit.rows(company)).toHaveLength(2);
    const bad = await kit.call('DELETE', `${base(company)}/batch`, { ids: ['x'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'ids', rule: 'isUuid' });
    expect((await kit.call('DELETE', `${base(company)}/batch`, { ids }, kit.B)).status).toBe(404);
    const res = await kit.call('DELETE', `${base(company)}/batch`, { ids });
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: any) => m.id)).toEqual(ids);
    expect(await kit.rows(company)).toHaveLength(0);
    expect(await kit.rows(other)).toHaveLength(1);
  });
});
