/**
 * Turns a stream of messages into batches of what has arrived: `take()` waits for the first
 * message only, never for a batch to fill. A pump reads the stream ahead into a buffer of at
 * most `capacity` messages, so no more is asked for than the consumer keeps up with. Once
 * closed, every message buffered or still arriving is handed back (`handBack`, a nak) for
 * another replica to apply.
 */
export class MessageBatches<M> {
  private readonly buffer: M[] = [];
  private closed = false;
  private ended = false;
  private failure: unknown = null;
  private wakeReader: () => void = () => undefined;
  private wakePump: () => void = () => undefined;
  /** Settles once the stream has been read to its end. */
  readonly pumped: Promise<void>;

  constructor(
    source: AsyncIterable<M>,
    private readonly capacity: number,
    private readonly handBack: (m: M) => void,
  ) {
    this.pumped = this.pump(source);
  }

  /**
   * Up to `max` messages, in the order they arrived; [] once closed or the stream has ended.
   * Throws the stream's error once what arrived before it has been taken.
   */
  async take(max: number): Promise<M[]> {
    if (!this.buffer.length) {
      await this.arrival();
      // Messages that arrived together come out of the stream over several microtasks: let the
      // pump read them all before taking.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (this.closed) return [];
    if (!this.buffer.length && this.failure) throw this.failure;
    const batch = this.buffer.splice(0, max);
    this.wakePump();
    return batch;
  }

  /** Takes nothing more: what is buffered, and what still arrives, goes back to the server. */
  close(): void {
    this.closed = true;
    for (const m of this.buffer.splice(0)) this.handBack(m);
    this.wakeReader();
    this.wakePump();
  }

  private async arrival(): Promise<void> {
    while (!this.buffer.length && !this.ended && !this.closed) {
      await new Promise<void>((resolve) => (this.wakeReader = resolve));
    }
  }

  private async pump(source: AsyncIterable<M>): Promise<void> {
    try {
      for await (const m of source) {
        if (this.closed) {
          this.handBack(m);
          continue;
        }
        this.buffer.push(m);
        this.wakeReader();
        while (this.buffer.length >= this.capacity && !this.closed) {
          await new Promise<void>((resolve) => (this.wakePump = resolve));
        }
      }
    } catch (err) {
      this.failure = err;
    } finally {
      this.ended = true;
      this.wakeReader();
    }
  }
}
