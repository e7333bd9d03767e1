import { MessageBatches } from './message-batches';

/** A message that remembers being handed back (nak). */
class Msg {
  naked = false;
  constructor(readonly n: number) {}
  nak() {
    this.naked = true;
  }
}

/** A stream the test feeds by hand; `read` counts what the batches have read of it. */
function stream() {
  const waiting: Msg[] = [];
  let wake: () => void = () => undefined;
  let end: Error | true | null = null;
  const s = {
    read: 0,
    push: (...ns: number[]) => {
      const ms = ns.map((n) => new Msg(n));
      waiting.push(...ms);
      wake();
      return ms;
    },
    end: (err?: Error) => {
      end = err ?? true;
      wake();
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<Msg> {
      for (;;) {
        while (waiting.length) {
          s.read++;
          yield waiting.shift()!;
        }
        if (end instanceof Error) throw end;
        if (end) return;
        await new Promise<void>((r) => (wake = r));
      }
    },
  };
  return s;
}

const tick = () => new Promise((r) => setImmediate(r));
const numbers = (ms: Msg[]) => ms.map((m) => m.n);

describe('MessageBatches', () => {
  it('takes everything that has arrived, and waits for the first message only', async () => {
    const s = stream();
    const batches = new MessageBatches(s, 100, (m) => m.nak());
    s.push(1, 2, 3);
    expect(numbers(await batches.take(100))).toEqual([1, 2, 3]);
    const next = batches.take(100);
    await tick();
    s.push(4); // a lone message: taken at once, not held back to fill a batch
    expect(numbers(await next)).toEqual([4]);
  });

  it('takes at most `max` at a time, in arrival order', async () => {
    const s = stream();
    const batches = new MessageBatches(s, 100, (m) => m.nak());
    s.push(1, 2, 3, 4, 5);
    expect(numbers(await batches.take(2))).toEqual([1, 2]);
    expect(numbers(await batches.take(2))).toEqual([3, 4]);
    expect(numbers(await batches.take(2))).toEqual([5]);
  });

  it('reads ahead no more than its capacity', async () => {
    const s = stream();
    const batches = new MessageBatches(s, 4, (m) => m.nak());
    s.push(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    await tick();
    expect(s.read).toBe(4);
    expect(numbers(await batches.take(2))).toEqual([1, 2]);
    await tick();
    expect(s.read).toBe(6);
  });

  it('once closed takes nothing and hands back what is buffered and what still arrives', async () => {
    const s = stream();
    const batches = new MessageBatches(s, 100, (m) => m.nak());
    const first = s.push(1, 2, 3);
    await tick();
    batches.close();
    expect(first.map((m) => m.naked)).toEqual([true, true, true]);
    expect(await batches.take(100)).toEqual([]);
    const late = s.push(4);
    s.end();
    await batches.pumped;
    expect(late[0].naked).toBe(true);
  });

  it('ends with the stream, after what arrived before the end is taken', async () => {
    const s = stream();
    const batches = new MessageBatches(s, 100, (m) => m.nak());
    s.push(1);
    s.end();
    expect(numbers(await batches.take(100))).toEqual([1]);
    expect(await batches.take(100)).toEqual([]);
  });

  it("throws the stream's error once what arrived before it is taken", async () => {
    const s = stream();
    const batches = new MessageBatches(s, 100, (m) => m.nak());
    s.push(1);
    s.end(new Error('consumer deleted'));
    expect(numbers(await batches.take(100))).toEqual([1]);
    await expect(batches.take(100)).rejects.toThrow('consumer deleted');
  });
});
