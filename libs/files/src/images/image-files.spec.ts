import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { AppException, ErrorCode } from '@crm/errors';
import { FileStorage, storageKey } from '@crm/storage';
import type { ImageRendering, ReceivedFile } from '@crm/storage';
import { ctx, MemoryImageStore, MemoryTx } from '../test/memory-stores';
import { BACKENDS, TestStorage, useTestStorage } from '../test/test-storages';
import { ImageFiles } from './image-files';

type Size = 'thumb' | 'full';
const RENDERING: ImageRendering<Size> = {
  sizes: ['thumb', 'full'],
  specs: { thumb: { px: 16, square: true, quality: 80 }, full: { px: 64, quality: 85 } },
  accepted: ['png', 'jpeg'],
};

let storage: FileStorage;
let stored: TestStorage;
let store: MemoryImageStore;
let images: ImageFiles<Size, MemoryTx>;

const A = ctx('tenant-a');
const owner = randomUUID();
const folderOf = (tenantId: string, ownerId: string, version: string) =>
  storageKey(tenantId, 'owners', ownerId, 'image', version);

const png = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 4, background: '#c00a' } })
    .png()
    .toBuffer();

const received = (buffer: Buffer): ReceivedFile => ({
  fieldname: 'file',
  originalname: 'x.png',
  mimetype: 'image/png',
  size: buffer.length,
  buffer,
});

/** The version folders stored for the owner. */
async function versions(ownerId = owner): Promise<string[]> {
  return stored.children(`tenants/${A.tenantId}/owners/${ownerId}/image`);
}

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err as AppException,
  );

describe.each(BACKENDS)('on %s storage', (backend) => {
  const testStorage = useTestStorage(backend);

  beforeEach(async () => {
    stored = testStorage();
    storage = stored.storage;
    store = new MemoryImageStore();
    store.addOwner(A.tenantId, owner);
    images = new ImageFiles(storage, store, {
      name: 'TestImages',
      rendering: RENDERING,
      folder: folderOf,
      ownerNotFound: (_c, id) => AppException.notFound('Owner', id),
      noneMessage: 'files.test.none',
    });
  });

  describe('ImageFiles', () => {
    it('stores every size and a manifest under a new version and points the owner at it', async () => {
      const image = await images.upload(A, owner.toUpperCase(), received(await png(100, 50)));
      expect(image).toMatchObject({
        ownerId: owner,
        images: [
          { size: 'thumb', width: 16, height: 16, contentType: 'image/webp' },
          { size: 'full', width: 64, height: 32, contentType: 'image/webp' },
        ],
      });
      expect(store.version(A.tenantId, owner)).toBe(image.version);
      expect(store.writers).toEqual([{ name: 'test-suite', userId: null }]);
      expect(await versions()).toEqual([image.version]);
      expect(await images.describe(A, owner)).toEqual({
        ...image,
        dateModified: image.dateModified,
      });

      const answer = await images.open(A, owner, 'full');
      expect(answer.file).toMatchObject({ contentType: 'image/webp', size: image.images[1].bytes });
      answer.file.stream.destroy();
    });

    it("a replace removes the previous version's files only after the switch", async () => {
      const first = await images.upload(A, owner, received(await png(40, 40)));
      const second = await images.upload(A, owner, received(await png(30, 30)));
      expect(await versions()).toEqual([second.version]);
      expect(store.version(A.tenantId, owner)).toBe(second.version);
      expect(first.version).not.toBe(second.version);
    });

    it('when the switch fails, the new files go and the current image stays', async () => {
      const first = await images.upload(A, owner, received(await png(40, 40)));
      store.failSet = new Error('connection terminated');
      await expect(images.upload(A, owner, received(await png(30, 30)))).rejects.toBe(
        store.failSet,
      );
      expect(await versions()).toEqual([first.version]);
      expect(store.version(A.tenantId, owner)).toBe(first.version);
    });

    it('concurrent uploads leave one version, and only its files (the owner row is locked)', async () => {
      const data = await png(40, 40);
      store.setDelayMs = 100;
      const results = await Promise.all(
        [1, 2, 3, 4].map(() => images.upload(A, owner, received(data))),
      );
      const current = store.version(A.tenantId, owner);
      expect(results.map((r) => r.version)).toContain(current);
      expect(await versions()).toEqual([current]);
    });

    it('a bad upload stores nothing: not an accepted format, empty, missing', async () => {
      const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } })
        .gif()
        .toBuffer();
      expect(await rejection(images.upload(A, owner, received(gif)))).toMatchObject({
        code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      });
      expect(
        (await rejection(images.upload(A, owner, received(Buffer.alloc(0))))).problems[0],
      ).toMatchObject({
        rule: 'isNotEmpty',
      });
      expect((await rejection(images.upload(A, owner, undefined))).problems[0]).toMatchObject({
        rule: 'isDefined',
      });
      expect(await versions()).toEqual([]);
      expect(store.version(A.tenantId, owner)).toBeNull();
    });

    it('remove clears the column and the files; without an image it is the none 404', async () => {
      await images.upload(A, owner, received(await png(20, 20)));
      expect(await images.remove(A, owner)).toEqual({ id: owner, deleted: true });
      expect(store.version(A.tenantId, owner)).toBeNull();
      expect(await versions()).toEqual([]);
      expect(await images.describe(A, owner)).toBeNull();
      expect(await rejection(images.remove(A, owner))).toMatchObject({
        messageKey: 'files.test.none',
        args: { id: owner },
      });
      expect(await rejection(images.open(A, owner, 'thumb'))).toMatchObject({
        messageKey: 'files.test.none',
      });
    });

    it("unknown, malformed and other tenants' owners are the owner's 404 everywhere", async () => {
      const B = ctx('tenant-b');
      const data = received(await png(20, 20));
      for (const [c, id] of [
        [A, randomUUID()],
        [A, 'not-a-uuid'],
        [B, owner],
      ] as const) {
        for (const call of [
          () => images.describe(c, id),
          () => images.upload(c, id, data),
          () => images.remove(c, id),
          () => images.open(c, id, 'full'),
        ]) {
          expect(await rejection(call())).toMatchObject({ args: { resource: 'Owner' } });
        }
      }
      expect(await versions()).toEqual([]);
    });

    it('a version in the column that this library did not write counts as no image', async () => {
      store.addOwner(A.tenantId, owner, '../../etc');
      expect(await images.describe(A, owner)).toBeNull();
      expect(await rejection(images.remove(A, owner))).toMatchObject({
        messageKey: 'files.test.none',
      });
      expect(images.isSize('full')).toBe(true);
      expect(images.isSize('original')).toBe(false);
    });
  });
});
