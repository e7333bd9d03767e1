import { randomUUID } from 'node:crypto';
import { FilesService, startWithStorage } from '../test/files-harness';
import { imagesClient, jpeg } from '../test/images-client';

// P17 under contention, against the real service and PostgreSQL: @crm/files switches
// Person.profileImage with the person's row locked, so concurrent uploads all succeed and
// exactly one version's files remain.

jest.setTimeout(60000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;

let svc: FilesService;
const { upload, call, person, filesOfPerson } = imagesClient(() => svc, A);

/** The version folders stored for a person (…/profile-image/<version>/…). */
const versionsOf = async (id: string) =>
  [
    ...new Set((await filesOfPerson(id)).map((f) => /profile-image\/([^/]+)\//.exec(f)?.[1] ?? f)),
  ].sort();

beforeAll(async () => {
  svc = await startWithStorage('crm_people_it_f_images_conc');
}, 60000);
afterAll(async () => {
  await svc?.stop();
}, 30000);

describe('P17 concurrent uploads', () => {
  it('all succeed and leave one version, and only its files', async () => {
    const id = await person();
    const results = await Promise.all(
      [1, 2, 3, 4].map(async (n) => upload(id, await jpeg(60 * n, 60))),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(await versionsOf(id)).toHaveLength(1);
    // the survivor is the image the person shows
    const list = await call('GET', `/people/${id}/profile-images`);
    const widths = results.map((r) => r.body.data[3].width);
    expect(widths).toContain(list.body.data[3].width);
  });

  it('an id written in upper case stores under the person folder that person delete removes', async () => {
    const id = await person();
    expect((await upload(id.toUpperCase(), await jpeg(80, 80))).status).toBe(201);
    expect((await svc.filesOf(A)).filter((f) => f.includes(id.toUpperCase()))).toEqual([]);
    expect(await versionsOf(id)).toHaveLength(1);
    expect((await call('DELETE', `/people/${id}`)).status).toBe(200);
    expect(await filesOfPerson(id)).toEqual([]);
  });
});
