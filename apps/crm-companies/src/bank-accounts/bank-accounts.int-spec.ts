import { randomUUID } from 'node:crypto';
import { clientOf, CompaniesUnderTest, startWithStorage } from '../files/test/files-harness';

// C26, C27 against the real service and database: IBAN/BIC rules, the favorite rule under
// concurrency, 409 on a repeated IBAN, and another tenant's ids answered 404 with nothing changed.

jest.setTimeout(30000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;
const DE = 'DE89370400440532013000';
const DE2 = 'DE02120300000000202051';
const DE3 = 'DE02500105170137075030';
const GB = 'GB29NWBK60161331926819';

let svc: CompaniesUnderTest;
const { call, gql, company } = clientOf(() => svc, A);

const accounts = (companyId: string) =>
  svc.db.companyBankAccount.findMany({ where: { companyId }, orderBy: { position: 'asc' } });
const add = (companyId: string, body: Record<string, unknown>) =>
  call('POST', `/companies/${companyId}/bank-accounts`, body);

beforeAll(async () => {
  svc = await startWithStorage('crm_companies_it_bank_accounts');
}, 60000);
afterAll(async () => {
  await svc?.stop();
});

describe('C26 POST /companies/{id}/bank-accounts', () => {
  it('stores the IBAN in electronic format, answers the paper format; the first is the favorite', async () => {
    const id = await company();
    const res = await add(id, {
      iban: ' de89 3704 0044 0532 0130 00',
      bic: 'cobadeff xxx',
      bankName: '  Commerzbank ',
      accountHolder: 'Acme GmbH',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      iban: DE,
      ibanFormatted: 'DE89 3704 0044 0532 0130 00',
      bic: 'COBADEFFXXX',
      bankName: 'Commerzbank',
      accountHolder: 'Acme GmbH',
      isFavorite: true,
      dateCreated: expect.stringMatching(/Z$/),
      dateModified: expect.stringMatching(/Z$/),
    });
    const second = await add(id, { iban: DE2 });
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({ bic: null, bankName: null, isFavorite: false });
    const third = await add(id, { iban: GB, isFavorite: true });
    expect(third.body.data.isFavorite).toBe(true);
    expect((await accounts(id)).map((a) => [a.iban, a.isFavorite, a.position])).toEqual([
      [DE, false, 0],
      [DE2, false, 1],
      [GB, true, 2],
    ]);
  });

  it('400 names field and rule, translated', async () => {
    const id = await company();
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'iban', 'isDefined'],
      [{ iban: 42 }, 'iban', 'isString'],
      [{ iban: '   ' }, 'iban', 'isNotEmpty'],
      [{ iban: 'DE89-3704-0044-0532-0130-00' }, 'iban', 'iban'],
      [{ iban: 'XX89370400440532013000' }, 'iban', 'ibanCountry'],
      [{ iban: 'DE8937040044053201300' }, 'iban', 'ibanLength'],
      [{ iban: 'DE89370400440532013001' }, 'iban', 'ibanChecksum'],
      [{ iban: DE, bic: 'DEUTDEF' }, 'bic', 'bic'],
      [{ iban: DE, bic: 'BNPAFRPP' }, 'bic', 'bicCountry'],
      [{ iban: DE, bankName: 'x'.repeat(201) }, 'bankName', 'maxLength'],
      [{ iban: DE, accountHolder: 'x'.repeat(201) }, 'accountHolder', 'maxLength'],
      [{ iban: DE, isFavorite: 'yes' }, 'isFavorite', 'isBoolean'],
      [{ iban: DE, position: 3 }, 'position', 'whitelistValidation'],
    ];
    for (const [body, field, rule] of cases) {
      const res = await add(id, body);
      expect([res.status, res.body.errors?.[0]?.field, res.body.errors?.[0]?.rule]).toEqual([
        400,
        field,
        rule,
      ]);
    }
    const en = await add(id, { iban: 'DE8937040044053201300', bic: 'BNPAFRPP' });
    expect(en.body.errors).toEqual([
      {
        field: 'iban',
        rule: 'ibanLength',
        message: 'iban does not have the length of an IBAN of DE (22 characters)',
      },
    ]);
    const de = await call(
      'POST',
      `/companies/${id}/bank-accounts`,
      { iban: DE, bic: 'BNPAFRPP' },
      A,
      { 'Accept-Language': 'de' },
    );
    expect(de.body.errors).toEqual([
      {
        field: 'bic',
        rule: 'bicCountry',
        message: 'bic ist eine BIC aus FR, die IBAN aber aus DE',
      },
    ]);
    expect(await accounts(id)).toEqual([]);
  });

  it('409 for an IBAN the company has already, however it is written', async () => {
    const id = await company();
    expect((await add(id, { iban: DE })).status).toBe(201);
    const again = await add(id, { iban: 'de89 3704 0044 0532 0130 00' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      data: null,
      message: 'The company already has a bank account with the IBAN DE89 3704 0044 0532 0130 00',
      errors: [{ field: 'iban', rule: 'unique' }],
    });
    // another company may have it
    expect((await add(await company('Other'), { iban: DE })).status).toBe(201);
    expect(await accounts(id)).toHaveLength(1);
  });

  it('404 for an unknown, malformed or foreign company; nothing written', async () => {
    const foreign = await company('Foreign', B);
    for (const companyId of [randomUUID(), 'nope', foreign]) {
      const res = await add(companyId, { iban: DE });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(`Company ${companyId} was not found`);
    }
    expect(await accounts(foreign)).toEqual([]);
  });

  it('concurrent writers leave exactly one favorite and one row per IBAN', async () => {
    const id = await company();
    const ibans = [DE, DE2, DE3, GB];
    const results = await Promise.all(ibans.map((iban) => add(id, { iban, isFavorite: true })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect((await accounts(id)).filter((a) => a.isFavorite)).toHaveLength(1);
    const twice = await Promise.all([
      add(id, { iban: 'FR1420041010050500013M02606' }),
      add(id, { iban: 'FR1420041010050500013M02606' }),
    ]);
    expect(twice.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await accounts(id)).toHaveLength(5);
  });
});

describe('C26 GET /companies/{id}/bank-accounts', () => {
  it('lists paged in the order added, sorts, searches', async () => {
    const id = await company();
    for (const [iban, bankName] of [
      [DE, 'Commerzbank'],
      [DE2, 'Berliner Volksbank'],
      [GB, 'NatWest'],
    ]) {
      expect((await add(id, { iban, bankName })).status).toBe(201);
    }
    const page = await call('GET', `/companies/${id}/bank-accounts?pageSize=2`);
    expect(page.status).toBe(200);
    expect(page.body.metaData.totalResults).toBe(3);
    expect(page.body.data.map((a: any) => a.iban)).toEqual([DE, DE2]);
    const page2 = await call('GET', `/companies/${id}/bank-accounts?pageSize=2&page=2`);
    expect(page2.body.data.map((a: any) => a.iban)).toEqual([GB]);
    const byBank = await call('GET', `/companies/${id}/bank-accounts?sort=-bankName`);
    expect(byBank.body.data.map((a: any) => a.bankName)).toEqual([
      'NatWest',
      'Commerzbank',
      'Berliner Volksbank',
    ]);
    const paper = await call(
      'GET',
      `/companies/${id}/bank-accounts?q=${encodeURIComponent('3704 0044')}`,
    );
    expect(paper.body.data.map((a: any) => a.iban)).toEqual([DE]);
    const bank = await call('GET', `/companies/${id}/bank-accounts?q=natwest`);
    expect(bank.body.data.map((a: any) => a.iban)).toEqual([GB]);
    const bad = await call('GET', `/companies/${id}/bank-accounts?sort=tenantId`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
    expect((await call('GET', `/companies/${id}/bank-accounts?pageSize=501`)).status).toBe(400);
  });

  it('404 for an unknown or foreign company', async () => {
    const id = await company();
    await add(id, { iban: DE });
    expect((await call('GET', `/companies/${id}/bank-accounts`, undefined, B)).status).toBe(404);
    expect((await call('GET', `/companies/${randomUUID()}/bank-accounts`)).status).toBe(404);
  });
});

describe('C27 PUT/DELETE /companies/{id}/bank-accounts/{accountId}', () => {
  it('changes given fields only; null clears; the BIC is checked against the resulting IBAN', async () => {
    const id = await company();
    const acc = (await add(id, { iban: DE, bic: 'COBADEFF', bankName: 'Commerzbank' })).body.data;
    const res = await call('PUT', `/companies/${id}/bank-accounts/${acc.id}`, {
      accountHolder: 'Acme',
      bankName: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      iban: DE,
      bic: 'COBADEFF',
      bankName: null,
      accountHolder: 'Acme',
      isFavorite: true,
    });
    const country = await call('PUT', `/companies/${id}/bank-accounts/${acc.id}`, { iban: GB });
    expect(country.status).toBe(400);
    expect(country.body.errors[0]).toMatchObject({ field: 'bic', rule: 'bicCountry' });
    const both = await call('PUT', `/companies/${id}/bank-accounts/${acc.id}`, {
      iban: 'gb29 nwbk 6016 1331 9268 19',
      bic: 'NWBKGB2L',
    });
    expect(both.body.data).toMatchObject({ iban: GB, bic: 'NWBKGB2L' });
    const cleared = await call('PUT', `/companies/${id}/bank-accounts/${acc.id}`, { bic: '' });
    expect(cleared.body.data.bic).toBeNull();
    const nullIban = await call('PUT', `/companies/${id}/bank-accounts/${acc.id}`, { iban: null });
    expect(nullIban.body.errors[0]).toMatchObject({ field: 'iban', rule: 'isString' });
  });

  it("409 when another account has the IBAN; the account's own IBAN is fine", async () => {
    const id = await company();
    const first = (await add(id, { iban: DE })).body.data;
    const second = (await add(id, { iban: DE2 })).body.data;
    const clash = await call('PUT', `/companies/${id}/bank-accounts/${second.id}`, { iban: DE });
    expect(clash.status).toBe(409);
    const same = await call('PUT', `/companies/${id}/bank-accounts/${first.id}`, {
      iban: 'DE89 3704 0044 0532 0130 00',
    });
    expect(same.status).toBe(200);
    expect((await accounts(id)).map((a) => a.iban)).toEqual([DE, DE2]);
  });

  it('moves the favorite: true takes it, false on the favorite passes it to the first', async () => {
    const id = await company();
    const ids: string[] = [];
    for (const iban of [DE, DE2, DE3]) ids.push((await add(id, { iban })).body.data.id);
    const fav = (await accounts(id)).filter((a) => a.isFavorite).map((a) => a.id);
    expect(fav).toEqual([ids[0]]);
    await call('PUT', `/companies/${id}/bank-accounts/${ids[2]}`, { isFavorite: true });
    expect((await accounts(id)).map((a) => a.isFavorite)).toEqual([false, false, true]);
    await call('PUT', `/companies/${id}/bank-accounts/${ids[2]}`, { isFavorite: false });
    expect((await accounts(id)).map((a) => a.isFavorite)).toEqual([true, false, false]);
    // the first one stays the favorite: a company with accounts always has one
    const unmark = await call('PUT', `/companies/${id}/bank-accounts/${ids[0]}`, {
      isFavorite: false,
    });
    expect(unmark.body.data.isFavorite).toBe(true);
  });

  it('DELETE passes the favorite to the first remaining account', async () => {
    const id = await company();
    const ids: string[] = [];
    for (const iban of [DE, DE2, DE3]) ids.push((await add(id, { iban })).body.data.id);
    await call('PUT', `/companies/${id}/bank-accounts/${ids[1]}`, { isFavorite: true });
    const del = await call('DELETE', `/companies/${id}/bank-accounts/${ids[1]}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ id: ids[1], newFavoriteId: ids[0] });
    const other = await call('DELETE', `/companies/${id}/bank-accounts/${ids[2]}`);
    expect(other.body.data).toEqual({ id: ids[2], newFavoriteId: null });
    expect((await accounts(id)).map((a) => [a.id, a.isFavorite])).toEqual([[ids[0], true]]);
    expect((await call('DELETE', `/companies/${id}/bank-accounts/${ids[1]}`)).status).toBe(404);
  });

  it("404 for unknown accounts, another company's and another tenant's; nothing changes", async () => {
    const id = await company();
    const acc = (await add(id, { iban: DE, bankName: 'Mine' })).body.data;
    const other = await company('Other');
    for (const [companyId, accountId, tenant] of [
      [id, randomUUID(), A],
      [id, 'nope', A],
      [other, acc.id, A],
      [id, acc.id, B],
    ]) {
      const put = await call(
        'PUT',
        `/companies/${companyId}/bank-accounts/${accountId}`,
        { bankName: 'Changed' },
        tenant,
      );
      expect(put.status).toBe(404);
      const del = await call(
        'DELETE',
        `/companies/${companyId}/bank-accounts/${accountId}`,
        undefined,
        tenant,
      );
      expect(del.status).toBe(404);
    }
    const unknown = await call('PUT', `/companies/${id}/bank-accounts/${randomUUID()}`, {});
    expect(unknown.body.message).toMatch(/^Bank account [0-9a-f-]{36} was not found$/);
    const de = await call(
      'DELETE',
      `/companies/${id}/bank-accounts/${randomUUID()}`,
      undefined,
      A,
      {
        'Accept-Language': 'de',
      },
    );
    expect(de.body.message).toMatch(/^Bankverbindung [0-9a-f-]{36} wurde nicht gefunden$/);
    expect(await accounts(id)).toMatchObject([{ id: acc.id, bankName: 'Mine' }]);
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id iban ibanFormatted bic bankName accountHolder isFavorite';

  it('every bank account operation, with the REST rules', async () => {
    const id = await company();
    const created = await gql(
      `mutation($c: ID!, $input: CreateCompanyBankAccountInput!) { createCompanyBankAccount(companyId: $c, input: $input) { ${FIELDS} } }`,
      { c: id, input: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'cobadeff' } },
    );
    expect(created.body.errors).toBeUndefined();
    const acc = created.body.data.createCompanyBankAccount;
    expect(acc).toMatchObject({
      iban: DE,
      ibanFormatted: 'DE89 3704 0044 0532 0130 00',
      bic: 'COBADEFF',
      isFavorite: true,
    });

    const updated = await gql(
      `mutation($c: ID!, $a: ID!, $input: UpdateCompanyBankAccountInput!) { updateCompanyBankAccount(companyId: $c, accountId: $a, input: $input) { ${FIELDS} } }`,
      { c: id, a: acc.id, input: { bankName: 'Commerzbank' } },
    );
    expect(updated.body.data.updateCompanyBankAccount.bankName).toBe('Commerzbank');

    const list = await gql(
      `query($c: ID!) { companyBankAccounts(companyId: $c, page: 1, pageSize: 10) { totalResults items { ${FIELDS} } } }`,
      { c: id },
    );
    expect(list.body.data.companyBankAccounts).toEqual({
      totalResults: 1,
      items: [expect.objectContaining({ id: acc.id, bankName: 'Commerzbank' })],
    });

    const invalid = await gql(
      `mutation($c: ID!, $input: CreateCompanyBankAccountInput!) { createCompanyBankAccount(companyId: $c, input: $input) { id } }`,
      { c: id, input: { iban: 'DE89370400440532013001' } },
    );
    expect(invalid.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
      errors: [expect.objectContaining({ field: 'iban', rule: 'ibanChecksum' })],
    });
    const dup = await gql(
      `mutation($c: ID!, $input: CreateCompanyBankAccountInput!) { createCompanyBankAccount(companyId: $c, input: $input) { id } }`,
      { c: id, input: { iban: DE } },
    );
    expect(dup.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
    const foreign = await gql(
      `query($c: ID!) { companyBankAccounts(companyId: $c) { totalResults } }`,
      { c: id },
      B,
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    const foreignDelete = await gql(
      `mutation($c: ID!, $a: ID!) { deleteCompanyBankAccount(companyId: $c, accountId: $a) { id } }`,
      { c: id, a: acc.id },
      B,
    );
    expect(foreignDelete.body.errors[0].extensions.code).toBe('NOT_FOUND');

    const deleted = await gql(
      `mutation($c: ID!, $a: ID!) { deleteCompanyBankAccount(companyId: $c, accountId: $a) { id newFavoriteId } }`,
      { c: id, a: acc.id },
    );
    expect(deleted.body.data.deleteCompanyBankAccount).toEqual({ id: acc.id, newFavoriteId: null });
    expect(await accounts(id)).toEqual([]);
  });
});
