import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the current call carries (its log fields, its tenant scope, its request transaction),
 * each in a slot of one frame, in the process's only AsyncLocalStorage. One store, not one per
 * concern: on Node 20 every AsyncLocalStorage switched on in a process is written onto every
 * promise made afterwards (a request makes dozens), so three stores cost three writes each.
 */
type Frame = readonly unknown[];

const storage = new AsyncLocalStorage<Frame>();
let slots = 0;

/** One value of the call's frame: read it, or run something with it set. */
export interface ContextSlot<T> {
  /** The value for the current call, if one was set. */
  get(): T | undefined;
  /**
   * Runs `fn` (and everything it starts) with the slot set to `value` (`undefined`: unset), the
   * other slots as they are.
   */
  run<R>(value: T | undefined, fn: () => R): R;
}

/**
 * A slot of the call's frame: a place in an array, copied when a run sets it (a copy of a few
 * elements; an object spread with a key per slot cost several times as much per request).
 */
export function contextSlot<T>(): ContextSlot<T> {
  const index = slots++;
  return {
    get: () => storage.getStore()?.[index] as T | undefined,
    run: (value, fn) => {
      const frame = storage.getStore();
      if (frame?.[index] === value) return fn();
      const next = frame ? frame.slice() : [];
      next[index] = value;
      return storage.run(next, fn);
    },
  };
}
