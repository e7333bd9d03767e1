import { contextSlot } from '@crm/call-context';

/**
 * Whose rows the database shows to the work being done here. Every table that holds tenant data
 * has row-level security forced on it (migration `row_level_security` of each service): a row is
 * visible and writable only when its tenant is the connection's `app.tenant`, or when
 * `app.all_tenants` is on. The pool (MeteredPool in @crm/persistence) sets both on each connection it hands out, from
 * the scope of the caller, so a query that forgets its tenant filter finds nothing of another
 * tenant, raw SQL included.
 *
 * - a request for a tenant (the services' HTTP hook, NATS requests, consumers per event) runs in
 *   `asTenant`;
 * - work that is about every tenant by design (the outbox relay, sweeps over expired holds, the
 *   mail and webhook queues, a lookup by a public token that names no tenant yet) runs in
 *   `acrossTenants`, with a reason that says why: grep for it to review them all;
 * - anything else runs in no scope and sees no tenant's rows.
 */
export type TenantScope =
  | { readonly tenantId: string; readonly acrossTenants?: undefined }
  | { readonly tenantId?: undefined; readonly acrossTenants: string };

const scopes = contextSlot<TenantScope>();

/** What a tenant id bound to a connection may look like (the services' tenant ids are UUIDs). */
const TENANT_ID = /^[\w.:@/+=-]{1,128}$/;

/** The scope the current work runs in, if any. */
export const tenantScope = (): TenantScope | undefined => scopes.get();

/**
 * Runs `fn` (and everything it starts) for `tenantId`: its queries see that tenant's rows only.
 * An id that no tenant can have (empty, or with characters no id has) sees nothing.
 */
export function asTenant<T>(tenantId: string, fn: () => T): T {
  return inScope({ tenantId: TENANT_ID.test(tenantId) ? tenantId : '' }, fn);
}

/** Runs `fn` over the rows of every tenant, for the reason given (work that is about them all). */
export function acrossTenants<T>(reason: string, fn: () => T): T {
  return inScope({ acrossTenants: reason }, fn);
}

/**
 * Runs `fn` in `scope`. A lazy thenable it returns (a Prisma query starts only when `then` is
 * called: `asTenant(t, () => prisma.person.findMany())`) is started here, inside the scope,
 * not by whoever awaits it later, outside.
 */
function inScope<T>(scope: TenantScope, fn: () => T): T {
  return scopes.run(scope, () => {
    const result = fn();
    if (result instanceof Promise || !isThenable(result)) return result;
    return new Promise((resolve, reject) => result.then(resolve, reject)) as T;
  });
}

const isThenable = (x: unknown): x is PromiseLike<unknown> =>
  typeof x === 'object' && x !== null && typeof (x as { then?: unknown }).then === 'function';

/** Runs `fn` in no scope: it sees no tenant's rows (work that must not see any). */
export function outsideTenants<T>(fn: () => T): T {
  return scopes.run(undefined, fn);
}

/** The settings a connection gets for the scope: the tenant (or '') and whether all are visible. */
export function scopeSettings(scope: TenantScope | undefined): {
  tenant: string;
  all: 'on' | 'off';
} {
  if (!scope) return { tenant: '', all: 'off' };
  if (scope.acrossTenants !== undefined) return { tenant: '', all: 'on' };
  return { tenant: scope.tenantId, all: 'off' };
}
