import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { startS3Server, TestS3Server } from '@crm/testing';
import { InvalidStorageKeyError } from './file-storage';
import { ObjectTooLargeError, S3Storage, S3StorageOptions } from './s3-storage';
import { storageKey } from './storage-key';
import { fileStorageContract, readAll, StorageHarness } from './test/file-storage.contract';

// One s3rver for the file; a fresh bucket per test keeps tests apart.
let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.stop();
});

const freshBucket = async () => {
  const bucket = `t-${randomUUID()}`;
  await s3.createBucket(bucket);
  return bucket;
};

const storageOn = (bucket: string, more: Partial<S3StorageOptions> = {}) =>
  new S3Storage({
    bucket,
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: s3.credentials,
    ...more,
  });

/** An S3Storage on a fresh bucket, with a prefix (as services sharing a bucket use). */
async function openS3(prefix = 'svc/'): Promise<StorageHarness<S3Storage> & { bucket: string }> {
  const bucket = await freshBucket();
  const storage = storageOn(bucket, { prefix });
  await storage.init();
  return {
    bucket,
    storage,
    raw: () => s3.keys(bucket),
    rawOf: (key) => [prefix + key],
    // Written again without metadata or content type: an object uploaded by other means.
    dropMetadata: async (key) => {
      const file = await storage.get(key);
      const body = await readAll(file!.stream);
      await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: prefix + key, Body: body }));
    },
    close: async () => storage.onModuleDestroy(),
  };
}

fileStorageContract('S3Storage', openS3);

describe('S3Storage on s3rver', () => {
  it('keeps the SHA-256 as object metadata (x-amz-meta-sha256)', async () => {
    const h = await openS3('');
    const key = storageKey('t1', 'a');
    const put = await h.storage.put(key, Buffer.from('abc'), 'text/plain');
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: h.bucket, Key: key }));
    expect(head.Metadata).toEqual({ sha256: put.sha256 });
    expect(head.ContentType).toBe('text/plain');
    await h.close();
  });

  it('keeps services sharing a bucket apart by their prefixes', async () => {
    const bucket = await freshBucket();
    const people = storageOn(bucket, { prefix: 'crm-people' });
    const companies = storageOn(bucket, { prefix: 'crm-companies/' });
    const key = storageKey('t1', 'x', 'f');
    await people.put(key, Buffer.from('people'), 'text/plain');
    await companies.put(key, Buffer.from('companies'), 'text/plain');
    expect(await s3.keys(bucket)).toEqual([`crm-companies/${key}`, `crm-people/${key}`]);
    expect((await readAll((await people.get(key))!.stream)).toString()).toBe('people');
    expect(await people.deletePrefix(storageKey('t1', 'x'))).toBe(1);
    expect(await s3.keys(bucket)).toEqual([`crm-companies/${key}`]);
    expect(await companies.exists(key)).toBe(true);
    // Objects outside the prefix are not reachable through it.
    await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'bare' }));
    expect(await people.get(key)).toBeNull();
    expect(() => storageOn(bucket, { prefix: '../x' })).toThrow(InvalidStorageKeyError);
    expect(() => storageOn(bucket, { prefix: '/x' })).toThrow(InvalidStorageKeyError);
  });

  it('deletes a prefix of more than 1000 objects (listing and deleting page by page)', async () => {
    const h = await openS3();
    const folder = storageKey('t1', 'events', 'e1');
    const keys = Array.from({ length: 1005 }, (_, i) => `${folder}/f${i}`);
    for (let i = 0; i < keys.length; i += 25) {
      await Promise.all(
        keys.slice(i, i + 25).map((k) => h.storage.put(k, Buffer.from('x'), 'text/plain')),
      );
    }
    const other = storageKey('t1', 'events', 'e10', 'f');
    await h.storage.put(other, Buffer.from('y'), 'text/plain');
    expect(await h.storage.deletePrefix(folder)).toBe(1005);
    expect(await h.raw()).toEqual([`svc/${other}`]);
    await h.close();
  }, 120_000);

  it('refuses a body above maxObjectBytes and stores nothing', async () => {
    const bucket = await freshBucket();
    const storage = storageOn(bucket, { maxObjectBytes: 1000 });
    const source = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(
      storage.put(storageKey('t1', 'big'), source, 'application/octet-stream'),
    ).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(source.destroyed).toBe(true);
    await expect(
      storage.put(storageKey('t1', 'big'), Buffer.alloc(1001), 'application/octet-stream'),
    ).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await s3.keys(bucket)).toEqual([]);
    await storage.put(storageKey('t1', 'ok'), Readable.from([Buffer.alloc(1000)]), 'x/y');
    expect(await s3.keys(bucket)).toEqual([storageKey('t1', 'ok')]);
  });

  it('fails init() with a clear message when the bucket is missing or the server is down', async () => {
    await expect(storageOn(`missing-${randomUUID()}`).init()).rejects.toThrow(
      /File storage s3:\/\/missing-.* is not usable: the bucket does not exist/,
    );
    const down = new S3Storage({
      bucket: 'b',
      endpoint: 'http://127.0.0.1:9',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: s3.credentials,
    });
    await expect(down.init()).rejects.toThrow(/File storage s3:\/\/b\/ at http:\/\/127.0.0.1:9/);
  });
});
