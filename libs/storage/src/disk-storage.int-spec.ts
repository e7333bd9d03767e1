import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DiskStorage } from './disk-storage';
import { InvalidStorageKeyError } from './file-storage';
import { storageKey } from './storage-key';

let root: string;
let storage: DiskStorage;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Every file under the root, hidden ones included, as relative paths. */
async function tree(dir = root): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(path.relative(root, path.join(e.parentPath, e.name)));
  }
  return out.sort();
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'crm-storage-'));
  storage = new DiskStorage(path.join(root, 'files'));
  await storage.init();
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('DiskStorage', () => {
  it('stores a buffer under root/<key> and reads it back with its metadata', async () => {
    const key = storageKey('t1', 'people', 'p1', 'a.txt');
    const body = Buffer.from('hello world');
    const put = await storage.put(key, body, 'text/plain');
    expect(put).toMatchObject({
      key,
      size: 11,
      contentType: 'text/plain',
      sha256: createHash('sha256').update(body).digest('hex'),
    });
    expect(await readFile(path.join(root, 'files/tenants/t1/people/p1/a.txt'), 'utf8')).toBe(
      'hello world',
    );
    const got = await storage.get(key);
    expect(got).toMatchObject({ size: 11, contentType: 'text/plain', sha256: put.sha256 });
    expect((await readAll(got!.stream)).toString()).toBe('hello world');
    expect(await storage.stat(key)).toMatchObject({ size: 11, contentType: 'text/plain' });
    expect(await storage.exists(key)).toBe(true);
  });

  it('streams a large body without leaving temporary files', async () => {
    const key = storageKey('t1', 'big.bin');
    const chunk = Buffer.alloc(64 * 1024, 7);
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < 100; i++) yield chunk;
      })(),
    );
    const put = await storage.put(key, source, 'application/octet-stream');
    expect(put.size).toBe(100 * 64 * 1024);
    expect(await tree()).toEqual([
      'files/tenants/t1/.big.bin.meta.json',
      'files/tenants/t1/big.bin',
    ]);
  });

  it('leaves nothing behind when the source fails, and keeps an older object whole', async () => {
    const key = storageKey('t1', 'doc');
    await storage.put(key, Buffer.from('old'), 'text/plain');
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1000, 1));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.put(key, failing, 'text/plain')).rejects.toThrow('client went away');
    expect(await tree()).toEqual(['files/tenants/t1/.doc.meta.json', 'files/tenants/t1/doc']);
    expect((await readAll((await storage.get(key))!.stream)).toString()).toBe('old');
  });

  it('replaces an object; a reader that opened the old one still reads it whole', async () => {
    const key = storageKey('t1', 'img');
    await storage.put(key, Buffer.from('version-1'), 'image/webp');
    const open = await storage.get(key);
    await storage.put(key, Buffer.from('version-2!'), 'image/png');
    expect((await readAll(open!.stream)).toString()).toBe('version-1');
    const now = await storage.get(key);
    expect(now).toMatchObject({ size: 10, contentType: 'image/png' });
    expect((await readAll(now!.stream)).toString()).toBe('version-2!');
  });

  it('answers null / false for missing objects and deletes idempotently', async () => {
    const key = storageKey('t1', 'x', 'y');
    expect(await storage.get(key)).toBeNull();
    expect(await storage.stat(key)).toBeNull();
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.delete(key)).toBe(false);
    await storage.put(key, Buffer.from('1'), 'text/plain');
    expect(await storage.delete(key)).toBe(true);
    expect(await storage.delete(key)).toBe(false);
    expect(await tree()).toEqual([]);
    // A folder is not an object.
    expect(await storage.get(storageKey('t1', 'x'))).toBeNull();
    expect(await storage.exists(storageKey('t1', 'x'))).toBe(false);
  });

  it('deletes a prefix as a folder of whole segments, and only that', async () => {
    await storage.put(storageKey('t1', 'p1', 'a'), Buffer.from('a'), 'text/plain');
    await storage.put(storageKey('t1', 'p1', 'sub', 'b'), Buffer.from('b'), 'text/plain');
    await storage.put(storageKey('t1', 'p10', 'c'), Buffer.from('c'), 'text/plain');
    await storage.put(storageKey('t2', 'p1', 'd'), Buffer.from('d'), 'text/plain');
    expect(await storage.deletePrefix(storageKey('t1', 'p1'))).toBe(2);
    expect(await storage.deletePrefix(storageKey('t1', 'p1'))).toBe(0);
    // A prefix naming an object, not a folder, removes nothing.
    expect(await storage.deletePrefix(storageKey('t1', 'p10', 'c'))).toBe(0);
    expect(await tree()).toEqual([
      'files/tenants/t1/p10/.c.meta.json',
      'files/tenants/t1/p10/c',
      'files/tenants/t2/p1/.d.meta.json',
      'files/tenants/t2/p1/d',
    ]);
    expect(await storage.deletePrefix('tenants/t2/')).toBe(1);
    expect(await storage.exists(storageKey('t1', 'p10', 'c'))).toBe(true);
  });

  it('refuses keys that are malformed, leave the root or lack a tenant', async () => {
    const outside = path.join(root, 'secret.txt');
    await writeFile(outside, 'secret');
    for (const key of [
      '../secret.txt',
      'tenants/t1/../../../secret.txt',
      'tenants/t1/%2E%2E/x/..',
      'tenants/t1',
      'secret.txt',
      'tenants/t1/.x.meta.json',
    ]) {
      await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(
        InvalidStorageKeyError,
      );
      await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
    await expect(storage.deletePrefix('tenants')).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.deletePrefix('')).rejects.toBeInstanceOf(InvalidStorageKeyError);
    expect(await readFile(outside, 'utf8')).toBe('secret');
  });

  it('keeps tenants apart even when their ids differ only by characters a path would treat specially', async () => {
    await storage.put(storageKey('a/b', 'f'), Buffer.from('1'), 'text/plain');
    await storage.put(storageKey('a', 'b', 'f'), Buffer.from('2'), 'text/plain');
    expect((await readAll((await storage.get(storageKey('a/b', 'f')))!.stream)).toString()).toBe(
      '1',
    );
    expect((await readAll((await storage.get(storageKey('a', 'b', 'f')))!.stream)).toString()).toBe(
      '2',
    );
  });

  it('serves an object without metadata as bytes', async () => {
    const key = storageKey('t1', 'raw');
    await storage.put(key, Buffer.from('abc'), 'text/plain');
    await rm(path.join(root, 'files/tenants/t1/.raw.meta.json'));
    expect(await storage.stat(key)).toMatchObject({
      size: 3,
      contentType: 'application/octet-stream',
    });
  });
});
