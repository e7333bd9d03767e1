import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import { startCrmCompanies, RunningService } from '../test/service-harness';
import { companyTestClient, errorsOf, SYS } from './test/company-test-client';

// C1 list and C3 by domain: REST and GraphQL on a real database.

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

let svc: RunningService;
let t: ReturnType<typeof companyTestClient>;
const ids: Record<string, string> = {};
let vip: string;

beforeAll(async () => {
  svc = await startCrmCompanies('crm_companies_it_list');
  t = companyTestClient(svc);
  vip = await t.entry(A, 'TAGS', 'VIP');
  // Created one after another, so dateCreated orders them as listed.
  const companies: [string, Record<string, unknown>][] = [
    [
      'delta',
      { name: 'Delta Logistics', customerNumber: 'K-300', website: 'https://www.delta.example' },
    ],
    [
      'acme',
      {
        name: 'ACME',
        nameAddition: 'Berlin',
        customerNumber: 'K-100',
        tags: [{ id: vip }],
        lifecycle: { lifecycleId: SYS.customer },
      },
    ],
    [
      'bravo',
      { name: 'Bravo', customerNumber: 'X_1%', website: 'bravo.example', tags: [{ id: vip }] },
    ],
    ['charlie', { name: 'Charlie', lifecycle: { lifecycleId: SYS.customer } }],
    ['echo', { name: 'Echo', customerNumber: 'K-200', website: 'http://shared.example' }],
  ];
  for (const [key, body] of companies) ids[key] = await t.company(A, body);
  ids.foreign = await t.company(B, {
    name: 'ACME',
    website: 'acme.example',
    tags: [{ text: 'VIP' }],
  });
}, 60000);
afterAll(async () => {
  await svc?.app.close();
});

const names = (body: { data: { name: string }[] }) => body.data.map((c) => c.name);

