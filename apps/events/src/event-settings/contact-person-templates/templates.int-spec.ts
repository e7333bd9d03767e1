import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { jpeg, png, gif, ServiceTestClient, uploadHeaders, tenantHeaders } from '@crm/testing';
import { startEvents, RunningService } from '../../test/service-harness';
import { errorsOf } from '../test/settings-test-client';

// ES4 contact-person-templates, ES5 CRUD, ES6 copy, ES7 image, REST and GraphQL, against the real
// service (PostgreSQL, NATS, disk storage).

jest.setTimeout(60000);

let svc: RunningService;
let api: ServiceTestClient;
const newTenant = () => `tenant-cpt-${randomUUID().slice(0, 8)}`;
const A = newTenant();
const B = newTenant();
const BASE = '/event-settings/contact-person-templates';

beforeAll(async () => {
  svc = await startEvents('events_it_settings_templates');
  api = new ServiceTestClient(svc.url);
}, 90000);
afterAll(async () => {
  await svc?.app.close();
});

async function template(body: Record<string, unknown>, tenant = A): Promise<any> {
  const res = await api.restAs(tenant, 'POST', BASE, body);
  expect(res.status).toBe(201);
  return res.body.data;
}

const upload = (id: string, data: Buffer, tenant = A, type = 'image/jpeg') =>
  api.upload(`${BASE}/${id}/image`, { data, name: 'me.jpg', type }, uploadHeaders(tenant));

describe('ES5 contact person templates', () => {
  it('creates, reads, replaces and deletes; another tenant gets 404 and changes nothing', async () => {
    const created = await template({
      name: ' Front desk ',
      salutation: 'Ms',
      firstname: 'Erika',
      lastname: 'Mustermann',
      email: 'erika@example.com',
    });
    expect(created).toMatchObject({
      name: 'Front desk',
      salutation: 'Ms',
      title: null,
      firstname: 'Erika',
      email: 'erika@example.com',
      image: null,
      createdBy: 'test-suite',
    });
    const read = await api.restAs(A, 'GET', `${BASE}/${created.id}`);
    expect(read.body.data).toEqual(created);

    const put = await api.restAs(A, 'PUT', `${BASE}/${created.id.toUpperCase()}`, {
      name: 'Desk',
      phone: '+49 30 1234',
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ name: 'Desk', phone: '+49 30 1234', firstname: null });

    for (const [method, path, body] of [
      ['GET', `${BASE}/${created.id}`, undefined],
      ['PUT', `${BASE}/${created.id}`, { name: 'Stolen' }],
      ['DELETE', `${BASE}/${created.id}`, undefined],
      ['POST', `${BASE}/${created.id}/copy`, undefined],
      ['DELETE', `${BASE}/${created.id}/image`, undefined],
      ['GET', `${BASE}/not-a-uuid`, undefined],
    ] as const) {
      const res = await api.restAs(B, method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    expect((await api.restAs(A, 'GET', `${BASE}/${created.id}`)).body.data.name).toBe('Desk');

    const bad = await api.restAs(A, 'POST', BASE, { name: '  ', email: 'nope', extra: 1 });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.body).sort()).toEqual(
      [
        ['email', 'isEmail'],
        ['extra', 'whitelistValidation'],
      ].sort(),
    );
    const blank = await api.restAs(A, 'POST', BASE, { name: '  ' });
    expect(errorsOf(blank.body)).toEqual([['name', 'isNotEmpty']]);

    const deleted = await api.restAs(A, 'DELETE', `${BASE}/${created.id}`);
    expect(deleted.status).toBe(200);
    expect((await api.restAs(A, 'GET', `${BASE}/${created.id}`)).status).toBe(404);
  });

  it('ES4 lists them paged, searched and sorted, per tenant', async () => {
    const T = newTenant();
    for (const name of ['Charlie', 'Alpha', 'Bravo'])
      await template({ name, lastname: `L-${name}` }, T);
    await template({ name: 'Other tenant' }, newTenant());
    const all = await api.restAs(T, 'GET', `${BASE}?pageSize=2`);
    expect(all.status).toBe(200);
    expect(all.body.metaData.totalResults).toBe(3);
    expect(all.body.data.map((t: any) => t.name)).toEqual(['Alpha', 'Bravo']);
    const desc = await api.restAs(T, 'GET', `${BASE}?sort=-name`);
    expect(desc.body.data.map((t: any) => t.name)).toEqual(['Charlie', 'Bravo', 'Alpha']);
    const q = await api.restAs(T, 'GET', `${BASE}?q=l-br`);
    expect(q.body.data.map((t: any) => t.name)).toEqual(['Bravo']);
    const badSort = await api.restAs(T, 'GET', `${BASE}?sort=email`);
    expect(badSort.status).toBe(400);
  });
});

