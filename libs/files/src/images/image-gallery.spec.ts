import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { AppException, ErrorCode } from '@crm/errors';
import { FileStorage, storageKey } from '@crm/storage';
import type { ImageRendering, ReceivedFile } from '@crm/storage';
import { ctx, MemoryGalleryStore, MemoryTx } from '../test/memory-stores';
import { BACKENDS, TestStorage, useTestStorage } from '../test/test-storages';
import { ImageGallery } from './image-gallery';

type Size = 'thumb' | 'full';
const RENDERING: ImageRendering<Size> = {
  sizes: ['thumb', 'full'],
  specs: { thumb: { px: 16, square: true, quality: 80 }, full: { px: 64, quality: 85 } },
  accepted: ['png', 'jpeg'],
};

let storage: FileStorage;
let stored: TestStorage;
let store: MemoryGalleryStore;
let gallery: ImageGallery<Size, MemoryTx>;

const A = ctx('tenant-a');
const B = ctx('tenant-b');
let owner: string;
const folderOf = (tenantId: string, ownerId: string, id: string) =>
  storageKey(tenantId, 'owners', ownerId, 'images', id);

const png = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 4, background: '#c00a' } })
    .png()
    .toBuffer();
const received = (buffer: Buffer, name = 'x.png'): ReceivedFile => ({
  fieldname: 'file',
  originalname: name,
  mimetype: 'image/png',
  size: buffer.length,
  buffer,
});
const rejection = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err as AppException,
  );
/** Image folders stored for an owner. */
async function folders(ownerId = owner, tenantId = A.tenantId): Promise<string[]> {
  return stored.children(`tenants/${tenantId}/owners/${ownerId}/images`);
}

