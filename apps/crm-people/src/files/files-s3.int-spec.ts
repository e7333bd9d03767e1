import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  RunningService,
  S3FileStorageUnderTest,
  startS3Server,
  TestS3Server,
  uploadHeaders,
  withS3FileStorage,
} from '@crm/testing';
import { startCrmPeople } from '../test/service-harness';
import { imagesClient, jpeg } from './test/images-client';

// The same app with FILE_STORAGE_BACKEND=s3 on a real S3-compatible server (s3rver): uploads
// land in the bucket under S3_PREFIX, downloads stream back through the service, and deleting a
// person leaves no object behind. Nothing in the app knows which backend it has.
jest.setTimeout(60000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;
let s3: TestS3Server;
let svc: RunningService & S3FileStorageUnderTest;
const { api, call, upload, image, person, filesOfPerson } = imagesClient(() => svc, A);

const addDocument = (personId: string, data: Buffer, name: string, tenant = A) =>
  api.upload(
    `/people/${personId}/documents`,
    { data, name, type: 'application/pdf' },
    uploadHeaders(tenant),
  );
const download = (personId: string, id: string, tenant = A, extra: Record<string, string> = {}) =>
  api.rest('GET', `/people/${personId}/documents/${id}`, undefined, uploadHeaders(tenant, extra));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  s3 = await startS3Server();
  svc = await withS3FileStorage('crm-people', s3, (env) =>
    startCrmPeople('crm_people_it_f_s3', env),
  );
}, 60000);
afterAll(async () => {
  await svc?.stop();
  await s3?.stop();
}, 30000);

it('stores documents and profile images as objects under S3_PREFIX and serves them back', async () => {
  const id = await person();
  const data = randomBytes(300_000);
  const up = await addDocument(id, data, 'report.pdf');
  expect(up.status).toBe(201);
  const docId = up.body.data.id;
  expect((await upload(id, await jpeg(300, 300))).status).toBe(201);

  const keys = await s3.keys(svc.bucket);
  expect(keys).toContain(`crm-people/tenants/${A}/people/${id}/documents/${docId}`);
  expect(
    keys.some((k) => k.startsWith(`crm-people/tenants/${A}/people/${id}/profile-image/`)),
  ).toBe(true);
  expect(keys.every((k) => k.startsWith('crm-people/'))).toBe(true);

  const got = await download(id, docId);
  expect(got.status).toBe(200);
  expect(sha(got.bytes)).toBe(sha(data));
  expect(got.headers.get('content-type')).toBe('application/pdf');
  expect(got.headers.get('content-length')).toBe('300000');
  // The ETag is the stored SHA-256 (object metadata), so a revalidation answers 304.
  const etag = got.headers.get('etag')!;
  expect(etag).toBe(`"${sha(data).slice(0, 32)}"`);
  expect((await download(id, docId, A, { 'If-None-Match': etag })).status).toBe(304);

  const small = await image(id, 'small');
  expect(small.status).toBe(200);
  expect(small.headers.get('content-type')).toBe('image/webp');

  // Another tenant does not reach the object, whatever the key.
  expect((await download(id, docId, B)).status).toBe(404);

  expect((await call('DELETE', `/people/${id}/documents/${docId}`)).status).toBe(200);
  expect((await download(id, docId)).status).toBe(404);
  expect(await filesOfPerson(id)).not.toContainEqual(expect.stringContaining('documents'));
});

it('stores nothing for an unknown person or a file above the limit', async () => {
  const before = await s3.keys(svc.bucket);
  expect((await addDocument(randomUUID(), Buffer.from('x'), 'x.pdf')).status).toBe(404);
  const id = await person();
  expect((await addDocument(id, Buffer.alloc(20 * 1024 * 1024 + 1, 1), 'big.pdf')).status).toBe(
    413,
  );
  expect(await s3.keys(svc.bucket)).toEqual(before);
});

it('P6 / P10: deleting people leaves none of their objects', async () => {
  const ids = [await person(), await person(), await person()];
  for (const id of ids) {
    expect((await upload(id, await jpeg(200, 200))).status).toBe(201);
    expect((await addDocument(id, Buffer.from(`doc of ${id}`), 'a.pdf')).status).toBe(201);
    expect((await filesOfPerson(id)).length).toBeGreaterThan(1);
  }
  expect((await call('DELETE', `/people/${ids[0]}`)).status).toBe(200);
  expect(await filesOfPerson(ids[0])).toEqual([]);
  expect((await filesOfPerson(ids[1])).length).toBeGreaterThan(1);
  expect((await call('DELETE', '/people/batch', { ids: ids.slice(1) })).status).toBe(200);
  for (const id of ids) expect(await filesOfPerson(id)).toEqual([]);
});
