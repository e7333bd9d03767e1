import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@crm/config';
import { createServiceApp } from '@crm/service-kit';
import { freePort, freshDatabase, NATS_TEST_URL, tenantHeaders } from '@crm/testing';
import { AppModule, SERVICE_NAME } from '../../app.module';
import { CrmCompaniesConfig } from '../../config';
import { PrismaService } from '../../database/prisma.service';
import type { RunningService } from '../../test/service-harness';

/* eslint-disable @typescript-eslint/no-explicit-any -- answers are checked field by field */

export interface CompaniesUnderTest extends RunningService {
  db: PrismaService;
  /** FILE_STORAGE_DIR of this instance: a fresh temporary folder. */
  storageDir: string;
  /** Every stored file (objects and metadata) under `tenants/<tenant>/`, relative to it. */
  filesOf(tenantId: string): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * The real crm-companies app (as test/service-harness.ts starts it) with its files in a
 * temporary folder, so tests can look at what was stored and leave nothing behind.
 */
export async function startWithStorage(dbName: string): Promise<CompaniesUnderTest> {
  process.env.APOLLO_TELEMETRY_DISABLED = 'true';
  const storageDir = await mkdtemp(path.join(os.tmpdir(), 'crm-companies-files-'));
  const databaseUrl = await freshDatabase(SERVICE_NAME, dbName);
  const port = await freePort();
  const config = loadConfig(CrmCompaniesConfig, {
    NODE_ENV: 'test',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    NATS_URL: NATS_TEST_URL,
    FILE_STORAGE_DIR: storageDir,
  });
  const app = await createServiceApp(AppModule.forRoot(config), {
    service: SERVICE_NAME,
    title: 'crm-companies test',
    config,
  });
  try {
    await app.startAllMicroservices();
    await app.listen(port, '127.0.0.1');
  } catch (err) {
    await app.close();
    throw err;
  }
  return {
    app,
    db: app.get(PrismaService),
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

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** REST and GraphQL calls against one running service, as tenant `tenant` by default. */
export function clientOf(svc: () => CompaniesUnderTest, tenant: string) {
  async function call(
    method: string,
    path: string,
    body?: unknown,
    t = tenant,
    extra: Record<string, string> = {},
  ): Promise<Answer> {
    const res = await fetch(`${svc().url}/v1/crm${path}`, {
      method,
      headers: tenantHeaders(t, extra),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  }

  async function gql(
    query: string,
    variables: Record<string, unknown> = {},
    t = tenant,
    extra: Record<string, string> = {},
  ): Promise<Answer> {
    const res = await fetch(`${svc().url}/graphql`, {
      method: 'POST',
      headers: tenantHeaders(t, extra),
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  }

  /**
   * A company of tenant `t`, written straight into the database: the companies routes (C4) are
   * not what these tests are about, and their rules must not decide whether these pass.
   */
  async function company(name = 'Acme GmbH', t = tenant): Promise<string> {
    const row = await svc().db.company.create({
      data: { tenantId: t, name },
      select: { id: true },
    });
    return row.id;
  }

  return { call, gql, company };
}

/** Headers of tenant `t` without the JSON content type (fetch sets the multipart one). */
export const uploadHeaders = (t: string, extra: Record<string, string> = {}) => {
  const { 'Content-Type': _json, ...rest } = tenantHeaders(t);
  return { ...rest, ...extra };
};