describe.each(BACKENDS)('on %s storage', (backend) => {
  const testStorage = useTestStorage(backend);

  beforeEach(async () => {
    stored = testStorage();
    storage = stored.storage;
    store = new MemoryGalleryStore();
    owner = randomUUID();
    store.addOwner(A.tenantId, owner);
    gallery = new ImageGallery(storage, store, {
      name: 'TestGallery',
      rendering: RENDERING,
      folder: folderOf,
      ownerNotFound: (_c, id) => AppException.notFound('Owner', id),
      imageNotFound: (_c, id) => AppException.notFound('Image', id),
      maxImages: 3,
    });
  });

  describe('ImageGallery', () => {
    it('stores every size of each upload in its own folder, appended in order', async () => {
      const first = await gallery.upload(
        A,
        owner.toUpperCase(),
        received(await png(100, 50), 'a/b.png'),
      );
      const second = await gallery.upload(A, owner, received(await png(20, 20)));
      expect(first).toMatchObject({
        ownerId: owner,
        fileName: 'b.png',
        position: 0,
        createdBy: 'test-suite',
      });
      expect(first.images.map((i) => [i.size, i.width, i.height])).toEqual([
        ['thumb', 16, 16],
        ['full', 64, 32],
      ]);
      expect(second.position).toBe(1);
      expect(await folders()).toEqual([first.id, second.id].sort());
      const list = await gallery.list(A, owner);
      expect(list.map((i) => i.id)).toEqual([first.id, second.id]);
      expect(list[0].images).toEqual(first.images);
      expect(await gallery.describe(A, owner, first.id.toUpperCase())).toEqual(list[0]);
      const file = await gallery.open(A, owner, second.id, 'full');
      const chunks: Buffer[] = [];
      for await (const c of file.file.stream) chunks.push(c as Buffer);
      expect((await sharp(Buffer.concat(chunks)).metadata()).format).toBe('webp');
    });

    it('refuses one image more than the limit (409), also under concurrent uploads', async () => {
      store.insertDelayMs = 20;
      const img = await png(10, 10);
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, () => gallery.upload(A, owner, received(img))),
      );
      const ok = results.filter((r) => r.status === 'fulfilled');
      expect(ok).toHaveLength(3);
      for (const r of results.filter((r) => r.status === 'rejected')) {
        expect(((r as PromiseRejectedResult).reason as AppException).code).toBe(ErrorCode.CONFLICT);
      }
      expect(store.rows).toHaveLength(3);
      // the losers' files are gone: one folder per row
      expect(await folders()).toEqual(store.rows.map((r) => r.id).sort());
      // the burst waited for the owner in the process, not in transactions (pooled connections)
      // queued behind its row lock
      expect(store.mostOpenTransactions).toBe(1);
    });

    it('another tenant, an unknown owner or image: 404, nothing stored or removed', async () => {
      const img = await gallery.upload(A, owner, received(await png(10, 10)));
      expect((await rejection(gallery.upload(B, owner, received(await png(10, 10))))).code).toBe(
        ErrorCode.NOT_FOUND,
      );
      expect((await rejection(gallery.list(B, owner))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await rejection(gallery.describe(B, owner, img.id))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await rejection(gallery.open(B, owner, img.id, 'thumb'))).code).toBe(
        ErrorCode.NOT_FOUND,
      );
      expect((await rejection(gallery.remove(B, owner, img.id))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await rejection(gallery.remove(A, owner, randomUUID()))).code).toBe(
        ErrorCode.NOT_FOUND,
      );
      expect((await rejection(gallery.describe(A, owner, 'nope'))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await rejection(gallery.list(A, 'not-a-uuid'))).code).toBe(ErrorCode.NOT_FOUND);
      expect(store.rows).toHaveLength(1);
      expect(await folders()).toEqual([img.id]);
      expect(await folders(owner, B.tenantId)).toEqual([]);
    });

    it('a missing, empty or undecodable file is a 400; nothing kept', async () => {
      expect((await rejection(gallery.upload(A, owner, undefined))).problems[0]).toMatchObject({
        field: 'file',
        rule: 'isDefined',
      });
      expect(
        (await rejection(gallery.upload(A, owner, received(Buffer.alloc(0))))).problems[0],
      ).toMatchObject({ rule: 'isNotEmpty' });
      const bad = await rejection(gallery.upload(A, owner, received(Buffer.from('not an image'))));
      expect(bad.status).toBeGreaterThanOrEqual(400);
      expect(bad.status).toBeLessThan(500);
      expect(await folders()).toEqual([]);
    });

    it('removes the files when the row cannot be written (owner deleted meanwhile, database error)', async () => {
      store.failInsert = new Error('database down');
      await expect(gallery.upload(A, owner, received(await png(10, 10)))).rejects.toThrow(
        'database down',
      );
      expect(await folders()).toEqual([]);
      store.failInsert = null;
      store.insertDelayMs = 30;
      const pending = gallery.upload(A, owner, received(await png(10, 10)));
      store.removeOwner(A.tenantId, owner);
      expect((await rejection(pending)).code).toBe(ErrorCode.NOT_FOUND);
      expect(await folders()).toEqual([]);
    });

    it('delete removes the row, then its folder; the others stay', async () => {
      const a = await gallery.upload(A, owner, received(await png(10, 10)));
      const b = await gallery.upload(A, owner, received(await png(10, 10)));
      expect(await gallery.remove(A, owner, a.id.toUpperCase())).toEqual({
        id: a.id,
        deleted: true,
      });
      expect(store.rows.map((r) => r.id)).toEqual([b.id]);
      expect(await folders()).toEqual([b.id]);
      expect((await rejection(gallery.remove(A, owner, a.id))).code).toBe(ErrorCode.NOT_FOUND);
    });

    it('copyAll copies rows and bytes to another owner under new ids', async () => {
      const a = await gallery.upload(A, owner, received(await png(30, 10)));
      const target = randomUUID();
      store.addOwner(A.tenantId, target);
      const out = await store.transaction((tx) =>
        gallery.copyAll(tx, A.tenantId, owner, target, { name: 'copier', userId: null }),
      );
      expect(out.copied).toBe(1);
      const copies = await gallery.list(A, target);
      expect(copies).toHaveLength(1);
      expect(copies[0].id).not.toBe(a.id);
      expect(copies[0]).toMatchObject({
        position: a.position,
        fileName: a.fileName,
        images: a.images,
        createdBy: 'copier',
      });
      expect(await folders(target)).toEqual([copies[0].id]);
      // the source is untouched
      expect((await gallery.list(A, owner)).map((i) => i.id)).toEqual([a.id]);
    });
  });
});
