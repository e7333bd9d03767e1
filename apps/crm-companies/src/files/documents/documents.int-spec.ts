import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { FILE_STORAGE, FileStorage } from '@crm/storage';
import { companyFilesPrefix } from '../files.storage';
import { uploadHeaders } from '@crm/testing';
import { clientOf, CompaniesUnderTest, startWithStorage } from '../test/files-harness';
import { jpeg } from '../test/images';

// C31, C32 against the real service: uploads streamed into storage (20 MB, 413 above, nothing
// kept), downloads with the RFC 5987 name, and another tenant's ids answered 404.

jest.setTimeout(60000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;
const MB20 = 20 * 1024 * 1024;

let svc: CompaniesUnderTest;
const { api, call, gql, company } = clientOf(() => svc, A);

const upload = (
  companyId: string,
  data: Buffer,
  name: string,
  type = 'application/pdf',
  tenant = A,
) => api.upload(`/companies/${companyId}/documents`, { data, name, type }, uploadHeaders(tenant));

const download = (companyId: string, id: string, tenant = A, extra: Record<string, string> = {}) =>
  api.rest(
    'GET',
    `/companies/${companyId}/documents/${id}`,
    undefined,
    uploadHeaders(tenant, extra),
  );

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const filesOf = async (id: string) => (await svc.filesOf(A)).filter((f) => f.includes(id));

beforeAll(async () => {
  svc = await startWithStorage('crm_companies_it_documents');
}, 60000);
afterAll(async () => {
  await svc?.stop();
}, 30000);

describe('C31 / C32 documents', () => {
  it('round trip: upload, list, download the same bytes with the name, delete', async () => {
    const id = await company();
    const data = randomBytes(300_000);
    const up = await upload(id, data, 'Prüfbericht (final).pdf');
    expect(up.status).toBe(201);
    const doc = up.body.data;
    expect(doc).toEqual({
      id: expect.any(String),
      companyId: id,
      fileName: 'Prüfbericht (final).pdf',
      contentType: 'application/pdf',
      size: 300_000,
      createdBy: 'test-suite',
      url: `/v1/crm/companies/${id}/documents/${doc.id}`,
      dateCreated: expect.stringMatching(/Z$/),
    });
    expect(await svc.filesOf(A)).toContain(`companies/${id}/documents/${doc.id}`);

    const list = await call('GET', `/companies/${id}/documents`);
    expect(list.body.data).toEqual([doc]);
    expect(list.body.metaData.totalResults).toBe(1);

    const got = await download(id, doc.id);
    expect(got.status).toBe(200);
    expect(sha(got.bytes)).toBe(sha(data));
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('content-length')).toBe('300000');
    expect(got.headers.get('content-disposition')).toBe(
      `attachment; filename="Pr_fbericht (final).pdf"; filename*=UTF-8''Pr%C3%BCfbericht%20%28final%29.pdf`,
    );
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = got.headers.get('etag')!;
    expect((await download(id, doc.id, A, { 'If-None-Match': etag })).status).toBe(304);

    const del = await call('DELETE', `/companies/${id}/documents/${doc.id}`);
    expect(del).toMatchObject({ status: 200, body: { data: { id: doc.id, deleted: true } } });
    expect((await download(id, doc.id)).status).toBe(404);
    expect((await call('DELETE', `/companies/${id}/documents/${doc.id}`)).status).toBe(404);
    expect(await filesOf(doc.id)).toEqual([]);
    expect(await svc.db.companyDocument.count({ where: { companyId: id } })).toBe(0);
  });

  it('sanitizes the file name; an HTML file is served as a sandboxed download', async () => {
    const id = await company();
    const a = await upload(
      id,
      Buffer.from('<script>alert(1)</script>'),
      '../../evil\r\n.html',
      'text/html',
    );
    expect(a.body.data).toMatchObject({ fileName: 'evil.html', contentType: 'text/html' });
    const got = await download(id, a.body.data.id);
    expect(got.headers.get('content-disposition')).toMatch(/^attachment; filename="evil.html"/);
    expect(got.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  });

  it('lists paged, sorted and searched; refuses an unknown sort field', async () => {
    const id = await company();
    for (const name of ['b-offer.pdf', 'a-contract.pdf', 'c-invoice.xlsx']) {
      expect((await upload(id, Buffer.from(name), name)).status).toBe(201);
    }
    const byName = await call('GET', `/companies/${id}/documents?sort=fileName&pageSize=2`);
    expect(byName.body.data.map((d: any) => d.fileName)).toEqual(['a-contract.pdf', 'b-offer.pdf']);
    expect(byName.body.metaData.totalResults).toBe(3);
    const page2 = await call('GET', `/companies/${id}/documents?sort=fileName&pageSize=2&page=2`);
    expect(page2.body.data.map((d: any) => d.fileName)).toEqual(['c-invoice.xlsx']);
    const newest = await call('GET', `/companies/${id}/documents`);
    expect(newest.body.data[0].fileName).toBe('c-invoice.xlsx');
    const q = await call('GET', `/companies/${id}/documents?q=INVOICE`);
    expect(q.body.data.map((d: any) => d.fileName)).toEqual(['c-invoice.xlsx']);
    const bad = await call('GET', `/companies/${id}/documents?sort=storageKey`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
  });

  it('accepts 20 MB; 20 MB + 1 byte is 413 and nothing is stored', async () => {
    const id = await company();
    expect((await upload(id, Buffer.alloc(MB20, 1), 'exact.bin')).status).toBe(201);
    const before = await svc.filesOf(A);
    const r = await upload(id, Buffer.alloc(MB20 + 1, 1), 'big.bin');
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({
      data: null,
      message: 'The file is larger than the limit of 20 MB',
    });
    expect(await svc.filesOf(A)).toEqual(before);
    expect((await call('GET', `/companies/${id}/documents`)).body.metaData.totalResults).toBe(1);
  });

  it('400 without a file or with an empty one; 404 for unknown companies and documents', async () => {
    const id = await company();
    const none = await api.rest(
      'POST',
      `/companies/${id}/documents`,
      new FormData(),
      uploadHeaders(A),
    );
    expect(none.status).toBe(400);
    expect(none.body.errors[0]).toMatchObject({
      field: 'file',
      rule: 'isDefined',
    });
    const empty = await upload(id, Buffer.alloc(0), 'empty.txt');
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toMatchObject({ field: 'file', rule: 'isNotEmpty' });
    expect(await filesOf(id)).toEqual([]);

    const unknown = randomUUID();
    const missing = await upload(unknown, Buffer.from('x'), 'x.txt');
    expect(missing).toMatchObject({
      status: 404,
      body: { message: `Company ${unknown} was not found` },
    });
    expect((await upload('nope', Buffer.from('x'), 'x.txt')).status).toBe(404);
    expect((await call('GET', `/companies/${randomUUID()}/documents`)).status).toBe(404);
    const doc404 = await download(id, randomUUID(), A, { 'Accept-Language': 'de' });
    expect(doc404.status).toBe(404);
    expect(JSON.parse(doc404.bytes.toString()).message).toMatch(
      /^Dokument [0-9a-f-]{36} wurde nicht gefunden$/,
    );
    expect((await download(id, 'nope')).status).toBe(404);
    expect((await call('DELETE', `/companies/${id}/documents/${randomUUID()}`)).status).toBe(404);
  });

  it("another tenant gets 404 everywhere; the owner's documents and files stay", async () => {
    const id = await company();
    const doc = (await upload(id, Buffer.from('secret'), 'secret.txt', 'text/plain')).body.data;
    const files = await svc.filesOf(A);

    expect((await call('GET', `/companies/${id}/documents`, undefined, B)).status).toBe(404);
    expect((await upload(id, Buffer.from('intruder'), 'x.txt', 'text/plain', B)).status).toBe(404);
    expect((await download(id, doc.id, B)).status).toBe(404);
    expect(
      (await call('DELETE', `/companies/${id}/documents/${doc.id}`, undefined, B)).status,
    ).toBe(404);
    const gqlDelete = await gql(
      'mutation($c: ID!, $d: ID!) { deleteCompanyDocument(companyId: $c, documentId: $d) { id } }',
      { c: id, d: doc.id },
      B,
    );
    expect(gqlDelete.body.errors[0].extensions).toMatchObject({
      code: 'NOT_FOUND',
      statusCode: 404,
    });

    expect(await svc.filesOf(A)).toEqual(files);
    expect(await svc.filesOf(B)).toEqual([]);
    expect((await download(id, doc.id)).bytes.toString()).toBe('secret');
    // a document of one company is not reachable under another company of the same tenant
    expect((await download(await company('Other'), doc.id)).status).toBe(404);
  });

  it('keeps every file of a company under companyFilesPrefix (company delete removes that)', async () => {
    const id = await company();
    const kept = await company('Kept');
    await upload(id.toUpperCase(), Buffer.from('one'), 'one.txt', 'text/plain');
    await upload(kept, Buffer.from('two'), 'two.txt', 'text/plain');
    const logo = await api.upload(
      `/companies/${id}/logo`,
      { data: await jpeg(100, 100), type: 'image/jpeg', name: 'logo.jpg' },
      uploadHeaders(A),
    );
    expect(logo.status).toBe(201);
    expect(await filesOf(id)).toHaveLength(12);

    const storage = svc.app.get<FileStorage>(FILE_STORAGE);
    expect(await storage.deletePrefix(companyFilesPrefix(A, id))).toBe(6);
    expect(await filesOf(id)).toEqual([]);
    expect(await filesOf(kept)).toHaveLength(2);
  });
});

describe('GraphQL', () => {
  it('companyDocuments lists the metadata; deleteCompanyDocument removes row and bytes', async () => {
    const id = await company();
    const doc = (await upload(id, Buffer.from('hello'), 'hello.txt', 'text/plain')).body.data;
    const list = await gql(
      'query($c: ID!) { companyDocuments(companyId: $c, page: 1, pageSize: 5, q: "hello") { totalResults items { id companyId fileName contentType size url createdBy } } }',
      { c: id },
    );
    expect(list.body.data.companyDocuments).toEqual({
      totalResults: 1,
      items: [
        {
          id: doc.id,
          companyId: id,
          fileName: 'hello.txt',
          contentType: 'text/plain',
          size: 5,
          url: doc.url,
          createdBy: 'test-suite',
        },
      ],
    });
    const foreign = await gql(
      'query($c: ID!) { companyDocuments(companyId: $c) { totalResults } }',
      { c: id },
      B,
    );
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const del = await gql(
      'mutation($c: ID!, $d: ID!) { deleteCompanyDocument(companyId: $c, documentId: $d) { id deleted } }',
      { c: id, d: doc.id },
    );
    expect(del.body.data.deleteCompanyDocument).toEqual({ id: doc.id, deleted: true });
    expect(await filesOf(id)).toEqual([]);
  });
});

describe('OpenAPI description', () => {
  it('documents C26-C32 with the row id, bodies and answers', async () => {
    const res = await api.rest('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    const op = (p: string, method: string) => doc.paths[`/v1/crm/companies/{id}${p}`]?.[method];
    const rows: [string, string, string][] = [
      ['/bank-accounts', 'get', 'C26'],
      ['/bank-accounts', 'post', 'C26'],
      ['/bank-accounts/{accountId}', 'put', 'C27'],
      ['/bank-accounts/{accountId}', 'delete', 'C27'],
      ['/logo', 'get', 'C28'],
      ['/logo', 'post', 'C28'],
      ['/logo', 'delete', 'C28'],
      ['/relations', 'get', 'C29'],
      ['/relations', 'post', 'C29'],
      ['/relations/{relationId}', 'put', 'C30'],
      ['/relations/{relationId}', 'delete', 'C30'],
      ['/documents', 'get', 'C31'],
      ['/documents', 'post', 'C31'],
      ['/documents/{documentId}', 'get', 'C32'],
      ['/documents/{documentId}', 'delete', 'C32'],
    ];
    for (const [p, method, row] of rows) {
      const o = op(p, method);
      expect([
        p,
        method,
        o?.summary?.startsWith(`${row} `),
        o?.description?.startsWith(`${row} `),
      ]).toEqual([p, method, true, true]);
    }
    expect(
      op('/bank-accounts', 'post').requestBody.content['application/json'].schema.$ref,
    ).toMatch(/CreateCompanyBankAccountInput$/);
    expect(op('/logo', 'post').requestBody.content['multipart/form-data']).toBeDefined();
    expect(Object.keys(op('/documents', 'post').responses)).toEqual(
      expect.arrayContaining(['201', '400', '404', '413']),
    );
    expect(op('/logo', 'get').parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'size', in: 'query' })]),
    );
  });
});
