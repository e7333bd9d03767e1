import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { uploadHeaders } from '@crm/testing';
import { FilesService, startWithStorage } from '../test/files-harness';
import { imagesClient, jpeg, png, webp } from '../test/images-client';

// Services start slowly on a busy machine; 20 MB uploads take a while.
jest.setTimeout(60000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const MB5 = 5 * 1024 * 1024;

let svc: FilesService;
const { api, call, upload, image, person } = imagesClient(() => svc, A);

beforeAll(async () => {
  svc = await startWithStorage('crm_people_it_f_images');
}, 60000);
afterAll(async () => {
  await svc?.stop();
}, 30000);

describe('P17 POST /people/{id}/profile-image', () => {
  it('derives every size from a JPEG as WebP, stores them and points the person at them', async () => {
    const id = await person();
    const { status, body } = await upload(id, await jpeg(1200, 800));
    expect(status).toBe(201);
    expect(body.data).toEqual([
      expect.objectContaining({
        size: 'thumbnail',
        width: 64,
        height: 64,
        contentType: 'image/webp',
      }),
      expect.objectContaining({ size: 'small', width: 160, height: 160 }),
      expect.objectContaining({ size: 'detail', width: 480, height: 320 }),
      expect.objectContaining({ size: 'original', width: 1200, height: 800 }),
    ]);
    expect(body.data[2].url).toBe(`/v1/crm/people/${id}/profile-image/detail`);

    const p = (await call('GET', `/people/${id}`)).body.data;
    expect(p.profileImage).toMatch(/^[0-9a-f-]{36}$/);
    expect(p.detailImagePath).toBe(`/v1/crm/people/${id}/profile-image/detail`);
    expect(await svc.filesOf(A).then((f) => f.filter((x) => x.includes(id)))).toEqual(
      ['detail.webp', 'manifest.json', 'original.webp', 'small.webp', 'thumbnail.webp']
        .flatMap((f) => [`.${f}.meta.json`, f])
        .map((f) => `people/${id}/profile-image/${p.profileImage}/${f}`)
        .sort(),
    );

    const detail = await image(id, 'detail');
    expect(detail.status).toBe(200);
    expect(detail.headers.get('content-type')).toBe('image/webp');
    expect(detail.headers.get('cache-control')).toBe('private, no-cache');
    expect(detail.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Number(detail.headers.get('content-length'))).toBe(detail.bytes.length);
    expect(await sharp(detail.bytes).metadata()).toMatchObject({
      format: 'webp',
      width: 480,
      height: 320,
    });
  });

  it('caps the original at 2048 pixels and never enlarges a small image', async () => {
    const id = await person();
    const big = await upload(id, await jpeg(3000, 1000));
    expect(big.body.data.find((i: any) => i.size === 'original')).toMatchObject({
      width: 2048,
      height: 683,
    });
    const small = await upload(id, await webp(100, 50), { type: 'image/webp', name: 'tiny.webp' });
    expect(small.status).toBe(201);
    expect(small.body.data.map((i: any) => [i.size, i.width, i.height])).toEqual([
      ['thumbnail', 50, 50],
      ['small', 50, 50],
      ['detail', 100, 50],
      ['original', 100, 50],
    ]);
  });

  it('turns a photo upright by its EXIF orientation and strips the metadata', async () => {
    const id = await person();
    const sideways = await sharp(await jpeg(400, 200))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const r = await upload(id, sideways);
    expect(r.body.data.find((i: any) => i.size === 'original')).toMatchObject({
      width: 200,
      height: 400,
    });
    const meta = await sharp((await image(id, 'original')).bytes).metadata();
    expect(meta).toMatchObject({ width: 200, height: 400 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it('accepts a PNG with transparency and keeps the alpha channel', async () => {
    const id = await person();
    expect(
      (await upload(id, await png(300, 300), { type: 'image/png', name: 'a.png' })).status,
    ).toBe(201);
    const meta = await sharp((await image(id, 'small')).bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', hasAlpha: true });
  });

  it('detects the type from the bytes: a GIF, a PDF or text named .jpg is 415, a PNG sent as text is fine', async () => {
    const id = await person();
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: 'red' } })
      .gif()
      .toBuffer();
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    for (const [data, detected] of [
      [gif, 'image/gif'],
      [pdf, 'unknown'],
      [Buffer.from('not an image at all'), 'unknown'],
    ] as const) {
      const r = await upload(id, data, { type: 'image/jpeg', name: 'x.jpg' });
      expect(r.status).toBe(415);
      expect(r.body).toMatchObject({ data: null, statusCode: 415 });
      expect(r.body.message).toContain(detected);
    }
    const de = await upload(id, gif, { lang: 'de' });
    expect(de.body.message).toBe(
      'Die Datei ist kein JPEG-, PNG- oder WebP-Bild (erkannt: image/gif)',
    );
    expect(await svc.filesOf(A).then((f) => f.filter((x) => x.includes(id)))).toEqual([]);
    expect(
      (await upload(id, await png(20, 20), { type: 'text/plain', name: 'x.txt' })).status,
    ).toBe(201);
  });

  it('a damaged JPEG is 400 and stores nothing', async () => {
    const id = await person();
    const good = await jpeg(400, 300);
    const r = await upload(id, good.subarray(0, Math.floor(good.length / 2)));
    expect(r.status).toBe(400);
    expect(await svc.filesOf(A).then((f) => f.filter((x) => x.includes(id)))).toEqual([]);
  });

  it('accepts exactly 5 MB; 5 MB + 1 byte is 413 and nothing is stored or changed', async () => {
    const id = await person();
    const small = await jpeg(64, 64);
    const exact = Buffer.concat([small, Buffer.alloc(MB5 - small.length)]);
    expect((await upload(id, exact)).status).toBe(201);
    const before = await svc.filesOf(A);
    const version = (await call('GET', `/people/${id}`)).body.data.profileImage;

    const tooBig = await upload(id, Buffer.concat([exact, Buffer.from([0])]));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({
      data: null,
      statusCode: 413,
      message: 'The file is larger than the limit of 5 MB',
    });
    expect(await svc.filesOf(A)).toEqual(before);
    expect((await call('GET', `/people/${id}`)).body.data.profileImage).toBe(version);
  });

  it('replacing deletes the old files after the new ones are in place', async () => {
    const id = await person();
    await upload(id, await jpeg(600, 600));
    const v1 = (await call('GET', `/people/${id}`)).body.data.profileImage;
    const etag1 = (await image(id, 'thumbnail')).headers.get('etag');
    await upload(id, await png(500, 250), { type: 'image/png' });
    const v2 = (await call('GET', `/people/${id}`)).body.data.profileImage;
    expect(v2).not.toBe(v1);
    const files = await svc.filesOf(A);
    expect(files.filter((f) => f.includes(v1))).toEqual([]);
    expect(files.filter((f) => f.includes(v2))).toHaveLength(10);
    expect((await image(id, 'thumbnail')).headers.get('etag')).not.toBe(etag1);
  });

  it('400 without a file, 400 for another field name, 404 for an unknown person', async () => {
    const id = await person();
    const none = await api.rest(
      'POST',
      `/people/${id}/profile-image`,
      new FormData(),
      uploadHeaders(A),
    );
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual([
      expect.objectContaining({ field: 'file', rule: 'isDefined' }),
    ]);
    const other = await upload(id, await jpeg(10, 10), { field: 'image' });
    expect(other.status).toBe(400);
    expect(other.body.message).toContain('"image"');
    expect((await upload(randomUUID(), await jpeg(10, 10))).status).toBe(404);
    expect((await upload('not-a-uuid', await jpeg(10, 10))).status).toBe(404);
  });
});
