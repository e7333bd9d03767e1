import { acrossTenants, asTenant } from '@crm/request-context';

// Tests that reach the app's PrismaService (or a service of it) directly, as a request does:
// row-level security shows a connection only the rows of the scope the work started in.
//
// `fn` is called inside an async function on purpose: a Prisma query is a lazy promise that runs
// when it is awaited, so `asTenant(t, () => db.person.findMany())` would run it in the caller's
// scope (none), not in `t`'s.

/** `fn` as a request of `tenantId` runs it: only that tenant's rows. */
export const inTenant = <T>(tenantId: string, fn: () => PromiseLike<T>): Promise<T> =>
  asTenant(tenantId, async () => fn());

/** `fn` over every tenant's rows: a test's check that nothing changed anywhere. */
export const overAllTenants = <T>(fn: () => PromiseLike<T>): Promise<T> =>
  acrossTenants('a test looks at every tenant', async () => fn());
