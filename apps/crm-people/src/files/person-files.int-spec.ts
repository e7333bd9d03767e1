import { randomUUID } from 'node:crypto';
import { uploadHeaders } from '@crm/testing';
import { FilesService, startWithStorage } from './test/files-harness';
import { imagesClient, jpeg } from './test/images-client';

// Stored bytes follow the people they belong to: deleted with them (P6, P10), and a merged
// source's profile image goes with the source (P20) while its documents move to the target.
jest.setTimeout(60000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
let svc: FilesService;
const { api, call, upload, person } = imagesClient(() => svc, A);

async function addDocument(personId: string, name: string) {
  const res = await api.upload(
    `/people/${personId}/documents`,
    { data: `content of ${name}`, type: 'text/plain', name },
    uploadHeaders(A),
  );
  expect(res.status).toBe(201);
}

const filesOfPerson = async (id: string) => (await svc.filesOf(A)).filter((f) => f.includes(id));

beforeAll(async () => {
  svc = await startWithStorage('crm_people_it_f_cleanup');
}, 60000);
afterAll(async () => svc?.stop(), 30000);

it('P6 removes the profile image and documents of a deleted person', async () => {
  const id = await person();
  await upload(id, await jpeg(300, 300));
  await addDocument(id, 'contract.txt');
  expect((await filesOfPerson(id)).length).toBeGreaterThan(0);
  expect((await call('DELETE', `/people/${id}`)).status).toBe(200);
  expect(await filesOfPerson(id)).toEqual([]);
});

it('P10 removes the files of every deleted person', async () => {
  const ids = [await person(), await person()];
  for (const id of ids) await upload(id, await jpeg(200, 200));
  expect((await call('DELETE', '/people/batch', { ids })).status).toBe(200);
  for (const id of ids) expect(await filesOfPerson(id)).toEqual([]);
});

it('P20 drops the source profile image but keeps the documents that moved to the target', async () => {
  const target = await person();
  const source = await person();
  await upload(source, await jpeg(200, 200));
  await addDocument(source, 'moved.txt');
  const merged = await call('POST', '/people/merge', { targetId: target, sourceIds: [source] });
  expect(merged.status).toBe(200);
  const left = await filesOfPerson(source);
  expect(left.some((f) => f.includes('profile-image'))).toBe(false);
  expect(left.some((f) => f.includes('documents'))).toBe(true);
  const docs = await call('GET', `/people/${target}/documents`);
  expect(docs.body.data).toHaveLength(1);
  const download = await api.rest(
    'GET',
    `/people/${target}/documents/${docs.body.data[0].id}`,
    undefined,
    uploadHeaders(A),
  );
  expect(download.text).toBe('content of moved.txt');
});
