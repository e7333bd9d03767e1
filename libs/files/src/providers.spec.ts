import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileStorageConfig, loadConfig } from '@crm/config';
import { DiskStorage, S3Storage, storageKey } from '@crm/storage';
import { startS3Server, TestS3Server } from '@crm/testing';
import { createFileStorage } from './providers';

// createFileStorage is the one place a service's backend is chosen (fileStorageProvider).
const base = { PORT: '3001', DATABASE_URL: 'postgresql://u@h:5432/db' };
const settings = (env: Record<string, string>) =>
  loadConfig(FileStorageConfig, { ...base, ...env });

let s3: TestS3Server;
let tmp: string;
beforeAll(async () => {
  s3 = await startS3Server(['crm-files']);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'crm-files-provider-'));
});
afterAll(async () => {
  await s3?.stop();
  await rm(tmp, { recursive: true, force: true });
});

describe('createFileStorage', () => {
  it('keeps files on disk by default, creating the folder at start', async () => {
    const dir = path.join(tmp, 'files');
    const storage = await createFileStorage(settings({ FILE_STORAGE_DIR: dir }));
    expect(storage).toBeInstanceOf(DiskStorage);
    expect(existsSync(dir)).toBe(true);
  });

  it('stores into the bucket under S3_PREFIX with FILE_STORAGE_BACKEND=s3', async () => {
    const storage = await createFileStorage(settings(s3.env('crm-files', 'crm-people')));
    expect(storage).toBeInstanceOf(S3Storage);
    const key = storageKey('t1', 'people', 'p1', 'doc');
    await storage.put(key, Buffer.from('x'), 'text/plain');
    expect(await s3.keys('crm-files')).toEqual([`crm-people/${key}`]);
    (storage as S3Storage).onModuleDestroy();
  });

  it('fails the start when the bucket does not answer, naming bucket and endpoint', async () => {
    await expect(createFileStorage(settings(s3.env('no-such-bucket')))).rejects.toThrow(
      `File storage s3://no-such-bucket/ at ${s3.endpoint} is not usable: the bucket does not exist`,
    );
  });

  it('refuses s3 without a bucket even when the config was not validated', async () => {
    const unchecked = { ...settings({}), FILE_STORAGE_BACKEND: 's3' as const };
    await expect(createFileStorage(unchecked)).rejects.toThrow(
      'FILE_STORAGE_BACKEND=s3 needs S3_BUCKET',
    );
  });
});
