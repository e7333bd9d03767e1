import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { uploadHeaders } from '@crm/testing';
import { clientOf, CompaniesUnderTest, startWithStorage } from '../test/files-harness';
import { gif, jpeg, png, svg, webp } from '../test/images';

// C28 against the real service: sizes derived with sharp from real images, stored per version
// under the company's folder, swapped in a transaction; 413/415/400/404 store nothing.

jest.setTimeout(60000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const B = `tenant-b-${randomUUID().slice(0, 8)}`;
const MB5 = 5 * 1024 * 1024;

let svc: CompaniesUnderTest;
const { api, call, gql, company } = clientOf(() => svc, A);

interface UploadOptions {
  tenant?: string;
  type?: string;
  name?: string;
  field?: string;
  lang?: string;
}

const upload = (companyId: string, data: Buffer, opts: UploadOptions = {}) =>
  api.upload(
    `/companies/${companyId}/logo`,
    { data, field: opts.field, type: opts.type ?? 'image/jpeg', name: opts.name ?? 'logo.jpg' },
    uploadHeaders(opts.tenant ?? A, opts.lang ? { 'Accept-Language': opts.lang } : {}),
  );

const image = (companyId: string, query = '', tenant = A, extra: Record<string, string> = {}) =>
  api.rest('GET', `/companies/${companyId}/logo${query}`, undefined, uploadHeaders(tenant, extra));

const stored = (id: string) =>
  svc.db.company.findUniqueOrThrow({
    where: { id },
    select: { logo: true, logoDateModified: true },
  });
const filesOf = async (id: string) => (await svc.filesOf(A)).filter((f) => f.includes(id));

beforeAll(async () => {
  svc = await startWithStorage('crm_companies_it_logo');
}, 60000);
afterAll(async () => {
  await svc?.stop();
}, 30000);

describe('C28 POST /companies/{id}/logo', () => {
  it('derives every size as WebP without cropping, stores them and points the company at them', async () => {
    const id = await company();
    const before = new Date();
    const { status, body } = await upload(id, await jpeg(1200, 800));
    expect(status).toBe(201);
    const row = await stored(id);
    expect(row.logo).toMatch(/^[0-9a-f-]{36}$/);
    expect(row.logoDateModified!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(body.data).toEqual({
      companyId: id,
      dateModified: row.logoDateModified!.toISOString(),
      images: [
        {
          size: 'thumbnail',
          width: 64,
          height: 43,
          contentType: 'image/webp',
          bytes: expect.any(Number),
          url: `/v1/crm/companies/${id}/logo?size=thumbnail`,
        },
        {
          size: 'small',
          width: 160,
          height: 107,
          contentType: 'image/webp',
          bytes: expect.any(Number),
          url: `/v1/crm/companies/${id}/logo?size=small`,
        },
        {
          size: 'detail',
          width: 480,
          height: 320,
          contentType: 'image/webp',
          bytes: expect.any(Number),
          url: `/v1/crm/companies/${id}/logo?size=detail`,
        },
        {
          size: 'original',
          width: 1200,
          height: 800,
          contentType: 'image/webp',
          bytes: expect.any(Number),
          url: `/v1/crm/companies/${id}/logo?size=original`,
        },
      ],
    });
    expect(await filesOf(id)).toEqual(
      ['detail.webp', 'manifest.json', 'original.webp', 'small.webp', 'thumbnail.webp']
        .flatMap((f) => [`.${f}.meta.json`, f])
        .map((f) => `companies/${id}/logo/${row.logo}/${f}`)
        .sort(),
    );
  });

  it('keeps the transparency of a PNG', async () => {
    const id = await company();
    expect(
      (await upload(id, await png(300, 100), { type: 'image/png', name: 'a.png' })).status,
    ).toBe(201);
    const meta = await sharp((await image(id, '?size=small')).bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', hasAlpha: true, width: 160, height: 53 });
  });

  it('renders an SVG (at 2048 for the original) and never serves it as SVG', async () => {
    const id = await company();
    const res = await upload(id, svg(200, 50), { type: 'image/svg+xml', name: 'logo.svg' });
    expect(res.status).toBe(201);
    expect(res.body.data.images.map((i: any) => [i.size, i.width, i.height])).toEqual([
      ['thumbnail', 64, 16],
      ['small', 160, 40],
      ['detail', 480, 120],
      ['original', 2048, 512],
    ]);
    const original = await image(id);
    expect(original.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(original.bytes).metadata()).toMatchObject({
      format: 'webp',
      width: 2048,
      hasAlpha: true,
    });
  });

  it('turns a photo upright by its EXIF orientation and strips the metadata', async () => {
    const id = await company();
    expect((await upload(id, await jpeg(400, 200, 6))).status).toBe(201);
    const meta = await sharp((await image(id)).bytes).metadata();
    expect(meta).toMatchObject({ width: 200, height: 400 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect((await upload(id, await webp(50, 50), { type: 'image/webp' })).status).toBe(201);
  });

  it('detects the type from the bytes: GIF, PDF or text named .jpg is 415, stores nothing', async () => {
    const id = await company();
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    for (const [data, detected] of [
      [await gif(), 'image/gif'],
      [pdf, 'unknown'],
      [Buffer.from('not an image at all'), 'unknown'],
    ] as const) {
      const r = await upload(id, data, { type: 'image/jpeg', name: 'x.jpg' });
      expect(r.status).toBe(415);
      expect(r.body).toMatchObject({
        data: null,
        statusCode: 415,
        message: `The file is not a JPEG, PNG, WebP or SVG image (detected: ${detected})`,
      });
    }
    const de = await upload(id, await gif(), { lang: 'de' });
    expect(de.body.message).toBe(
      'Die Datei ist kein JPEG-, PNG-, WebP- oder SVG-Bild (erkannt: image/gif)',
    );
    expect(await filesOf(id)).toEqual([]);
    expect((await stored(id)).logo).toBeNull();
  });

  it('a damaged JPEG is 400 and stores nothing', async () => {
    const id = await company();
    const good = await jpeg(400, 300);
    const r = await upload(id, good.subarray(0, Math.floor(good.length / 2)));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('The image could not be decoded: it is damaged or incomplete');
    expect(await filesOf(id)).toEqual([]);
  });

  it('accepts exactly 5 MB; 5 MB + 1 byte is 413 and nothing is stored or changed', async () => {
    const id = await company();
    const small = await jpeg(64, 64);
    const exact = Buffer.concat([small, Buffer.alloc(MB5 - small.length)]);
    expect((await upload(id, exact)).status).toBe(201);
    const before = await svc.filesOf(A);
    const version = (await stored(id)).logo;
    const tooBig = await upload(id, Buffer.concat([exact, Buffer.from([0])]));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({
      data: null,
      statusCode: 413,
      message: 'The file is larger than the limit of 5 MB',
    });
    expect(await svc.filesOf(A)).toEqual(before);
    expect((await stored(id)).logo).toBe(version);
  });

  it('replacing removes the old files after the new ones are in place', async () => {
    const id = await company();
    await upload(id, await jpeg(600, 600));
    const v1 = (await stored(id)).logo!;
    const etag1 = (await image(id, '?size=thumbnail')).headers.get('etag');
    await upload(id, await png(500, 250), { type: 'image/png' });
    const v2 = (await stored(id)).logo!;
    expect(v2).not.toBe(v1);
    const files = await filesOf(id);
    expect(files.filter((f) => f.includes(v1))).toEqual([]);
    expect(files.filter((f) => f.includes(v2))).toHaveLength(10);
    expect((await image(id, '?size=thumbnail')).headers.get('etag')).not.toBe(etag1);
  });

  it('concurrent uploads leave one version, and only its files', async () => {
    const id = await company();
    const results = await Promise.all(
      [1, 2, 3].map(async (n) => upload(id, await jpeg(100 * n, 100))),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    const version = (await stored(id)).logo!;
    const files = await filesOf(id);
    expect(files).toHaveLength(10);
    expect(files.every((f) => f.includes(version))).toBe(true);
  });

  it('400 without a file, for another field name or an empty file; 404 for unknown companies', async () => {
    const id = await company();
    const none = await api.rest('POST', `/companies/${id}/logo`, new FormData(), uploadHeaders(A));
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual([
      expect.objectContaining({ field: 'file', rule: 'isDefined' }),
    ]);
    const other = await upload(id, await jpeg(10, 10), { field: 'image' });
    expect(other.status).toBe(400);
    expect(other.body.message).toBe(
      'Unexpected file field "image": send the file in the field "file"',
    );
    const empty = await upload(id, Buffer.alloc(0));
    expect(empty.body.errors[0]).toMatchObject({ field: 'file', rule: 'isNotEmpty' });
    const unknown = randomUUID();
    const missing = await upload(unknown, await jpeg(10, 10));
    expect(missing).toMatchObject({
      status: 404,
      body: { message: `Company ${unknown} was not found` },
    });
    expect((await upload('not-a-uuid', await jpeg(10, 10))).status).toBe(404);
    expect(await filesOf(id)).toEqual([]);
  });

  it('an id written in upper case still stores under the company folder', async () => {
    const id = await company();
    expect((await upload(id.toUpperCase(), await jpeg(100, 100))).status).toBe(201);
    expect(await filesOf(id)).toHaveLength(10);
    expect((await image(id)).status).toBe(200);
  });
});

describe('C28 GET and DELETE /companies/{id}/logo', () => {
  it('serves each size with an ETag and answers 304 to a current copy', async () => {
    const id = await company();
    const sizes = (await upload(id, await jpeg(800, 400))).body.data.images;
    for (const i of sizes) {
      const got = await image(id, `?size=${i.size}`);
      expect(got.status).toBe(200);
      expect(got.bytes.length).toBe(i.bytes);
      expect(await sharp(got.bytes).metadata()).toMatchObject({ width: i.width, height: i.height });
    }
    const original = await image(id);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/webp');
    expect(original.headers.get('cache-control')).toBe('private, no-cache');
    expect(original.headers.get('x-content-type-options')).toBe('nosniff');
    expect(original.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await sharp(original.bytes).metadata()).toMatchObject({ width: 800, height: 400 });
    const again = await image(id, '', A, { 'If-None-Match': original.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    // other query parameters (cache busters) are left alone
    expect((await image(id, '?size=small&v=17')).status).toBe(200);
  });

  it('400 for an unknown size; 404 without a logo', async () => {
    const id = await company();
    const none = await image(id);
    expect(none.status).toBe(404);
    expect(JSON.parse(none.bytes.toString()).message).toBe(`The company ${id} has no logo`);
    await upload(id, await jpeg(100, 100));
    const huge = await image(id, '?size=huge');
    expect(huge.status).toBe(400);
    expect(JSON.parse(huge.bytes.toString()).errors[0]).toMatchObject({
      field: 'size',
      rule: 'isIn',
    });
  });

  it('DELETE removes the logo and its files; then 404', async () => {
    const id = await company();
    await upload(id, await jpeg(300, 300));
    const del = await call('DELETE', `/companies/${id}/logo`);
    expect(del).toMatchObject({ status: 200, body: { data: { id, deleted: true } } });
    expect(await filesOf(id)).toEqual([]);
    const row = await stored(id);
    expect(row.logo).toBeNull();
    expect(row.logoDateModified).not.toBeNull();
    expect((await image(id)).status).toBe(404);
    const again = await call('DELETE', `/companies/${id}/logo`, undefined, A, {
      'Accept-Language': 'de',
    });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(`Das Unternehmen ${id} hat kein Logo`);
  });

  it("another tenant's company is 404 on every route, and its logo stays", async () => {
    const id = await company();
    await upload(id, await jpeg(300, 300));
    const files = await svc.filesOf(A);
    const version = (await stored(id)).logo;
    expect((await image(id, '', B)).status).toBe(404);
    expect((await upload(id, await jpeg(50, 50), { tenant: B })).status).toBe(404);
    expect((await call('DELETE', `/companies/${id}/logo`, undefined, B)).status).toBe(404);
    const gqlForeign = await gql(
      'query($id: ID!) { companyLogo(companyId: $id) { companyId } }',
      { id },
      B,
    );
    expect(gqlForeign.body.errors[0].extensions).toMatchObject({
      code: 'NOT_FOUND',
      statusCode: 404,
    });
    expect(await svc.filesOf(A)).toEqual(files);
    expect(await svc.filesOf(B)).toEqual([]);
    expect((await stored(id)).logo).toBe(version);
    expect((await image(id)).status).toBe(200);
  });
});

describe('GraphQL', () => {
  it('companyLogo answers the sizes (null without a logo); deleteCompanyLogo removes it', async () => {
    const id = await company();
    const q =
      'query($id: ID!) { companyLogo(companyId: $id) { companyId dateModified images { size width height url } } }';
    expect((await gql(q, { id })).body.data.companyLogo).toBeNull();
    await upload(id, await jpeg(300, 150));
    const logo = (await gql(q, { id })).body.data.companyLogo;
    expect(logo).toEqual({
      companyId: id,
      dateModified: (await stored(id)).logoDateModified!.toISOString(),
      images: [
        {
          size: 'thumbnail',
          width: 64,
          height: 32,
          url: `/v1/crm/companies/${id}/logo?size=thumbnail`,
        },
        { size: 'small', width: 160, height: 80, url: `/v1/crm/companies/${id}/logo?size=small` },
        {
          size: 'detail',
          width: 300,
          height: 150,
          url: `/v1/crm/companies/${id}/logo?size=detail`,
        },
        {
          size: 'original',
          width: 300,
          height: 150,
          url: `/v1/crm/companies/${id}/logo?size=original`,
        },
      ],
    });
    const del = await gql(
      'mutation($id: ID!) { deleteCompanyLogo(companyId: $id) { id deleted } }',
      { id },
    );
    expect(del.body.data.deleteCompanyLogo).toEqual({ id, deleted: true });
    expect(await filesOf(id)).toEqual([]);
    const again = await gql('mutation($id: ID!) { deleteCompanyLogo(companyId: $id) { id } }', {
      id,
    });
    expect(again.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
    const unknown = await gql(q, { id: randomUUID() });
    expect(unknown.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
