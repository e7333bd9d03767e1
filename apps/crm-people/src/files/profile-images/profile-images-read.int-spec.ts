import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { FilesService, startWithStorage } from '../test/files-harness';
import { imagesClient, jpeg } from '../test/images-client';

// Services start slowly on a busy machine; 20 MB uploads take a while.
jest.setTimeout(60000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;

let svc: FilesService;
const { api, call, upload, image, person } = imagesClient(() => svc, A);

beforeAll(async () => {
  svc = await startWithStorage('crm_people_it_f_images_read');
}, 60000);
afterAll(async () => {
  await svc?.stop();
}, 30000);

describe('P16 GET profile-images, P19 GET profile-image/{size}, P18 DELETE', () => {
  it('lists nothing for a person without image and 404s its bytes', async () => {
    const id = await person();
    expect((await call('GET', `/people/${id}/profile-images`)).body).toMatchObject({
      data: [],
      statusCode: 200,
    });
    expect((await image(id, 'detail')).status).toBe(404);
    expect((await call('DELETE', `/people/${id}/profile-image`)).status).toBe(404);
  });

  it('lists the sizes, serves each with an ETag and answers 304 to a current copy', async () => {
    const id = await person();
    await upload(id, await jpeg(800, 600));
    const list = (await call('GET', `/people/${id}/profile-images`)).body;
    expect(list.metaData.totalResults).toBe(4);
    expect(list.data.map((i: any) => i.url)).toEqual(
      ['thumbnail', 'small', 'detail', 'original'].map(
        (s) => `/v1/crm/people/${id}/profile-image/${s}`,
      ),
    );
    for (const i of list.data) {
      const got = await image(id, i.size);
      expect(got.status).toBe(200);
      expect(got.bytes.length).toBe(i.bytes);
      expect(await sharp(got.bytes).metadata()).toMatchObject({ width: i.width, height: i.height });
    }
    const first = await image(id, 'small');
    const again = await image(id, 'small', A, { 'If-None-Match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect((await image(id, 'huge')).status).toBe(404);
  });

  it('GraphQL profileImages(personId) answers the same list', async () => {
    const id = await person();
    await upload(id, await jpeg(300, 300));
    const { body } = await api.graphqlAs(
      A,
      'query($id: ID!) { profileImages(personId: $id) { size width height url } }',
      { id },
    );
    expect(body.data.profileImages).toEqual([
      {
        size: 'thumbnail',
        width: 64,
        height: 64,
        url: `/v1/crm/people/${id}/profile-image/thumbnail`,
      },
      { size: 'small', width: 160, height: 160, url: `/v1/crm/people/${id}/profile-image/small` },
      { size: 'detail', width: 300, height: 300, url: `/v1/crm/people/${id}/profile-image/detail` },
      {
        size: 'original',
        width: 300,
        height: 300,
        url: `/v1/crm/people/${id}/profile-image/original`,
      },
    ]);
  });

  it('P18 deletes the image and its files', async () => {
    const id = await person();
    await upload(id, await jpeg(300, 300));
    const del = await call('DELETE', `/people/${id}/profile-image`);
    expect(del).toMatchObject({ status: 200, body: { data: { id, deleted: true } } });
    expect(await svc.filesOf(A).then((f) => f.filter((x) => x.includes(id)))).toEqual([]);
    const p = (await call('GET', `/people/${id}`)).body.data;
    expect(p).toMatchObject({ profileImage: null, detailImagePath: null });
    expect((await call('GET', `/people/${id}/profile-images`)).body.data).toEqual([]);
  });

  it("another tenant's person is 404 on every route, and its files stay untouched", async () => {
    const id = await person(A);
    await upload(id, await jpeg(300, 300));
    const files = await svc.filesOf(A);
    const version = (await call('GET', `/people/${id}`)).body.data.profileImage;

    expect((await call('GET', `/people/${id}/profile-images`, undefined, B)).status).toBe(404);
    expect((await image(id, 'detail', B)).status).toBe(404);
    expect((await upload(id, await jpeg(50, 50), { tenant: B })).status).toBe(404);
    expect((await call('DELETE', `/people/${id}/profile-image`, undefined, B)).status).toBe(404);

    expect(await svc.filesOf(A)).toEqual(files);
    expect(await svc.filesOf(B)).toEqual([]);
    expect((await call('GET', `/people/${id}`)).body.data.profileImage).toBe(version);
    expect((await image(id, 'detail')).status).toBe(200);
  });
});
