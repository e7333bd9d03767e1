import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DiskStorage } from './disk-storage';
import { InvalidStorageKeyError } from './file-storage';
import { storageKey } from './storage-key';
import { fileStorageContract, StorageHarness } from './test/file-storage.contract';

/** Every file under `dir`, hidden ones included, as paths relative to `base`. */
async function tree(dir: string, base: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(path.relative(base, path.join(e.parentPath, e.name)));
  }
  return out.sort();
}

/** A DiskStorage on a fresh temporary folder; its insides are the files under it. */
async function openDisk(): Promise<StorageHarness<DiskStorage> & { root: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'crm-storage-'));
  const storage = new DiskStorage(path.join(root, 'files'));
  await storage.init();
  const metaOf = (key: string) => path.join(path.dirname(key), `.${path.basename(key)}.meta.json`);
  return {
    root,
    storage,
    raw: () => tree(storage.root, storage.root),
    rawOf: (key) => [key, metaOf(key)],
    dropMetadata: (key) => rm(path.join(storage.root, metaOf(key))),
    close: () => rm(root, { recursive: true, force: true }),
  };
}

fileStorageContract('DiskStorage', openDisk);

describe('DiskStorage on disk', () => {
  let h: Awaited<ReturnType<typeof openDisk>>;
  beforeEach(async () => {
    h = await openDisk();
  });
  afterEach(async () => {
    await h.close();
  });

  it('lays an object out at root/<key>, its metadata beside it', async () => {
    await h.storage.put(storageKey('t1', 'people', 'p1', 'a.txt'), Buffer.from('hi'), 'text/plain');
    expect(await readFile(path.join(h.root, 'files/tenants/t1/people/p1/a.txt'), 'utf8')).toBe(
      'hi',
    );
    expect(await tree(h.root, h.root)).toEqual([
      'files/tenants/t1/people/p1/.a.txt.meta.json',
      'files/tenants/t1/people/p1/a.txt',
    ]);
  });

  it('never touches a file outside the root, whatever the key', async () => {
    const outside = path.join(h.root, 'secret.txt');
    await writeFile(outside, 'secret');
    for (const key of ['../secret.txt', 'tenants/t1/../../../secret.txt']) {
      await expect(h.storage.delete(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(h.storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(
        InvalidStorageKeyError,
      );
    }
    expect(await readFile(outside, 'utf8')).toBe('secret');
  });
});
