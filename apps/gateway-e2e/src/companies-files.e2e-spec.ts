import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { tenantHeaders } from '@crm/testing';
import { Answer, Client, startClient, TestTenant } from './client';

// C28 (logo) and C31-C32 (documents) through the gateway, REST and GraphQL: uploads and
// downloads stream through its proxy; files land in a temporary FILE_STORAGE_DIR; another
// tenant's ids answer 404 and leave the files alone.

// Services start slowly on a busy machine; 20 MB uploads take a while.
jest.setTimeout(60000);

let client: Client;
let a: TestTenant;
let b: TestTenant;
let storageDir: string;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'crm-e2e-company-files-'));
  // The stack's processes inherit the environment of the test.
  process.env.FILE_STORAGE_DIR = storageDir;
  client = await startClient('companyfiles');
  a = await client.tenant();
  b = await client.tenant();
}, 120000);
afterAll(async () => {
  await client?.stack.shutdown();
  delete process.env.FILE_STORAGE_DIR;
  await rm(storageDir, { recursive: true, force: true });
});

/** Files stored for a tenant, relative to its folder (metadata files included). */
async function filesOf(t: TestTenant): Promise<string[]> {
  const dir = path.join(storageDir, 'tenants', t.id);
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

function headers(t: TestTenant, extra: Record<string, string> = {}) {
  const { 'Content-Type': _json, ...rest } = tenantHeaders(t.id);
  return { ...rest, Authorization: `Bearer ${t.key}`, ...extra };
}

function upload(
  t: TestTenant,
  p: string,
  data: Buffer,
  name: string,
  type: string,
): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([data], { type }), name);
  return client.raw(`/v1/crm${p}`, { method: 'POST', headers: headers(t), body: form });
}

async function bytes(t: TestTenant, p: string, extra: Record<string, string> = {}) {
  const res = await fetch(`${client.stack.gatewayUrl}/v1/crm${p}`, { headers: headers(t, extra) });
  return { status: res.status, headers: res.headers, data: Buffer.from(await res.arrayBuffer()) };
}

