import { randomUUID } from 'node:crypto';
import { startS3Server, TestS3Server, uploadHeaders } from '@crm/testing';
import { clientOf, CompaniesUnderTest, startWithStorage } from './test/files-harness';
import { jpeg } from './test/images';

// crm-companies with FILE_STORAGE_BACKEND=s3 on a real S3-compatible server (s3rver): logos and
// documents become objects under S3_PREFIX, are served back through the service, and deleting
// companies (C6, C7) leaves none of their objects while other companies keep theirs.
jest.setTimeout(60000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
let s3: TestS3Server;
let svc: CompaniesUnderTest;
const { api, call, company } = clientOf(() => svc, A);

const filesOf = async (id: string) => (await svc.filesOf(A)).filter((f) => f.includes(id));

async function withFiles(name: string): Promise<string> {
  const id = await company(name);
  const logo = await api.upload(
    `/companies/${id}/logo`,
    { data: await jpeg(120, 80), type: 'image/jpeg', name: 'logo.jpg' },
    uploadHeaders(A),
  );
  expect(logo.status).toBe(201);
  const doc = await api.upload(
    `/companies/${id}/documents`,
    { data: `terms of ${name}`, type: 'text/plain', name: 'terms.txt' },
    uploadHeaders(A),
  );
  expect(doc.status).toBe(201);
  return id;
}

beforeAll(async () => {
  s3 = await startS3Server();
  svc = await startWithStorage('crm_companies_it_files_s3', s3);
}, 60000);
afterAll(async () => {
  await svc?.stop();
  await s3?.stop();
}, 30000);

it('stores logos and documents as objects and serves them back through the service', async () => {
  const id = await withFiles('Acme');
  // filesOf lists the bucket under `crm-companies/tenants/<A>/` (S3_PREFIX, then the key).
  expect(await filesOf(id)).toEqual(
    expect.arrayContaining([expect.stringMatching(new RegExp(`^companies/${id}/logo/`))]),
  );
  expect((await filesOf(id)).filter((f) => f.includes('/documents/'))).toHaveLength(1);
  const docs = await call('GET', `/companies/${id}/documents`);
  const got = await api.rest(
    'GET',
    `/companies/${id}/documents/${docs.body.data[0].id}`,
    undefined,
    uploadHeaders(A),
  );
  expect(got.status).toBe(200);
  expect(got.text).toBe('terms of Acme');
  const logo = await api.rest('GET', `/companies/${id}/logo`, undefined, uploadHeaders(A));
  expect(logo.status).toBe(200);
});

it('C6 / C7: deleting companies leaves none of their objects', async () => {
  const [one, two, kept] = [
    await withFiles('One'),
    await withFiles('Two'),
    await withFiles('Kept'),
  ];
  expect((await call('DELETE', `/companies/${one}`)).status).toBe(200);
  expect(await filesOf(one)).toEqual([]);
  expect((await call('DELETE', '/companies/batch', { ids: [two] })).status).toBe(200);
  expect(await filesOf(two)).toEqual([]);
  expect((await filesOf(kept)).length).toBeGreaterThan(1);
});