describe('C1 GET /companies', () => {
  it('pages by name with the total of the tenant only', async () => {
    const all = await t.rest(A, 'GET', '/companies');
    expect(all.status).toBe(200);
    expect(names(all.body)).toEqual(['ACME', 'Bravo', 'Charlie', 'Delta Logistics', 'Echo']);
    expect(all.body.metaData.totalResults).toBe(5);
    const page2 = await t.rest(A, 'GET', '/companies?page=2&pageSize=2');
    expect(names(page2.body)).toEqual(['Charlie', 'Delta Logistics']);
    expect(page2.body.metaData.totalResults).toBe(5);
    // full resources
    expect(all.body.data[0]).toMatchObject({
      nameAddition: 'Berlin',
      tags: [{ id: vip, text: 'VIP' }],
      lifecycle: { lifecycleId: SYS.customer, text: 'Customer' },
    });
    const beyond = await t.rest(A, 'GET', '/companies?page=9');
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.metaData.totalResults).toBe(5);
  });

  it('sorts by the allowed fields, descending with -, and refuses others', async () => {
    const created = await t.rest(A, 'GET', '/companies?sort=-dateCreated');
    expect(names(created.body)).toEqual(['Echo', 'Charlie', 'Bravo', 'ACME', 'Delta Logistics']);
    const byNumber = await t.rest(A, 'GET', '/companies?sort=customerNumber,name');
    // nulls last
    expect(names(byNumber.body)).toEqual(['ACME', 'Echo', 'Delta Logistics', 'Bravo', 'Charlie']);
    const modified = await t.rest(A, 'GET', '/companies?sort=dateModified');
    expect(names(modified.body)[0]).toBe('Delta Logistics');
    const bad = await t.rest(A, 'GET', '/companies?sort=vatId');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
    expect(errorsOf((await t.rest(A, 'GET', '/companies?pageSize=501')).body)).toEqual([
      ['pageSize', 'max'],
    ]);
    expect(errorsOf((await t.rest(A, 'GET', '/companies?page=0')).body)).toEqual([['page', 'min']]);
    expect(errorsOf((await t.rest(A, 'GET', '/companies?tagId=x')).body)).toEqual([
      ['tagId', 'isUuid'],
    ]);
  });

  it('searches name, addition, customer number and website domain with q, across fields', async () => {
    const q = async (text: string, tenant = A) =>
      names((await t.rest(tenant, 'GET', `/companies?q=${encodeURIComponent(text)}`)).body);
    expect(await q('acme')).toEqual(['ACME']);
    expect(await q('acme berlin')).toEqual(['ACME']);
    expect(await q('LOGIST')).toEqual(['Delta Logistics']);
    expect(await q('k-')).toEqual(['ACME', 'Delta Logistics', 'Echo']);
    expect(await q('delta.example')).toEqual(['Delta Logistics']);
    expect(await q('shared')).toEqual(['Echo']);
    // www. is not part of the domain; % and _ are literal characters, not wildcards
    expect(await q('www')).toEqual([]);
    expect(await q('X_1%')).toEqual(['Bravo']);
    expect(await q('K%1')).toEqual([]);
    const counted = await t.rest(A, 'GET', '/companies?q=k-&pageSize=1&sort=-name');
    expect(names(counted.body)).toEqual(['Echo']);
    expect(counted.body.metaData.totalResults).toBe(3);
    expect(await q('acme', B)).toEqual(['ACME']);
    expect(await q('logistics', B)).toEqual([]);
  });

  it('filters by tag and lifecycle, both narrow', async () => {
    expect(names((await t.rest(A, 'GET', `/companies?tagId=${vip}`)).body)).toEqual([
      'ACME',
      'Bravo',
    ]);
    expect(names((await t.rest(A, 'GET', `/companies?lifecycleId=${SYS.customer}`)).body)).toEqual([
      'ACME',
      'Charlie',
    ]);
    const both = await t.rest(A, 'GET', `/companies?lifecycleId=${SYS.customer}&tagId=${vip}&q=a`);
    expect(names(both.body)).toEqual(['ACME']);
    expect(both.body.metaData.totalResults).toBe(1);
    // another tenant's tag selects nothing here
    const theirs = (await t.rest(B, 'GET', `/companies/${ids.foreign}`)).body.data.tags[0].id;
    expect((await t.rest(A, 'GET', `/companies?tagId=${theirs}`)).body.data).toEqual([]);
  });

  it('reads a page with two queries whatever its size, settings texts in one lookup', async () => {
    await t.email(A, ids.acme, 'info@acme-mail.example', { emailTypeId: SYS.emailOffice });
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    const companyQueries = () =>
      spy.mock.calls.filter(([q]) =>
        /"Company"/.test(typeof q === 'string' ? q : String((q as { text?: string })?.text)),
      ).length;
    const lookups = jest.spyOn(svc.app.get(SettingsLookupService), 'anyEntries');
    try {
      const res = await t.rest(A, 'GET', '/companies?pageSize=5');
      expect(res.body.data).toHaveLength(5);
      expect(lookups).toHaveBeenCalledTimes(1);
      expect(companyQueries()).toBe(2);
      spy.mockClear();
      await t.rest(A, 'GET', `/companies?q=a&tagId=${vip}&lifecycleId=${SYS.customer}`);
      expect(companyQueries()).toBe(2);
    } finally {
      spy.mockRestore();
      lookups.mockRestore();
    }
  });

  it('uses the trigram index for q (the query repeats the index expression)', async () => {
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    let sent: { text: string; values: unknown[] } | undefined;
    try {
      await t.rest(A, 'GET', '/companies?q=acme');
      sent = spy.mock.calls
        .map(([q, v]) =>
          typeof q === 'string'
            ? { text: q, values: v as unknown[] }
            : (q as { text: string; values: unknown[] }),
        )
        .find((q) => q?.text?.includes('ILIKE'));
    } finally {
      spy.mockRestore();
    }
    expect(sent).toBeDefined();
    // With a handful of rows any plan is cheap, so take the alternatives away (in a transaction
    // that is rolled back): no sequential scan, no other index on tenantId. The statement the
    // repository sent must then be served by the trigram index, which only happens when its
    // expression is exactly the index's.
    const db = new pg.Client({ connectionString: svc.databaseUrl });
    await db.connect();
    try {
      await db.query('BEGIN');
      for (const index of ['name', 'dateCreated', 'websiteDomain', 'lifecycleId']) {
        await db.query(`DROP INDEX "Company_tenantId_${index}_idx"`);
      }
      await db.query('SET LOCAL enable_seqscan = off');
      const plan = await db.query(`EXPLAIN ${sent!.text}`, sent!.values);
      const lines: string[] = plan.rows.map((r) => r['QUERY PLAN']);
      const scan = lines.findIndex((l) => l.includes('Bitmap Index Scan on "Company_search_idx"'));
      expect(scan).toBeGreaterThan(-1);
      // the search condition itself (not only "tenantId", the index's first column) is served
      expect(lines[scan + 1]).toMatch(/Index Cond: .*~~\*/);
    } finally {
      await db.query('ROLLBACK');
      await db.end();
    }
  });
});