describe('ES7 image and ES6 copy', () => {
  it('uploads, serves, replaces and deletes the image; sizes derived', async () => {
    const t = await template({ name: 'Portrait' });
    const up = await upload(t.id, await jpeg(800, 600));
    expect(up.status).toBe(201);
    expect(up.body.data.images.map((i: any) => [i.size, i.width, i.height])).toEqual([
      ['thumbnail', 64, 64],
      ['small', 160, 160],
      ['detail', 480, 360],
      ['original', 800, 600],
    ]);
    const bytes = await api.rest(
      'GET',
      `${BASE}/${t.id}/image?size=small`,
      undefined,
      tenantHeaders(A),
    );
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(bytes.bytes).metadata()).width).toBe(160);
    const listed = await api.restAs(A, 'GET', `${BASE}/${t.id}`);
    expect(listed.body.data.image.images[1]).toEqual({
      size: 'small',
      url: `/v1/crm${BASE}/${t.id}/image?size=small`,
    });
    expect((await api.restAs(B, 'GET', `${BASE}/${t.id}/image`)).status).toBe(404);
    expect((await upload(t.id, await jpeg(10, 10), B)).status).toBe(404);
    expect((await api.restAs(A, 'GET', `${BASE}/${t.id}/image?size=huge`)).status).toBe(400);
    const wrongType = await upload(t.id, await gif(), A, 'image/gif');
    expect(wrongType.status).toBe(415);

    expect((await upload(t.id, await png(300, 300), A, 'image/png')).status).toBe(201);
    const gql = await api.graphqlAs(
      A,
      `query($id: ID!) { contactPersonTemplateImage(id: $id) { images { size width } } }`,
      { id: t.id },
    );
    expect(gql.body.data.contactPersonTemplateImage.images[3]).toEqual({
      size: 'original',
      width: 300,
    });

    const removed = await api.restAs(A, 'DELETE', `${BASE}/${t.id}/image`);
    expect(removed.status).toBe(200);
    expect((await api.restAs(A, 'GET', `${BASE}/${t.id}/image`)).status).toBe(404);
    expect((await api.restAs(A, 'DELETE', `${BASE}/${t.id}/image`)).status).toBe(404);
  });

  it("ES6 copies fields and image (own files), named in the caller's language", async () => {
    const t = await template({ name: 'Host', firstname: 'Max', title: 'Dr.' });
    await upload(t.id, await jpeg(400, 400));
    const copy = await api.restAs(A, 'POST', `${BASE}/${t.id}/copy`, undefined, {
      'Accept-Language': 'de',
    });
    expect(copy.status).toBe(201);
    expect(copy.body.data).toMatchObject({ name: 'Host (Kopie)', firstname: 'Max', title: 'Dr.' });
    expect(copy.body.data.id).not.toBe(t.id);
    expect(copy.body.data.image).not.toBeNull();
    // the copy's image stays when the original loses its own
    expect((await api.restAs(A, 'DELETE', `${BASE}/${t.id}`)).status).toBe(200);
    const img = await api.rest(
      'GET',
      `${BASE}/${copy.body.data.id}/image?size=thumbnail`,
      undefined,
      tenantHeaders(A),
    );
    expect(img.status).toBe(200);
    expect((await sharp(img.bytes).metadata()).width).toBe(64);

    const plain = await template({ name: 'No image' });
    const en = await api.restAs(A, 'POST', `${BASE}/${plain.id}/copy`);
    expect(en.body.data).toMatchObject({ name: 'No image (copy)', image: null });
  });
});

describe('GraphQL contact person templates', () => {
  it('create, list, update, copy, delete', async () => {
    const T = newTenant();
    const created = await api.graphqlAs(
      T,
      `mutation($input: ContactPersonTemplateInput!) { createContactPersonTemplate(input: $input) { id name email } }`,
      { input: { name: 'GQL', email: 'gql@example.com' } },
    );
    const id = created.body.data.createContactPersonTemplate.id;
    expect(created.body.data.createContactPersonTemplate).toMatchObject({ name: 'GQL' });
    const bad = await api.graphqlAs(
      T,
      `mutation { createContactPersonTemplate(input: { name: "x", email: "no" }) { id } }`,
    );
    expect(bad.body.errors[0].extensions).toMatchObject({ statusCode: 400 });
    const updated = await api.graphqlAs(
      T,
      `mutation($id: ID!) { updateContactPersonTemplate(id: $id, input: { name: "GQL 2" }) { name email } }`,
      { id },
    );
    expect(updated.body.data.updateContactPersonTemplate).toEqual({ name: 'GQL 2', email: null });
    const copy = await api.graphqlAs(
      T,
      `mutation($id: ID!) { copyContactPersonTemplate(id: $id) { name } }`,
      { id },
    );
    expect(copy.body.data.copyContactPersonTemplate.name).toBe('GQL 2 (copy)');
    const list = await api.graphqlAs(
      T,
      `{ contactPersonTemplates { totalResults items { name } } }`,
    );
    expect(list.body.data.contactPersonTemplates).toEqual({
      totalResults: 2,
      items: [{ name: 'GQL 2' }, { name: 'GQL 2 (copy)' }],
    });
    const foreign = await api.graphqlAs(
      newTenant(),
      `mutation($id: ID!) { deleteContactPersonTemplate(id: $id) { id } }`,
      { id },
    );
    expect(foreign.body.errors[0].extensions).toMatchObject({ statusCode: 404 });
    const deleted = await api.graphqlAs(
      T,
      `mutation($id: ID!) { deleteContactPersonTemplate(id: $id) { id } }`,
      { id },
    );
    expect(deleted.body.data.deleteContactPersonTemplate).toEqual({ id });
  });
});
