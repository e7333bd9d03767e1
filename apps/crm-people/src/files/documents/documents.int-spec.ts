import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ServiceTestClient, uploadHeaders } from '@crm/testing';
import { PersonFilesService } from '../person-files.service';
import { FilesService, startWithStorage } from '../test/files-harness';
import { imagesClient, jpeg } from '../test/images-client';
import { inTenant, overAllTenants } from '../../test/tenant-scope';

// Services start slowly on a busy machine; 20 MB uploads take a while.
jest.setTimeout(60000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;
const MB20 = 20 * 1024 * 1024;

let svc: FilesService;

const api = new ServiceTestClient(() => svc.url);

const call = (method: string, path: string, tenant = A, body?: unknown) =>
  api.restAs(tenant, method, path, body);

const upload = (
  personId: string,
  data: Buffer,
  name: string,
  type = 'application/pdf',
  tenant = A,
) => api.upload(`/people/${personId}/documents`, { data, name, type }, uploadHeaders(tenant));

const download = (personId: string, id: string, tenant = A, extra: Record<string, string> = {}) =>
  api.rest('GET', `/people/${personId}/documents/${id}`, undefined, uploadHeaders(tenant, extra));

async function person(tenant = A): Promise<string> {
  const r = await call('POST', '/people', tenant, { firstname: 'Grace', lastname: 'Hopper' });
  expect(r.status).toBe(201);
  return r.body.data.id;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  svc = await startWithStorage('crm_people_it_f_documents');
}, 60000);
afterAll(async () => {
  await svc?.stop();
}, 30000);