describe('C3 GET /companies/by-domain/{domain}', () => {
  beforeAll(async () => {
    // an e-mail domain of Charlie equals Echo's website domain; Delta has an e-mail there too
    await t.email(A, ids.charlie, 'sales@Shared.example');
    await t.email(A, ids.delta, 'x@shared.example');
    await t.email(A, ids.bravo, 'info@mail.bravo.example');
  });

  const byDomain = (domain: string, tenant = A) =>
    t.rest(tenant, 'GET', `/companies/by-domain/${encodeURIComponent(domain)}`);

  it('finds by website domain in any case, from a domain, e-mail address or URL', async () => {
    for (const given of [
      'delta.example',
      'DELTA.example',
      'www.delta.example',
      'anna@delta.example',
      'https://www.delta.example/about?x=1',
    ]) {
      const res = await byDomain(given);
      expect({ given, status: res.status, id: res.body.data?.id }).toEqual({
        given,
        status: 200,
        id: ids.delta,
      });
    }
  });

  it('finds by e-mail domain; a website match wins, then the oldest', async () => {
    expect((await byDomain('mail.bravo.example')).body.data.id).toBe(ids.bravo);
    // Echo's website beats the older Charlie's and Delta's e-mail addresses
    expect((await byDomain('shared.example')).body.data.id).toBe(ids.echo);
    await t.sql(`UPDATE "Company" SET website = NULL, "websiteDomain" = NULL WHERE id = $1`, [
      ids.echo,
    ]);
    try {
      // e-mail matches only: the oldest company (Delta was created before Charlie)
      expect((await byDomain('shared.example')).body.data.id).toBe(ids.delta);
    } finally {
      await t.sql(
        `UPDATE "Company" SET website = 'http://shared.example', "websiteDomain" = 'shared.example' WHERE id = $1`,
        [ids.echo],
      );
    }
  });

  it('answers 404 when no company of the tenant has the domain, 400 when it is no domain', async () => {
    const none = await byDomain('nobody.example');
    expect(none.status).toBe(404);
    expect(none.body.message).toContain('nobody.example');
    // B's ACME has acme.example: not visible to A
    expect((await byDomain('acme.example')).status).toBe(404);
    expect((await byDomain('acme.example', B)).body.data.id).toBe(ids.foreign);
    expect((await byDomain('delta.example', B)).status).toBe(404);
    const bad = await byDomain('not a domain!');
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body)).toEqual([['domain', 'isDomain']]);
    const de = await t.rest(A, 'GET', '/companies/by-domain/%20', undefined, {
      'Accept-Language': 'de',
    });
    expect(de.body.errors[0].message).toBe(
      'domain muss eine Domain, eine E-Mail-Adresse oder eine URL sein',
    );
  });
});

describe('GraphQL companies, companyByDomain', () => {
  it('lists, filters and sorts as REST', async () => {
    const res = await t.gql(
      A,
      `query($q: String, $tag: ID) { companies(q: $q, tagId: $tag, sort: "-name", pageSize: 1) { totalResults items { id name tags { text } } } }`,
      { q: 'a', tag: vip },
    );
    expect(res.body.data.companies).toEqual({
      totalResults: 2,
      items: [{ id: ids.bravo, name: 'Bravo', tags: [{ text: 'VIP' }] }],
    });
    const bad = await t.gql(A, `{ companies(sort: "secret") { totalResults } }`);
    expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    const other = await t.gql(B, `{ companies { totalResults items { name } } }`);
    expect(other.body.data.companies).toEqual({ totalResults: 1, items: [{ name: 'ACME' }] });
  });

  it('finds by domain; null when none; an error when it is no domain', async () => {
    const q = `query($d: String!) { companyByDomain(domain: $d) { id } }`;
    expect((await t.gql(A, q, { d: 'info@WWW.Delta.example' })).body.data.companyByDomain).toEqual({
      id: ids.delta,
    });
    expect((await t.gql(A, q, { d: 'acme.example' })).body).toEqual({
      data: { companyByDomain: null },
    });
    const bad = await t.gql(A, q, { d: '' });
    expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });
});

describe('OpenAPI', () => {
  it('documents every companies route with its row, body and answers', async () => {
    const res = await t.api.rest('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    const op = (path: string, method: string) => doc.paths[`/v1/crm${path}`]?.[method];
    const rows: [string, string, string, boolean][] = [
      ['/companies', 'get', 'C1', false],
      ['/companies/by-domain/{domain}', 'get', 'C3', false],
      ['/companies', 'post', 'C4', true],
      ['/companies/{id}', 'get', 'C2', false],
      ['/companies/{id}', 'put', 'C5', true],
      ['/companies/{id}', 'delete', 'C6', false],
      ['/companies/batch', 'delete', 'C7', true],
      ['/companies/batch', 'post', 'C8', true],
      ['/companies/batch', 'put', 'C8', true],
      ['/companies/{id}/notes', 'put', 'C9', true],
      ['/companies/{id}/tags', 'put', 'C10', true],
      ['/companies/{id}/lifecycle', 'put', 'C11', true],
      ['/companies/tags', 'post', 'C12', true],
      ['/companies/tags', 'delete', 'C13', true],
      ['/companies/validate', 'post', 'C14', true],
    ];
    for (const [path, method, row, hasBody] of rows) {
      const o = op(path, method);
      expect({ path, method, summary: o?.summary }).toEqual({
        path,
        method,
        summary: expect.stringMatching(new RegExp(`^${row} `)),
      });
      expect(o.description).toMatch(new RegExp(`^${row}\\.`));
      expect(Object.keys(o.responses)).toEqual(expect.arrayContaining(['400']));
      if (hasBody) expect(o.requestBody).toBeDefined();
    }
    expect(op('/companies/by-domain/{domain}', 'get').description).toContain('website match');
    expect(doc.components.schemas.Company.properties.logo).toBeDefined();
  });
});
