import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, ServiceConfig } from '@crm/config';
import { freshDatabase } from './database';
import { NATS_TEST_URL } from './ports';
import type { TestS3Server } from './s3-server';

/** A service started in the test process by startServiceForTest. */
export interface RunningService {
  app: INestApplication;
  /** Base URL (`http://127.0.0.1:<port>`): REST under /v1/crm, GraphQL at /graphql. */
  url: string;
  databaseUrl: string;
}

/**
 * Creates the app as production does: `createServiceApp` of @crm/service-kit. It is passed in
 * rather than imported because @crm/service-kit depends on this lib (through @crm/messaging's
 * tests), and Nx refuses the cycle.
 */
export type CreateServiceApp<C extends ServiceConfig> = (
  module: DynamicModule | Type<unknown>,
  opts: { service: string; title: string; config: C },
) => Promise<INestApplication>;

export interface ServiceTestOptions<C extends ServiceConfig> {
  /** The service's name: its migrations (prisma/<service>) and its NATS queue group. */
  service: string;
  /** The root module for a configuration (`AppModule.forRoot`). */
  appModule: (config: C) => DynamicModule | Type<unknown>;
  /** The service's configuration class, validated as at start. */
  config: new () => C;
  createApp: CreateServiceApp<C>;
  /** The database to (re)create: unique per test file, e.g. `crm_people_it_<topic>`. */
  dbName: string;
  /** Variables on top of NODE_ENV, PORT, DATABASE_URL and NATS_URL. */
  env?: Record<string, string>;
  /**
   * An existing database to start on instead of recreating `dbName`: the restart of a service
   * (with other settings) on what an earlier instance wrote.
   */
  databaseUrl?: string;
}

/**
 * Listens on `port` of 127.0.0.1, 0 for one the system picks, and answers the port listened on.
 * A port found free beforehand (freePort) is taken by then as often as the app's boot is long:
 * its own connections to PostgreSQL, NATS and S3 get ports of the same range (EADDRINUSE seen in
 * a crm-people int file on a loaded machine).
 */
export async function listenForTest(app: INestApplication, port: number): Promise<number> {
  await app.listen(port, '127.0.0.1');
  return (app.getHttpServer().address() as AddressInfo).port;
}

/**
 * Boots the real app of a service (HTTP, GraphQL, NATS) on a fresh, migrated database and a port
 * of 127.0.0.1 the system picks (PORT in `opts.env` to choose one).
 */
export async function startServiceForTest<C extends ServiceConfig>(
  opts: ServiceTestOptions<C>,
): Promise<RunningService> {
  process.env.APOLLO_TELEMETRY_DISABLED = 'true';
  const databaseUrl = opts.databaseUrl ?? (await freshDatabase(opts.service, opts.dbName));
  const config = loadConfig(opts.config, {
    NODE_ENV: 'test',
    PORT: '0',
    DATABASE_URL: databaseUrl,
    NATS_URL: NATS_TEST_URL,
    ...opts.env,
  });
  const app = await opts.createApp(opts.appModule(config), {
    service: opts.service,
    title: `${opts.service} test`,
    config,
  });
  let port: number;
  try {
    await app.startAllMicroservices();
    // as startServiceApp: the subscriptions registered before the test's first request (a PING
    // answered; natsSubscriptionsRegistered of @crm/messaging, which this lib cannot import)
    await Promise.all(
      app.getMicroservices().map((ms) => ms.unwrap<{ flush(): Promise<void> }>().flush()),
    );
    port = await listenForTest(app, config.PORT);
  } catch (err) {
    await app.close(); // an open NATS connection would keep jest alive
    throw err;
  }
  return { app, url: `http://127.0.0.1:${port}`, databaseUrl };
}

/** What withFileStorage and withS3FileStorage add to a running service. */
export interface StoredFilesUnderTest {
  /** Everything stored under `tenants/<tenant>/` (files with metadata, or objects), relative to it. */
  filesOf(tenantId: string): Promise<string[]>;
  /** Closes the app and removes what it stored. */
  stop(): Promise<void>;
}

/** What withFileStorage adds to a running service. */
export interface FileStorageUnderTest extends StoredFilesUnderTest {
  /** FILE_STORAGE_DIR of this instance: a fresh temporary folder. */
  storageDir: string;
}

/** What withS3FileStorage adds to a running service. */
export interface S3FileStorageUnderTest extends StoredFilesUnderTest {
  bucket: string;
  /** S3_PREFIX of this instance. */
  prefix: string;
}

/**
 * Starts a service (`start`, given the extra env) with FILE_STORAGE_DIR in a fresh temporary
 * folder, so tests can look at what was stored and leave nothing in the working directory.
 */
export async function withFileStorage<S extends RunningService>(
  name: string,
  start: (env: Record<string, string>) => Promise<S>,
): Promise<S & FileStorageUnderTest> {
  const storageDir = await mkdtemp(path.join(os.tmpdir(), `${name}-files-`));
  let svc: S;
  try {
    svc = await start({ FILE_STORAGE_DIR: storageDir });
  } catch (err) {
    await rm(storageDir, { recursive: true, force: true });
    throw err;
  }
  return {
    ...svc,
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
      await svc.app.close();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts a service (`start`, given the extra env) with FILE_STORAGE_BACKEND=s3 on a fresh bucket
 * of `s3` (startS3Server) under S3_PREFIX `<name>/`, so tests can look at the stored objects.
 */
export async function withS3FileStorage<S extends RunningService>(
  name: string,
  s3: TestS3Server,
  start: (env: Record<string, string>) => Promise<S>,
): Promise<S & S3FileStorageUnderTest> {
  const bucket = `${name}-${randomUUID()}`.toLowerCase().slice(0, 63);
  const prefix = `${name}/`;
  await s3.createBucket(bucket);
  const svc = await start(s3.env(bucket, prefix));
  return {
    ...svc,
    bucket,
    prefix,
    filesOf: async (tenantId) => {
      const folder = `${prefix}tenants/${tenantId}/`;
      return (await s3.keys(bucket, folder)).map((k) => k.slice(folder.length));
    },
    // The bucket goes with the server (s3.stop()).
    stop: () => svc.app.close(),
  };
}
