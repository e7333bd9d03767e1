import { BatchOutcomeUnknown, WriteBatches } from './write-batches';

/** A write that records its batches and answers after `gate` opens. */
function recorder(fail?: (item: number) => boolean) {
  const batches: number[][] = [];
  let open!: () => void;
  let gate = new Promise<void>((r) => (open = r));
  const write = async (batch: number[]) => {
    batches.push(batch);
    await gate;
    if (fail && batch.some(fail)) throw new Error(`batch ${batch.join(',')} failed`);
    return batch.map((n) => n * 10);
  };
  return {
    batches,
    write,
    release: () => {
      open();
      gate = Promise.resolve();
    },
  };
}

describe('WriteBatches', () => {
  it('writes a lone item at once and groups what waits meanwhile, in order', async () => {
    const r = recorder();
    const batches = new WriteBatches(r.write, { maxItems: 100 });
    const answers = [1, 2, 3, 4].map((n) => batches.submit('event', n));
    r.release();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40]);
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('cuts batches by count and by weight, always taking at least one', async () => {
    const r = recorder();
    const batches = new WriteBatches(r.write, {
      maxItems: 2,
      weight: (n) => n,
      maxWeight: 5,
    });
    const answers = [1, 2, 3, 9, 1].map((n) => batches.submit('event', n));
    r.release();
    await Promise.all(answers);
    expect(r.batches).toEqual([[1], [2, 3], [9], [1]]);
  });

  it('keeps keys apart: each has its own writer', async () => {
    const r = recorder();
    const batches = new WriteBatches(r.write, { maxItems: 100 });
    const answers = [
      batches.submit('a', 1),
      batches.submit('b', 2),
      batches.submit('a', 3),
      batches.submit('b', 4),
    ];
    r.release();
    await Promise.all(answers);
    expect(r.batches).toEqual([[1], [2], [3], [4]]);
  });

  it('isolates an item that breaks its batch: the others are written on their own', async () => {
    const r = recorder((n) => n === 3);
    const batches = new WriteBatches(r.write, { maxItems: 100 });
    const answers = [1, 2, 3, 4].map((n) =>
      batches.submit('event', n).then(
        (v) => ({ ok: v }),
        (e: Error) => ({ error: e.message }),
      ),
    );
    r.release();
    expect(await Promise.all(answers)).toEqual([
      { ok: 10 },
      { ok: 20 },
      { error: 'batch 3 failed' },
      { ok: 40 },
    ]);
    expect(r.batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
    expect(batches.stats.isolated).toBe(1);
  });

  it('counts the time spent writing, once, failed batches and their retries included', async () => {
    const spentMs = 40;
    const write = async (batch: number[]) => {
      const until = performance.now() + spentMs;
      while (performance.now() < until) await new Promise((r) => setImmediate(r));
      if (batch.length > 1) throw new Error('the batch failed');
      return batch.map((n) => n * 10);
    };
    const batches = new WriteBatches(write, { maxItems: 100 });
    const started = performance.now();
    await Promise.all([1, 2, 3].map((n) => batches.submit('event', n)));
    const elapsed = (performance.now() - started) / 1000;
    // [1], then [2, 3] failing, then [2] and [3]: four writes of at least 40 ms, one after the other
    expect(batches.stats).toMatchObject({ batches: 3, items: 3, isolated: 1 });
    expect(batches.stats.seconds).toBeGreaterThanOrEqual((4 * spentMs) / 1000);
    expect(batches.stats.seconds).toBeLessThanOrEqual(elapsed);
  });

  it('answers every item of a batch whose outcome is unknown with its answer, writing none again', async () => {
    const batches: number[][] = [];
    const write = async (batch: number[]) => {
      batches.push(batch);
      await new Promise((r) => setImmediate(r));
      if (batch.includes(2)) throw new BatchOutcomeUnknown(new Error('writer gone'));
      return batch.map((n) => n * 10);
    };
    const writes = new WriteBatches(write, { maxItems: 100 });
    const answers = [1, 2, 3, 4].map((n) =>
      writes.submit('event', n).then(
        (v) => ({ ok: v }),
        (e: Error) => ({ error: e.message }),
      ),
    );
    expect(await Promise.all(answers)).toEqual([
      { ok: 10 },
      { error: 'writer gone' },
      { error: 'writer gone' },
      { error: 'writer gone' },
    ]);
    // [2, 3, 4] is not split and written again item by item, as a batch that failed would be
    expect(batches).toEqual([[1], [2, 3, 4]]);
    expect(writes.stats.isolated).toBe(0);
  });
});
