/** How a batch is cut: at most `maxItems` items and, with `weight`, at most `maxWeight` of it. */
export interface BatchLimits<Item> {
  maxItems: number;
  weight?: (item: Item) => number;
  maxWeight?: number;
}

interface Waiting<Item, Outcome> {
  item: Item;
  resolve: (outcome: Outcome) => void;
  reject: (err: unknown) => void;
}

/**
 * Thrown by a `write` whose batch may or may not have been written (its writer went away before
 * answering): each item of the batch is answered `answer`, and none is written again (a second
 * write could sell its seats twice; a retry with its Idempotency-Key learns what happened).
 */
export class BatchOutcomeUnknown extends Error {
  constructor(readonly answer: Error) {
    super(`batch outcome unknown: ${answer.message}`);
  }
}

/**
 * Group commit per key (an event): items submitted while the key's writer is busy wait and are
 * written together by its next batch, in the order they came; a lone item is written at once.
 * `write` gets a batch and answers one outcome per item, in order. When it throws (an error no
 * single item was answered with: a lost connection, a bug), each item of the batch is written
 * again on its own, so only the item that causes it fails; but not after a BatchOutcomeUnknown.
 */
export class WriteBatches<Item, Outcome> {
  private readonly queues = new Map<string, Waiting<Item, Outcome>[]>();
  /**
   * Batches written since start, the items in them, and the seconds spent writing them (for
   * metrics and tests: seconds growing as fast as the clock means a writer that is never idle).
   */
  readonly stats = { batches: 0, items: 0, isolated: 0, seconds: 0 };

  constructor(
    private readonly write: (batch: Item[]) => Promise<Outcome[]>,
    private readonly limits: BatchLimits<Item>,
  ) {}

  submit(key: string, item: Item): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) {
        queue.push({ item, resolve, reject });
        return;
      }
      // The key's writer runs while its queue exists.
      this.queues.set(key, [{ item, resolve, reject }]);
      void this.run(key);
    });
  }

  private async run(key: string): Promise<void> {
    const queue = this.queues.get(key)!;
    while (queue.length) {
      const batch = this.cut(queue);
      await this.writeBatch(batch);
    }
    this.queues.delete(key);
  }

  private cut(queue: Waiting<Item, Outcome>[]): Waiting<Item, Outcome>[] {
    const { maxItems, weight, maxWeight = Infinity } = this.limits;
    let n = 0;
    let w = 0;
    while (n < queue.length && n < maxItems) {
      const next = weight ? weight(queue[n].item) : 1;
      if (n > 0 && w + next > maxWeight) break;
      w += next;
      n++;
    }
    return queue.splice(0, n);
  }

  private async writeBatch(batch: Waiting<Item, Outcome>[]): Promise<void> {
    const started = performance.now();
    const spent = () => (this.stats.seconds += (performance.now() - started) / 1000);
    let outcomes: Outcome[];
    try {
      outcomes = await this.write(batch.map((w) => w.item));
    } catch (err) {
      spent(); // a batch that failed as a whole kept the writer busy too
      if (err instanceof BatchOutcomeUnknown) {
        for (const w of batch) w.reject(err.answer);
        return;
      }
      if (batch.length === 1) {
        batch[0].reject(err);
        return;
      }
      this.stats.isolated++;
      for (const w of batch) await this.writeBatch([w]);
      return;
    }
    spent();
    this.stats.batches++;
    this.stats.items += batch.length;
    batch.forEach((w, i) => w.resolve(outcomes[i]));
  }
}
