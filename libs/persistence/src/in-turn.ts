/**
 * Runs the calls given one key one after the other, in the order they came, inside this process;
 * calls of different keys run side by side. For work that takes a row lock (`SELECT ... FOR
 * UPDATE`) many requests of one process want at once: queued here they wait in memory, while
 * queued behind the lock each would hold a pooled connection doing nothing. 55 gallery uploads
 * of one website at once held all 10 connections of the pool waiting for its row, and every other
 * query of the service (the uploads' own checks included) queued for a connection until it gave up
 * (CONNECT_TIMEOUT_MS, 503) on a loaded machine. The row lock still orders the processes (the
 * replicas): each keeps at most one connection per key waiting for it.
 */
export class InTurn {
  /** The last call queued per key; a key leaves the map when its last call has ended. */
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Keys with a call running or waiting (for tests and metrics). */
  get busyKeys(): number {
    return this.tails.size;
  }

  /** `fn` once every earlier call of `key` has ended (resolved or rejected); its own outcome. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key);
    const mine = before ? before.then(fn, fn) : Promise.resolve().then(fn);
    // the queue goes on whatever `mine` ends with; the caller gets the rejection, not the queue
    const tail = mine.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return mine;
  }
}
