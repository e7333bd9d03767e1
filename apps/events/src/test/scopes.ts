import { acrossTenants, asTenant } from '@crm/request-context';

// Row-level security holds the tests' own queries through the app's client as it holds the app's:
// outside a scope they see no tenant's rows. A Prisma query starts when it is awaited, so these
// await it inside the scope (returned unawaited, it would run in none).

/** `work` as the tenant, as a request of that tenant runs it (arranging rows, calling services). */
export const asTenantDo = <T>(tenantId: string, work: () => PromiseLike<T>): Promise<T> =>
  asTenant(tenantId, async () => await work());

/** A test looking at the database as a whole: the rows of every tenant. */
export const inspect = <T>(query: () => PromiseLike<T>): Promise<T> =>
  acrossTenants('test inspects the rows of every tenant', async () => await query());