async function company(t: TestTenant, name = 'Acme GmbH'): Promise<string> {
  const res = await client.rest(t, 'POST', '/companies', { name });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const logoPng = (w: number, h: number) =>
  sharp({
    create: { width: w, height: h, channels: 4, background: { r: 20, g: 90, b: 200, alpha: 0.6 } },
  })
    .png()
    .toBuffer();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const mine = async (t: TestTenant, id: string) => (await filesOf(t)).filter((f) => f.includes(id));

describe('logo C28', () => {
  it('POST uploads through the gateway; GET serves each size with an ETag; GraphQL describes it', async () => {
    const id = await company(a);
    const up = await upload(
      a,
      `/companies/${id}/logo`,
      await logoPng(900, 300),
      'logo.png',
      'image/png',
    );
    expect(up.status).toBe(201);
    expect(up.body.data.images.map((i: any) => [i.size, i.width, i.height])).toEqual([
      ['thumbnail', 64, 21],
      ['small', 160, 53],
      ['detail', 480, 160],
      ['original', 900, 300],
    ]);
    expect(await mine(a, id)).toHaveLength(10);

    const original = await bytes(a, `/companies/${id}/logo`);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/webp');
    expect(original.headers.get('cache-control')).toBe('private, no-cache');
    expect(await sharp(original.data).metadata()).toMatchObject({
      width: 900,
      height: 300,
      hasAlpha: true,
    });
    const detail = await bytes(a, `/companies/${id}/logo?size=detail`);
    expect(await sharp(detail.data).metadata()).toMatchObject({ width: 480, height: 160 });
    const etag = detail.headers.get('etag')!;
    expect(
      (await bytes(a, `/companies/${id}/logo?size=detail`, { 'If-None-Match': etag })).status,
    ).toBe(304);
    expect((await bytes(a, `/companies/${id}/logo?size=huge`)).status).toBe(400);

    const gql = await client.graphql(
      a,
      'query($id: ID!) { companyLogo(companyId: $id) { companyId images { size width height url } } }',
      { id },
    );
    expect(gql.body.data.companyLogo.images[2]).toEqual({
      size: 'detail',
      width: 480,
      height: 160,
      url: `/v1/crm/companies/${id}/logo?size=detail`,
    });
  });

  it('POST refuses a GIF (415) and 5 MB + 1 byte (413), keeping the current logo', async () => {
    const id = await company(a);
    await upload(a, `/companies/${id}/logo`, await logoPng(300, 300), 'logo.png', 'image/png');
    const before = await filesOf(a);
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
      .gif()
      .toBuffer();
    const bad = await upload(a, `/companies/${id}/logo`, gif, 'x.png', 'image/png');
    expect(bad.status).toBe(415);
    expect(bad.body).toMatchObject({ data: null, statusCode: 415 });
    const png = await logoPng(64, 64);
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length)]);
    const tooBig = await upload(a, `/companies/${id}/logo`, big, 'big.png', 'image/png');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('The file is larger than the limit of 5 MB');
    expect(await filesOf(a)).toEqual(before);
  });

  it('DELETE removes the logo and its files, then 404', async () => {
    const id = await company(a);
    await upload(a, `/companies/${id}/logo`, await logoPng(200, 100), 'logo.png', 'image/png');
    const del = await client.rest(a, 'DELETE', `/companies/${id}/logo`);
    expect(del).toMatchObject({ status: 200, body: { data: { id, deleted: true } } });
    expect(await mine(a, id)).toEqual([]);
    expect((await bytes(a, `/companies/${id}/logo`)).status).toBe(404);
    expect((await client.rest(a, 'DELETE', `/companies/${id}/logo`)).status).toBe(404);
  });

  it("another tenant's company is 404 on every logo route and its logo stays", async () => {
    const id = await company(a);
    await upload(a, `/companies/${id}/logo`, await logoPng(300, 300), 'logo.png', 'image/png');
    const files = await filesOf(a);
    expect((await bytes(b, `/companies/${id}/logo`)).status).toBe(404);
    const foreign = await upload(
      b,
      `/companies/${id}/logo`,
      await logoPng(50, 50),
      'x.png',
      'image/png',
    );
    expect(foreign.status).toBe(404);
    expect((await client.rest(b, 'DELETE', `/companies/${id}/logo`)).status).toBe(404);
    const gql = await client.graphql(
      b,
      'query($id: ID!) { companyLogo(companyId: $id) { companyId } }',
      { id },
    );
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect(await filesOf(a)).toEqual(files);
    expect(await filesOf(b)).toEqual([]);
    expect((await bytes(a, `/companies/${id}/logo`)).status).toBe(200);
  });
});

