import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { FileStorage, InvalidStorageKeyError } from '../file-storage';
import { storageKey } from '../storage-key';

/** One backend under the contract: a fresh, empty storage per test and a look at its insides. */
export interface StorageHarness<S extends FileStorage = FileStorage> {
  storage: S;
  /** Everything the backend holds (files with metadata and temporaries, or object keys), sorted. */
  raw(): Promise<string[]>;
  /** What `raw()` lists for one stored key and nothing else. */
  rawOf(key: string): string[];
  /** Drops the metadata of a stored object, as if it had been copied in by other means. */
  dropMetadata(key: string): Promise<void>;
  close(): Promise<void>;
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('expected a value');
  return value;
}

/**
 * The FileStorage contract (file-storage.ts), run for every backend so they cannot drift apart:
 * metadata, streaming, atomic replace, failed writes leaving nothing, idempotent deletes,
 * whole-segment prefixes and key validation.
 */
export function fileStorageContract(name: string, open: () => Promise<StorageHarness>): void {
  describe(`${name}: FileStorage contract`, () => {
    let h: StorageHarness;
    const stored = (...keys: string[]) => keys.flatMap((k) => h.rawOf(k)).sort();
    const text = async (key: string) =>
      (await readAll(must(await h.storage.get(key)).stream)).toString();

    beforeEach(async () => {
      h = await open();
    });
    afterEach(async () => {
      await h.close();
    });

    it('stores a buffer and reads it back with its metadata', async () => {
      const key = storageKey('t1', 'people', 'p1', 'a.txt');
      const body = Buffer.from('hello world');
      const put = await h.storage.put(key, body, 'text/plain');
      expect(put).toMatchObject({
        key,
        size: 11,
        contentType: 'text/plain',
        sha256: createHash('sha256').update(body).digest('hex'),
      });
      expect(await h.raw()).toEqual(stored(key));
      const got = must(await h.storage.get(key));
      expect(got).toMatchObject({ size: 11, contentType: 'text/plain', sha256: put.sha256 });
      expect(Math.abs(got.lastModified.getTime() - put.lastModified.getTime())).toBeLessThan(2000);
      expect((await readAll(got.stream)).toString()).toBe('hello world');
      expect(await h.storage.stat(key)).toMatchObject({
        size: 11,
        contentType: 'text/plain',
        sha256: put.sha256,
      });
      expect(await h.storage.exists(key)).toBe(true);
    });

    it('streams a large body in, hashing it, and leaves nothing else behind', async () => {
      const key = storageKey('t1', 'big.bin');
      const chunk = Buffer.alloc(64 * 1024, 7);
      const hash = createHash('sha256');
      for (let i = 0; i < 100; i++) hash.update(chunk);
      const source = Readable.from(
        (function* () {
          for (let i = 0; i < 100; i++) yield chunk;
        })(),
      );
      const put = await h.storage.put(key, source, 'application/octet-stream');
      expect(put.size).toBe(100 * 64 * 1024);
      expect(put.sha256).toBe(hash.digest('hex'));
      expect(await h.raw()).toEqual(stored(key));
      expect((await readAll(must(await h.storage.get(key)).stream)).length).toBe(100 * 64 * 1024);
    });

    it('leaves nothing behind when the source fails, and keeps an older object whole', async () => {
      const key = storageKey('t1', 'doc');
      await h.storage.put(key, Buffer.from('old'), 'text/plain');
      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(1000, 1));
          this.destroy(new Error('client went away'));
        },
      });
      await expect(h.storage.put(key, failing, 'text/plain')).rejects.toThrow('client went away');
      expect(await h.raw()).toEqual(stored(key));
      expect(await text(key)).toBe('old');
    });

    it('replaces an object whole; a reader that opened the old one still reads it', async () => {
      const key = storageKey('t1', 'img');
      await h.storage.put(key, Buffer.from('version-1'), 'image/webp');
      const open = must(await h.storage.get(key));
      await h.storage.put(key, Buffer.from('version-2!'), 'image/png');
      expect((await readAll(open.stream)).toString()).toBe('version-1');
      expect(await h.storage.stat(key)).toMatchObject({ size: 10, contentType: 'image/png' });
      expect(await text(key)).toBe('version-2!');
      expect(await h.raw()).toEqual(stored(key));
    });

    it('answers null / false for missing objects and deletes idempotently', async () => {
      const key = storageKey('t1', 'x', 'y');
      expect(await h.storage.get(key)).toBeNull();
      expect(await h.storage.stat(key)).toBeNull();
      expect(await h.storage.exists(key)).toBe(false);
      expect(await h.storage.delete(key)).toBe(false);
      await h.storage.put(key, Buffer.from('1'), 'text/plain');
      // A folder is not an object.
      expect(await h.storage.get(storageKey('t1', 'x'))).toBeNull();
      expect(await h.storage.exists(storageKey('t1', 'x'))).toBe(false);
      expect(await h.storage.delete(key)).toBe(true);
      expect(await h.storage.delete(key)).toBe(false);
      expect(await h.raw()).toEqual([]);
    });

    it('deletes a prefix as a folder of whole segments, and only that', async () => {
      const keep = [storageKey('t1', 'p10', 'c'), storageKey('t2', 'p1', 'd')];
      await h.storage.put(storageKey('t1', 'p1', 'a'), Buffer.from('a'), 'text/plain');
      await h.storage.put(storageKey('t1', 'p1', 'sub', 'b'), Buffer.from('b'), 'text/plain');
      for (const k of keep) await h.storage.put(k, Buffer.from('k'), 'text/plain');
      expect(await h.storage.deletePrefix(storageKey('t1', 'p1'))).toBe(2);
      expect(await h.storage.deletePrefix(storageKey('t1', 'p1'))).toBe(0);
      // A prefix naming an object, not a folder, removes nothing.
      expect(await h.storage.deletePrefix(storageKey('t1', 'p10', 'c'))).toBe(0);
      expect(await h.raw()).toEqual(stored(...keep));
      expect(await h.storage.deletePrefix('tenants/t2/')).toBe(1);
      expect(await h.storage.exists(keep[0])).toBe(true);
      expect(await h.raw()).toEqual(stored(keep[0]));
    });

    it('refuses keys that are malformed, could leave the root or lack a tenant', async () => {
      await h.storage.put(storageKey('t1', 'kept'), Buffer.from('k'), 'text/plain');
      for (const key of [
        '../secret.txt',
        'tenants/t1/../../../secret.txt',
        'tenants/t1/%2E%2E/x/..',
        'tenants/t1',
        'secret.txt',
        'tenants/t1/.x.meta.json',
        'tenants//t1/x',
        '/tenants/t1/x',
      ]) {
        await expect(h.storage.get(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
        await expect(h.storage.stat(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
        await expect(h.storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(
          InvalidStorageKeyError,
        );
        await expect(h.storage.delete(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      }
      for (const prefix of ['tenants', '', 'tenants/', '../tenants/t1']) {
        await expect(h.storage.deletePrefix(prefix)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      }
      expect(await h.raw()).toEqual(stored(storageKey('t1', 'kept')));
    });

    it('keeps tenants apart even when their ids differ only by characters a path treats specially', async () => {
      await h.storage.put(storageKey('a/b', 'f'), Buffer.from('1'), 'text/plain');
      await h.storage.put(storageKey('a', 'b', 'f'), Buffer.from('2'), 'text/plain');
      expect(await text(storageKey('a/b', 'f'))).toBe('1');
      expect(await text(storageKey('a', 'b', 'f'))).toBe('2');
      expect(await h.storage.deletePrefix(storageKey('a', 'b'))).toBe(1);
      expect(await text(storageKey('a/b', 'f'))).toBe('1');
    });

    it('serves an object without metadata as bytes', async () => {
      const key = storageKey('t1', 'raw');
      await h.storage.put(key, Buffer.from('abc'), 'text/plain');
      await h.dropMetadata(key);
      expect(await h.storage.stat(key)).toMatchObject({
        size: 3,
        contentType: 'application/octet-stream',
        sha256: '',
      });
      expect(await text(key)).toBe('abc');
    });
  });
}
