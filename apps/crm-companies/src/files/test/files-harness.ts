import {
  ServiceTestClient,
  StoredFilesUnderTest,
  TestAnswer,
  TestS3Server,
  withFileStorage,
  withS3FileStorage,
} from '@crm/testing';
import { PrismaService } from '../../database/prisma.service';
import { seeingEveryTenant } from '../../test/every-tenant';
import { RunningService, startCrmCompanies } from '../../test/service-harness';

export interface CompaniesUnderTest extends RunningService, StoredFilesUnderTest {
  db: PrismaService;
}

/**
 * The real crm-companies app (as test/service-harness.ts starts it) with its files in a
 * temporary folder (or, given `s3`, a fresh bucket of that server), so tests can look at what
 * was stored and leave nothing behind.
 */
export const startWithStorage = (
  dbName: string,
  s3?: TestS3Server,
): Promise<CompaniesUnderTest> => {
  const start = async (env: Record<string, string>) => {
    const svc = await startCrmCompanies(dbName, env);
    return { ...svc, db: seeingEveryTenant(svc.app.get(PrismaService)) };
  };
  return s3
    ? withS3FileStorage('crm-companies', s3, start)
    : withFileStorage('crm-companies', start);
};

/** REST and GraphQL calls against one running service, as tenant `tenant` by default. */
export function clientOf(svc: () => CompaniesUnderTest, tenant: string) {
  const api = new ServiceTestClient(() => svc().url);

  const call = (
    method: string,
    path: string,
    body?: unknown,
    t = tenant,
    extra: Record<string, string> = {},
  ): Promise<TestAnswer> => api.restAs(t, method, path, body, extra);

  const gql = (
    query: string,
    variables: Record<string, unknown> = {},
    t = tenant,
    extra: Record<string, string> = {},
  ): Promise<TestAnswer> => api.graphqlAs(t, query, variables, extra);

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

  return { api, call, gql, company };
}