describe('P22 / P23 documents', () => {
  it('round trip: upload, list, download the same bytes with the name, delete', async () => {
    const id = await person();
    const data = randomBytes(300_000);
    const up = await upload(id, data, 'Prüfbericht (final).pdf');
    expect(up.status).toBe(201);
    const doc = up.body.data;
    expect(doc).toMatchObject({
      personId: id,
      fileName: 'Prüfbericht (final).pdf',
      contentType: 'application/pdf',
      size: 300_000,
      createdBy: 'test-suite',
      url: `/v1/crm/people/${id}/documents/${doc.id}`,
    });
    expect(await svc.filesOf(A)).toContain(`people/${id}/documents/${doc.id}`);

    const list = await call('GET', `/people/${id}/documents`);
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

    const del = await call('DELETE', `/people/${id}/documents/${doc.id}`);
    expect(del).toMatchObject({ status: 200, body: { data: { id: doc.id, deleted: true } } });
    expect((await download(id, doc.id)).status).toBe(404);
    expect((await call('DELETE', `/people/${id}/documents/${doc.id}`)).status).toBe(404);
    expect(await svc.filesOf(A).then((f) => f.filter((x) => x.includes(doc.id)))).toEqual([]);
  });

  it('sanitizes the file name and keeps any media type, without parameters', async () => {
    const id = await person();
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
    // A part type with parameters, written by hand (fetch's FormData would normalise it).
    const boundary = 'xYzBoundary';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes"\r\n` +
          'Content-Type: Application/X-Custom; version=2\r\n\r\n',
      ),
      Buffer.from('x'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await api.rest(
      'POST',
      `/people/${id}/documents`,
      body,
      uploadHeaders(A, { 'Content-Type': `multipart/form-data; boundary=${boundary}` }),
    );
    const created = res.body;
    expect(res.status).toBe(201);
    expect(created.data).toMatchObject({
      fileName: 'notes',
      contentType: 'application/x-custom',
    });
  });

  it('lists paged, sorted and searched; refuses an unknown sort field', async () => {
    const id = await person();
    for (const name of ['b-offer.pdf', 'a-contract.pdf', 'c-invoice.xlsx']) {
      expect((await upload(id, Buffer.from(name), name)).status).toBe(201);
    }
    const byName = await call('GET', `/people/${id}/documents?sort=fileName&pageSize=2`);
    expect(byName.body.data.map((d: any) => d.fileName)).toEqual(['a-contract.pdf', 'b-offer.pdf']);
    expect(byName.body.metaData.totalResults).toBe(3);
    const page2 = await call('GET', `/people/${id}/documents?sort=fileName&pageSize=2&page=2`);
    expect(page2.body.data.map((d: any) => d.fileName)).toEqual(['c-invoice.xlsx']);
    const newest = await call('GET', `/people/${id}/documents`);
    expect(newest.body.data[0].fileName).toBe('c-invoice.xlsx');
    const q = await call('GET', `/people/${id}/documents?q=INVOICE`);
    expect(q.body.data.map((d: any) => d.fileName)).toEqual(['c-invoice.xlsx']);
    const bad = await call('GET', `/people/${id}/documents?sort=storageKey`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'sort', rule: 'unknownSortField' });
  });

  it('accepts 20 MB; 20 MB + 1 byte is 413 and nothing is stored', async () => {
    const id = await person();
    expect((await upload(id, Buffer.alloc(MB20, 1), 'exact.bin')).status).toBe(201);
    const before = await svc.filesOf(A);
    const r = await upload(id, Buffer.alloc(MB20 + 1, 1), 'big.bin');
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({
      data: null,
      message: 'The file is larger than the limit of 20 MB',
    });
    expect(await svc.filesOf(A)).toEqual(before);
    expect((await call('GET', `/people/${id}/documents`)).body.metaData.totalResults).toBe(1);
  });

  it('400 without a file or with an empty one; 404 for unknown people and documents', async () => {
    const id = await person();
    const none = await api.rest(
      'POST',
      `/people/${id}/documents`,
      new FormData(),
      uploadHeaders(A),
    );
    expect(none.status).toBe(400);
    const empty = await upload(id, Buffer.alloc(0), 'empty.txt');
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toMatchObject({ field: 'file', rule: 'isNotEmpty' });
    expect(await svc.filesOf(A).then((f) => f.filter((x) => x.includes(id)))).toEqual([]);

    expect((await upload(randomUUID(), Buffer.from('x'), 'x.txt')).status).toBe(404);
    expect((await call('GET', `/people/${randomUUID()}/documents`)).status).toBe(404);
    expect((await download(id, randomUUID())).status).toBe(404);
    expect((await download(id, 'nope')).status).toBe(404);
    expect((await call('DELETE', `/people/${id}/documents/${randomUUID()}`)).status).toBe(404);
  });

  it("another tenant gets 404 everywhere; the owner's documents and files stay", async () => {
    const id = await person(A);
    const doc = (await upload(id, Buffer.from('secret'), 'secret.txt', 'text/plain')).body.data;
    const files = await svc.filesOf(A);

    expect((await call('GET', `/people/${id}/documents`, B)).status).toBe(404);
    expect((await upload(id, Buffer.from('intruder'), 'x.txt', 'text/plain', B)).status).toBe(404);
    expect((await download(id, doc.id, B)).status).toBe(404);
    expect((await call('DELETE', `/people/${id}/documents/${doc.id}`, B)).status).toBe(404);

    expect(await svc.filesOf(A)).toEqual(files);
    expect(await svc.filesOf(B)).toEqual([]);
    expect((await download(id, doc.id)).bytes.toString()).toBe('secret');
    // A document id of one person is not reachable under another person of the same tenant.
    const other = await person(A);
    expect((await download(other, doc.id)).status).toBe(404);
  });

  it('PersonFilesService collects and removes the files of people being deleted, only theirs', async () => {
    const [gone, kept] = [await person(), await person()];
    await upload(gone, Buffer.from('one'), 'one.txt', 'text/plain');
    await upload(kept, Buffer.from('two'), 'two.txt', 'text/plain');
    expect((await imagesClient(() => svc, A).upload(gone, await jpeg(100, 100))).status).toBe(201);
    const files = svc.app.get(PersonFilesService);

    // by its own tenant filter too, not only row-level security's
    expect(await overAllTenants(() => files.collect(B, [gone]))).toEqual({
      tenantId: B,
      folders: [],
      keys: [],
    });
    // as the deletion of a request of A calls it
    const collected = await inTenant(A, () => files.collect(A, [gone, 'not-a-uuid']));
    expect(collected.keys).toHaveLength(1);
    expect(collected.folders).toEqual([expect.stringMatching(`people/${gone}/profile-image/`)]);
    await files.remove(collected);

    const left = await svc.filesOf(A);
    expect(left.filter((f) => f.includes(gone))).toEqual([]);
    expect(left.filter((f) => f.includes(kept))).toHaveLength(2);
  });
});