describe('documents C31-C32', () => {
  it('C31 uploads and lists, C32 downloads the same bytes with the name and deletes', async () => {
    const id = await company(a);
    const data = randomBytes(2 * 1024 * 1024);
    const up = await upload(
      a,
      `/companies/${id}/documents`,
      data,
      'Vertrag Müller.pdf',
      'application/pdf',
    );
    expect(up.status).toBe(201);
    const doc = up.body.data;
    expect(doc).toMatchObject({ companyId: id, fileName: 'Vertrag Müller.pdf', size: data.length });

    const list = await client.rest(a, 'GET', `/companies/${id}/documents?pageSize=10`);
    expect(list.body.data).toEqual([doc]);
    expect(list.body.metaData.totalResults).toBe(1);
    const gql = await client.graphql(
      a,
      'query($id: ID!) { companyDocuments(companyId: $id) { totalResults items { id fileName size } } }',
      { id },
    );
    expect(gql.body.data.companyDocuments).toEqual({
      totalResults: 1,
      items: [{ id: doc.id, fileName: 'Vertrag Müller.pdf', size: data.length }],
    });

    const got = await bytes(a, `/companies/${id}/documents/${doc.id}`);
    expect(got.status).toBe(200);
    expect(sha(got.data)).toBe(sha(data));
    expect(got.headers.get('content-disposition')).toBe(
      `attachment; filename="Vertrag M_ller.pdf"; filename*=UTF-8''Vertrag%20M%C3%BCller.pdf`,
    );

    const del = await client.rest(a, 'DELETE', `/companies/${id}/documents/${doc.id}`);
    expect(del).toMatchObject({ status: 200, body: { data: { id: doc.id, deleted: true } } });
    expect((await bytes(a, `/companies/${id}/documents/${doc.id}`)).status).toBe(404);
    expect(await mine(a, doc.id)).toEqual([]);

    const other = (
      await upload(a, `/companies/${id}/documents`, Buffer.from('x'), 'x.txt', 'text/plain')
    ).body.data;
    const gqlDel = await client.graphql(
      a,
      'mutation($c: ID!, $d: ID!) { deleteCompanyDocument(companyId: $c, documentId: $d) { id deleted } }',
      { c: id, d: other.id },
    );
    expect(gqlDel.body.data.deleteCompanyDocument).toEqual({ id: other.id, deleted: true });
  });

  it('C31 refuses 20 MB + 1 byte with 413 and stores nothing; 400 without a file', async () => {
    const id = await company(a);
    const before = await filesOf(a);
    const big = await upload(
      a,
      `/companies/${id}/documents`,
      Buffer.alloc(20 * 1024 * 1024 + 1, 7),
      'big.bin',
      'application/octet-stream',
    );
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('The file is larger than the limit of 20 MB');
    expect(await filesOf(a)).toEqual(before);
    const none = await client.raw(`/v1/crm/companies/${id}/documents`, {
      method: 'POST',
      headers: headers(a),
      body: new FormData(),
    });
    expect(none.status).toBe(400);
    expect(none.body.errors[0]).toMatchObject({ field: 'file', rule: 'isDefined' });
    expect((await client.rest(a, 'GET', `/companies/${id}/documents`)).body.data).toEqual([]);
  });

  it("another tenant gets 404 on C31 and C32; the owner's document stays", async () => {
    const id = await company(a);
    const doc = (
      await upload(a, `/companies/${id}/documents`, Buffer.from('private'), 'p.txt', 'text/plain')
    ).body.data;
    const files = await filesOf(a);
    expect((await client.rest(b, 'GET', `/companies/${id}/documents`)).status).toBe(404);
    expect(
      (await upload(b, `/companies/${id}/documents`, Buffer.from('x'), 'x.txt', 'text/plain'))
        .status,
    ).toBe(404);
    expect((await bytes(b, `/companies/${id}/documents/${doc.id}`)).status).toBe(404);
    expect((await client.rest(b, 'DELETE', `/companies/${id}/documents/${doc.id}`)).status).toBe(
      404,
    );
    expect(await filesOf(a)).toEqual(files);
    expect(await filesOf(b)).toEqual([]);
    expect((await bytes(a, `/companies/${id}/documents/${doc.id}`)).data.toString()).toBe(
      'private',
    );
    expect((await client.rest(a, 'GET', `/companies/${randomUUID()}/documents`)).status).toBe(404);
  });

  it("deleting the company (C6) removes its logo and documents, not another company's", async () => {
    const [gone, kept] = [await company(a, 'Gone'), await company(a, 'Kept')];
    await upload(a, `/companies/${gone}/logo`, await logoPng(100, 100), 'logo.png', 'image/png');
    await upload(a, `/companies/${gone}/documents`, Buffer.from('one'), 'one.txt', 'text/plain');
    await upload(a, `/companies/${kept}/documents`, Buffer.from('two'), 'two.txt', 'text/plain');
    expect(await mine(a, gone)).toHaveLength(12);
    expect((await client.rest(a, 'DELETE', `/companies/${gone}`)).status).toBe(200);
    expect(await mine(a, gone)).toEqual([]);
    expect(await mine(a, kept)).toHaveLength(2);
  });
});
