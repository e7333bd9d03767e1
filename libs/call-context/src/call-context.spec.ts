import { contextSlot } from './call-context';

describe('contextSlot', () => {
  const fields = contextSlot<string>();
  const scope = contextSlot<string>();

  it('has no value outside a run', () => {
    expect(fields.get()).toBeUndefined();
  });

  it('carries a value into everything the run starts, promises and timers included', async () => {
    const seen = await fields.run('request-1', async () => {
      await Promise.resolve();
      const inTimer = await new Promise((resolve) => setTimeout(() => resolve(fields.get()), 1));
      return [fields.get(), inTimer];
    });
    expect(seen).toEqual(['request-1', 'request-1']);
    expect(fields.get()).toBeUndefined();
  });

  it('keeps the other slots when one is set or unset', () => {
    fields.run('request-1', () =>
      scope.run('tenant-a', () => {
        expect([fields.get(), scope.get()]).toEqual(['request-1', 'tenant-a']);
        scope.run(undefined, () => {
          expect([fields.get(), scope.get()]).toEqual(['request-1', undefined]);
        });
        fields.run('request-2', () => {
          expect([fields.get(), scope.get()]).toEqual(['request-2', 'tenant-a']);
        });
        expect([fields.get(), scope.get()]).toEqual(['request-1', 'tenant-a']);
      }),
    );
  });

  it('keeps concurrent calls apart', async () => {
    const call = (id: string) =>
      scope.run(id, async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return scope.get();
      });
    expect(await Promise.all(['a', 'b', 'c'].map(call))).toEqual(['a', 'b', 'c']);
  });

  it('answers what fn returns, and throws what it throws', () => {
    expect(fields.run('x', () => 42)).toBe(42);
    expect(() =>
      fields.run('x', () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(fields.get()).toBeUndefined();
  });
});
