import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DiskStorage, FileStorage, S3Storage } from '@crm/storage';
import { startS3Server, TestS3Server } from '@crm/testing';

/** The FileStorage backends the @crm/files tests run on: the same tests, each backend. */
export const BACKENDS = ['disk', 's3'] as const;
export type Backend = (typeof BACKENDS)[number];

export interface TestStorage {
  storage: FileStorage;
  /** Names directly under a key prefix (`tenants/t1/owners/o1/images`), folders or objects. */
  children(prefix: string): Promise<string[]>;
}

/**
 * Registers the jest hooks of one backend: a fresh, empty storage for each test (a temporary
 * folder, or a new bucket of an s3rver started for the file). Call inside the `describe` it
 * serves, before the hooks that use it; the answer gives the current test's storage.
 */
export function useTestStorage(backend: Backend): () => TestStorage {
  let current: TestStorage & { close(): Promise<void> };
  let s3: TestS3Server | undefined;
  if (backend === 's3') {
    beforeAll(async () => {
      s3 = await startS3Server();
    });
    afterAll(async () => s3?.stop());
  }
  beforeEach(async () => {
    current = backend === 's3' ? await openS3(s3!) : await openDisk();
  });
  afterEach(async () => current.close());
  return () => current;
}

async function openDisk() {
  const root = await mkdtemp(path.join(os.tmpdir(), 'crm-files-'));
  const storage = new DiskStorage(root);
  await storage.init();
  return {
    storage,
    children: async (prefix: string) => {
      const dir = path.join(root, ...prefix.split('/').filter(Boolean));
      if (!existsSync(dir)) return [];
      // Dot names are the storage's own (metadata, temporaries).
      return (await readdir(dir)).filter((n) => !n.startsWith('.')).sort();
    },
    close: () => rm(root, { recursive: true, force: true }),
  };
}

async function openS3(s3: TestS3Server) {
  const bucket = `files-${randomUUID()}`;
  await s3.createBucket(bucket);
  const storage = new S3Storage({
    bucket,
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: s3.credentials,
    prefix: 'svc/',
  });
  await storage.init();
  return {
    storage,
    children: async (prefix: string) => {
      const folder = `svc/${prefix ? `${prefix.replace(/\/+$/, '')}/` : ''}`;
      const names = (await s3.keys(bucket, folder)).map(
        (k) => k.slice(folder.length).split('/')[0],
      );
      return [...new Set(names)].sort();
    },
    close: async () => storage.onModuleDestroy(),
  };
}
