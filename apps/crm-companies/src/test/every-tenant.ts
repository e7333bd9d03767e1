import { acrossTenants } from '@crm/request-context';

/**
 * The app's PrismaService as tests use it to arrange and inspect rows directly (what postgres
 * would see, past row-level security): every call on it, a model's query, raw SQL or a
 * transaction, runs across tenants. The app's own work keeps the scope of its request, which is
 * what the tests are about. A Prisma query starts only when awaited, so each call is awaited
 * inside the scope.
 */
export function seeingEveryTenant<T extends object>(db: T): T {
  return new Proxy(db, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      if (typeof prop === 'symbol') return value;
      if (typeof value === 'function') {
        return (...args: unknown[]) =>
          acrossTenants(
            'test: arranges and inspects rows of any tenant',
            async () => await (value as (...a: unknown[]) => unknown).apply(target, args),
          );
      }
      // a model (db.company, ...): its queries too
      if (value && typeof value === 'object' && !prop.startsWith('_')) {
        return seeingEveryTenant(value);
      }
      return value;
    },
  });
}
