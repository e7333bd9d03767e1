import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { tenantHeaders } from '@crm/testing';
import { Answer, Client, startClient, TestTenant } from './client';

// Services start slowly on a busy machine; 20 MB uploads take a while.
jest.setTimeout(60000);

// P16-P19 (profile images), P22-P23 (documents) and P24 (contact extraction) through the gateway:
// uploads and downloads stream through its proxy; files land in a temporary FILE_STORAGE_DIR.

let client: Client;
let a: TestTenant;
let b: TestTenant;
let storageDir: string;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'crm-e2e-files-'));
  // The stack's processes inherit the environment of the test.
  process.env.FILE_STORAGE_DIR = storageDir;
  client = await startClient('files');
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

async function person(t: TestTenant): Promise<string> {
  const res = await client.rest(t, 'POST', '/people', { firstname: 'Ada', lastname: 'Lovelace' });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const photo = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .jpeg()
    .toBuffer();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('profile images P16-P19', () => {
  it('P17 uploads through the gateway; P16 lists the sizes; P19 serves them with an ETag', async () => {
    const id = await person(a);
    const up = await upload(
      a,
      `/people/${id}/profile-image`,
      await photo(900, 600),
      'me.jpg',
      'image/jpeg',
    );
    expect(up.status).toBe(201);
    expect(up.body.data.map((i: any) => [i.size, i.width, i.height])).toEqual([
      ['thumbnail', 64, 64],
      ['small', 160, 160],
      ['detail', 480, 320],
      ['original', 900, 600],
    ]);

    const list = await client.rest(a, 'GET', `/people/${id}/profile-images`);
    expect(list.status).toBe(200);
    expect(list.body.metaData.totalResults).toBe(4);
    expect(list.body.data[2].url).toBe(`/v1/crm/people/${id}/profile-image/detail`);
    const p = (await client.rest(a, 'GET', `/people/${id}`)).body.data;
    expect(p.detailImagePath).toBe(list.body.data[2].url);

    const detail = await bytes(a, `/people/${id}/profile-image/detail`);
    expect(detail.status).toBe(200);
    expect(detail.headers.get('content-type')).toBe('image/webp');
    expect(detail.headers.get('cache-control')).toBe('private, no-cache');
    expect(await sharp(detail.data).metadata()).toMatchObject({ width: 480, height: 320 });
    const etag = detail.headers.get('etag')!;
    expect(
      (await bytes(a, `/people/${id}/profile-image/detail`, { 'If-None-Match': etag })).status,
    ).toBe(304);
    expect((await bytes(a, `/people/${id}/profile-image/huge`)).status).toBe(404);

    const gql = await client.graphql(
      a,
      'query($id: ID!) { profileImages(personId: $id) { size width height url } }',
      { id },
    );
    expect(gql.body.data.profileImages).toHaveLength(4);
    expect(gql.body.data.profileImages[0]).toEqual({
      size: 'thumbnail',
      width: 64,
      height: 64,
      url: `/v1/crm/people/${id}/profile-image/thumbnail`,
    });
  });

  it('P17 refuses a GIF (415) and 5 MB + 1 byte (413) and keeps the current image', async () => {
    const id = await person(a);
    await upload(a, `/people/${id}/profile-image`, await photo(300, 300), 'me.jpg', 'image/jpeg');
    const before = await filesOf(a);
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
      .gif()
      .toBuffer();
    const bad = await upload(a, `/people/${id}/profile-image`, gif, 'x.jpg', 'image/jpeg');
    expect(bad.status).toBe(415);
    expect(bad.body).toMatchObject({ data: null, statusCode: 415 });
    const jpeg = await photo(64, 64);
    const big = Buffer.concat([jpeg, Buffer.alloc(5 * 1024 * 1024 + 1 - jpeg.length)]);
    const tooBig = await upload(a, `/people/${id}/profile-image`, big, 'big.jpg', 'image/jpeg');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('The file is larger than the limit of 5 MB');
    expect(await filesOf(a)).toEqual(before);
  });

  it('P17 replaces: the old files go; P18 deletes, then 404', async () => {
    const id = await person(a);
    await upload(a, `/people/${id}/profile-image`, await photo(300, 300), 'one.jpg', 'image/jpeg');
    const v1 = (await client.rest(a, 'GET', `/people/${id}`)).body.data.profileImage;
    await upload(a, `/people/${id}/profile-image`, await photo(200, 400), 'two.jpg', 'image/jpeg');
    const v2 = (await client.rest(a, 'GET', `/people/${id}`)).body.data.profileImage;
    const mine = (await filesOf(a)).filter((f) => f.includes(id));
    expect(mine.some((f) => f.includes(v1))).toBe(false);
    expect(mine.filter((f) => f.includes(v2))).toHaveLength(10);

    const del = await client.rest(a, 'DELETE', `/people/${id}/profile-image`);
    expect(del).toMatchObject({ status: 200, body: { data: { id, deleted: true } } });
    expect((await filesOf(a)).filter((f) => f.includes(id))).toEqual([]);
    expect((await client.rest(a, 'DELETE', `/people/${id}/profile-image`)).status).toBe(404);
    expect((await client.rest(a, 'GET', `/people/${id}/profile-images`)).body.data).toEqual([]);
  });

  it("another tenant's person is 404 on P16-P19 and its image stays", async () => {
    const id = await person(a);
    await upload(a, `/people/${id}/profile-image`, await photo(300, 300), 'me.jpg', 'image/jpeg');
    const files = await filesOf(a);
    expect((await client.rest(b, 'GET', `/people/${id}/profile-images`)).status).toBe(404);
    expect((await bytes(b, `/people/${id}/profile-image/detail`)).status).toBe(404);
    const foreign = await upload(
      b,
      `/people/${id}/profile-image`,
      await photo(50, 50),
      'x.jpg',
      'image/jpeg',
    );
    expect(foreign.status).toBe(404);
    expect((await client.rest(b, 'DELETE', `/people/${id}/profile-image`)).status).toBe(404);
    const gql = await client.graphql(
      b,
      'query($id: ID!) { profileImages(personId: $id) { size } }',
      { id },
    );
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect(await filesOf(a)).toEqual(files);
    expect(await filesOf(b)).toEqual([]);
    expect((await bytes(a, `/people/${id}/profile-image/detail`)).status).toBe(200);
  });
});

describe('documents P22-P23', () => {
  it('P22 uploads and lists, P23 downloads the same bytes and deletes', async () => {
    const id = await person(a);
    const data = randomBytes(2 * 1024 * 1024);
    const up = await upload(
      a,
      `/people/${id}/documents`,
      data,
      'Angebot Müller.pdf',
      'application/pdf',
    );
    expect(up.status).toBe(201);
    const doc = up.body.data;
    expect(doc).toMatchObject({
      fileName: 'Angebot Müller.pdf',
      size: data.length,
      contentType: 'application/pdf',
    });

    const list = await client.rest(a, 'GET', `/people/${id}/documents?pageSize=10`);
    expect(list.body.data).toEqual([doc]);
    expect(list.body.metaData.totalResults).toBe(1);

    const got = await bytes(a, `/people/${id}/documents/${doc.id}`);
    expect(got.status).toBe(200);
    expect(sha(got.data)).toBe(sha(data));
    expect(got.headers.get('content-disposition')).toBe(
      `attachment; filename="Angebot M_ller.pdf"; filename*=UTF-8''Angebot%20M%C3%BCller.pdf`,
    );

    const del = await client.rest(a, 'DELETE', `/people/${id}/documents/${doc.id}`);
    expect(del).toMatchObject({ status: 200, body: { data: { id: doc.id, deleted: true } } });
    expect((await bytes(a, `/people/${id}/documents/${doc.id}`)).status).toBe(404);
    expect((await filesOf(a)).filter((f) => f.includes(doc.id))).toEqual([]);
  });

  it('P22 refuses 20 MB + 1 byte with 413 and stores nothing; 400 without a file', async () => {
    const id = await person(a);
    const before = await filesOf(a);
    const big = await upload(
      a,
      `/people/${id}/documents`,
      Buffer.alloc(20 * 1024 * 1024 + 1, 7),
      'big.bin',
      'application/octet-stream',
    );
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('The file is larger than the limit of 20 MB');
    expect(await filesOf(a)).toEqual(before);
    const none = await client.raw(`/v1/crm/people/${id}/documents`, {
      method: 'POST',
      headers: headers(a),
      body: new FormData(),
    });
    expect(none.status).toBe(400);
    expect(none.body.errors[0]).toMatchObject({ field: 'file', rule: 'isDefined' });
    expect((await client.rest(a, 'GET', `/people/${id}/documents`)).body.data).toEqual([]);
  });

  it("another tenant gets 404 on P22 and P23; the owner's document stays", async () => {
    const id = await person(a);
    const doc = (
      await upload(a, `/people/${id}/documents`, Buffer.from('private'), 'p.txt', 'text/plain')
    ).body.data;
    const files = await filesOf(a);
    expect((await client.rest(b, 'GET', `/people/${id}/documents`)).status).toBe(404);
    expect(
      (await upload(b, `/people/${id}/documents`, Buffer.from('x'), 'x.txt', 'text/plain')).status,
    ).toBe(404);
    expect((await bytes(b, `/people/${id}/documents/${doc.id}`)).status).toBe(404);
    expect((await client.rest(b, 'DELETE', `/people/${id}/documents/${doc.id}`)).status).toBe(404);
    expect(await filesOf(a)).toEqual(files);
    expect(await filesOf(b)).toEqual([]);
    expect((await bytes(a, `/people/${id}/documents/${doc.id}`)).data.toString()).toBe('private');
    expect((await client.rest(a, 'GET', `/people/${randomUUID()}/documents`)).status).toBe(404);
  });
});

describe('contact extraction P24', () => {
  const text = `Best regards,
Sarah O'Connor
Senior Account Manager – Key Accounts
Widget Solutions Ltd
10 Downing Street
London SW1A 2AA
United Kingdom
T: +44 20 7946 0958
sarah.oconnor@widgetsolutions.co.uk`;

  it('REST answers person, card and confidence; German country names with Accept-Language: de', async () => {
    const res = await client.rest(
      a,
      'POST',
      '/ai/contact-extraction',
      { text },
      { 'Accept-Language': 'de' },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.person).toMatchObject({ firstname: 'Sarah', lastname: "O'Connor" });
    expect(res.body.data.card).toMatchObject({
      business: 'Widget Solutions Ltd',
      businessPositions: [{ position: 'Senior Account Manager', department: 'Key Accounts' }],
      emails: [{ mail: 'sarah.oconnor@widgetsolutions.co.uk' }],
      phones: [{ number: '+442079460958', type: 'landline' }],
      addresses: [
        { zip: 'SW1A 2AA', city: 'London', countryCode: 'GB', country: 'Vereinigtes Königreich' },
      ],
    });
    expect(res.body.data.confidence.emails).toBe(0.99);
  });

  it('REST refuses a text over 20000 characters; GraphQL extractContact answers the same card', async () => {
    const long = await client.rest(a, 'POST', '/ai/contact-extraction', {
      text: 'x'.repeat(20001),
    });
    expect(long.status).toBe(400);
    expect(long.body.errors[0]).toMatchObject({ field: 'text', rule: 'maxLength' });
    const gql = await client.graphql(
      a,
      'query($text: String!) { extractContact(text: $text) { person { lastname } card { business } } }',
      { text },
    );
    expect(gql.body.data.extractContact).toEqual({
      person: { lastname: "O'Connor" },
      card: { business: 'Widget Solutions Ltd' },
    });
  });
});

describe('P18, P22, P23 over GraphQL (uploads and downloads stay REST)', () => {
  const LIST = `query($p: ID!, $q: String) { personDocuments(personId: $p, q: $q, pageSize: 10) { totalResults items { id personId fileName contentType size url createdBy dateCreated } } }`;
  const DELETE_DOC = `mutation($p: ID!, $d: ID!) { deletePersonDocument(personId: $p, documentId: $d) { id deleted } }`;
  const DELETE_IMAGE = `mutation($p: ID!) { deleteProfileImage(personId: $p) { id deleted } }`;

  it('lists documents as REST does, deletes one and the profile image; the same NOT_FOUND, translated, for another tenant and twice', async () => {
    const id = await person(a);
    const doc = (
      await upload(a, `/people/${id}/documents`, Buffer.from('notes'), 'Notiz.txt', 'text/plain')
    ).body.data;
    await upload(a, `/people/${id}/documents`, Buffer.from('other'), 'Plan.pdf', 'application/pdf');
    await upload(a, `/people/${id}/profile-image`, await photo(300, 300), 'me.jpg', 'image/jpeg');

    const listed = await client.graphql(a, LIST, { p: id, q: 'Notiz' });
    expect(listed.body.errors).toBeUndefined();
    expect(listed.body.data.personDocuments).toEqual({ totalResults: 1, items: [doc] });

    // another tenant: NOT_FOUND for the list and both deletes, in its language, nothing changed
    const foreign = await Promise.all([
      client.graphql(b, LIST, { p: id }),
      client.graphql(b, DELETE_DOC, { p: id, d: doc.id }, { 'Accept-Language': 'de' }),
      client.graphql(b, DELETE_IMAGE, { p: id }),
    ]);
    for (const res of foreign) {
      expect(res.body.data).toBeNull();
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    }
    expect(foreign[1].body.errors[0].message).not.toBe(foreign[0].body.errors[0].message);
    expect(
      (await client.rest(a, 'GET', `/people/${id}/documents`)).body.metaData.totalResults,
    ).toBe(2);
    expect((await bytes(a, `/people/${id}/profile-image/detail`)).status).toBe(200);

    const deleted = await client.graphql(a, DELETE_DOC, { p: id, d: doc.id });
    expect(deleted.body.data.deletePersonDocument).toEqual({ id: doc.id, deleted: true });
    expect((await bytes(a, `/people/${id}/documents/${doc.id}`)).status).toBe(404);
    expect((await filesOf(a)).filter((f) => f.includes(doc.id))).toEqual([]);
    const again = await client.graphql(a, DELETE_DOC, { p: id, d: doc.id });
    expect(again.body.errors[0].extensions.code).toBe('NOT_FOUND');

    const image = await client.graphql(a, DELETE_IMAGE, { p: id });
    expect(image.body.data.deleteProfileImage).toEqual({ id, deleted: true });
    expect((await bytes(a, `/people/${id}/profile-image/detail`)).status).toBe(404);
    const imageAgain = await client.graphql(a, DELETE_IMAGE, { p: id });
    expect(imageAgain.body.errors[0].extensions.code).toBe('NOT_FOUND');
    // the REST answer of the same delete says the same
    const rest = await client.rest(a, 'DELETE', `/people/${id}/profile-image`);
    expect(rest.body.message).toBe(imageAgain.body.errors[0].message);
  });

  it('bad paging input is a 400 naming the field, as over REST', async () => {
    const id = await person(a);
    const res = await client.graphql(
      a,
      `query($p: ID!) { personDocuments(personId: $p, pageSize: 100000) { totalResults } }`,
      { p: id },
    );
    expect(res.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      statusCode: 400,
    });
    const rest = await client.rest(a, 'GET', `/people/${id}/documents?pageSize=100000`);
    expect(rest.status).toBe(400);
    expect(res.body.errors[0].extensions.errors).toEqual(rest.body.errors);
  });
});
