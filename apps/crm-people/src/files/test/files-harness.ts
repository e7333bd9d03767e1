import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@crm/config';
import { createServiceApp } from '@crm/service-kit';
import { freePort, freshDatabase, NATS_TEST_URL } from '@crm/testing';
import { AppModule, SERVICE_NAME } from '../../app.module';
import { CrmPeopleConfig } from '../../config';
import type { RunningService } from '../../test/service-harness';

export interface FilesService extends RunningService {
  /** FILE_STORAGE_DIR of this instance: a fresh temporary folder. */
  storageDir: string;
  /** Every stored file (objects and metadata) under `tenants/<tenant>/`, relative to it. */
  filesOf(tenantId: string): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * startCrmPeople (test/service-harness.ts) with the files in a temporary folder, so tests can
 * look at what was stored and leave nothing in the working directory.
 */
export async function startWithStorage(dbName: string): Promise<FilesService> {
  process.env.APOLLO_TELEMETRY_DISABLED = 'true';
  const storageDir = await mkdtemp(path.join(os.tmpdir(), 'crm-people-files-'));
  const databaseUrl = await freshDatabase(SERVICE_NAME, dbName);
  const port = await freePort();
  const config = loadConfig(CrmPeopleConfig, {
    NODE_ENV: 'test',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    NATS_URL: NATS_TEST_URL,
    FILE_STORAGE_DIR: storageDir,
  });
  const app = await createServiceApp(AppModule.forRoot(config), {
    service: SERVICE_NAME,
    title: 'crm-people files test',
    config,
  });
  await app.startAllMicroservices();
  await app.listen(port, '127.0.0.1');
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    databaseUrl,
    storageDir,
    filesOf: async (tenantId) => {
      const dir = path.join(storageDir, 'tenants', tenantId);
      const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
      return entries
        .filter((e) => e.isFile())
        .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
        .sort();
    },
    stop: async () => {
      await app.close();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}
