import {
  acrossTenants,
  asTenant,
  outsideTenants,
  scopeSettings,
  tenantScope,
} from './tenant-scope';

describe('tenant scope', () => {
  it('is the tenant inside asTenant, every tenant inside acrossTenants, none outside', async () => {
    expect(tenantScope()).toBeUndefined();
    await asTenant('t-1', async () => {
      await new Promise((r) => setImmediate(r));
      expect(tenantScope()).toEqual({ tenantId: 't-1' });
      expect(outsideTenants(() => tenantScope())).toBeUndefined();
    });
    expect(acrossTenants('a reason', () => tenantScope())).toEqual({ acrossTenants: 'a reason' });
    expect(tenantScope()).toBeUndefined();
  });

  it('an id no tenant can have sees nothing', () => {
    expect(scopeSettings(asTenant("x' OR 1=1 --", () => tenantScope()))).toEqual({
      tenant: '',
      all: 'off',
    });
    expect(scopeSettings(asTenant('', () => tenantScope()))).toEqual({ tenant: '', all: 'off' });
    expect(scopeSettings(undefined)).toEqual({ tenant: '', all: 'off' });
    expect(scopeSettings({ acrossTenants: 'r' })).toEqual({ tenant: '', all: 'on' });
  });

  it('starts a lazy thenable (a Prisma query) inside the scope, not where it is awaited', async () => {
    const seen: unknown[] = [];
    // what a PrismaPromise does: nothing until then() is called
    const lazy = {
      then(resolve: (v: unknown) => void) {
        seen.push(tenantScope());
        resolve('done');
      },
    };
    expect(await asTenant('t-2', () => lazy)).toBe('done');
    expect(await acrossTenants('r', () => lazy)).toBe('done');
    expect(seen).toEqual([{ tenantId: 't-2' }, { acrossTenants: 'r' }]);
  });
});
