import {
  RunningService,
  ServiceTestClient,
  StoredFilesUnderTest,
  uploadHeaders,
} from '@crm/testing';

export interface UploadOptions {
  tenant?: string;
  type?: string;
  name?: string;
  field?: string;
  lang?: string;
}

/** REST calls of the profile image tests against one running service, as tenant `A` by default. */
export function imagesClient(svc: () => RunningService & StoredFilesUnderTest, A: string) {
  const api = new ServiceTestClient(() => svc().url);

  const call = (method: string, path: string, body?: unknown, tenant = A) =>
    api.restAs(tenant, method, path, body);

  const upload = (personId: string, data: Buffer, opts: UploadOptions = {}) =>
    api.upload(
      `/people/${personId}/profile-image`,
      { data, field: opts.field, type: opts.type ?? 'image/jpeg', name: opts.name ?? 'me.jpg' },
      uploadHeaders(opts.tenant ?? A, opts.lang ? { 'Accept-Language': opts.lang } : {}),
    );

  const image = (personId: string, size: string, tenant = A, extra: Record<string, string> = {}) =>
    api.rest(
      'GET',
      `/people/${personId}/profile-image/${size}`,
      undefined,
      uploadHeaders(tenant, extra),
    );

  async function person(tenant = A): Promise<string> {
    const { status, body } = await call(
      'POST',
      '/people',
      { firstname: 'Ada', lastname: 'Lovelace' },
      tenant,
    );
    if (status !== 201) throw new Error(`create person: ${JSON.stringify(body)}`);
    return body.data.id;
  }

  /** The stored files of one person of tenant A. */
  const filesOfPerson = async (id: string) =>
    (await svc().filesOf(A)).filter((f) => f.includes(id));

  return { api, call, upload, image, person, filesOfPerson };
}

/** Test images of the profile image tests: the shared makers of @crm/testing. */
export { jpeg, png, webp } from '@crm/testing';
