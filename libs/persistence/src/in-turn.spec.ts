import { InTurn } from './in-turn';

const tick = () => new Promise((r) => setImmediate(r));

describe('InTurn', () => {
  it('runs the calls of one key one at a time, in order; other keys side by side', async () => {
    const turns = new InTurn();
    const running = new Map<string, number>();
    const most = new Map<string, number>();
    const order: string[] = [];
    const call = (key: string, n: number) =>
      turns.run(key, async () => {
        running.set(key, (running.get(key) ?? 0) + 1);
        most.set(key, Math.max(most.get(key) ?? 0, running.get(key)!));
        await tick();
        await tick();
        order.push(`${key}${n}`);
        running.set(key, running.get(key)! - 1);
        return n;
      });
    const answers = await Promise.all([
      call('a', 1),
      call('b', 1),
      call('a', 2),
      call('a', 3),
      call('b', 2),
    ]);
    expect(answers).toEqual([1, 1, 2, 3, 2]);
    expect(most.get('a')).toBe(1);
    expect(most.get('b')).toBe(1);
    expect(order.filter((o) => o.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
    // b's first call did not wait for a's queue
    expect(order.indexOf('b1')).toBeLessThan(order.indexOf('a2'));
  });

  it('a failing call rejects its own caller only; the next one runs', async () => {
    const turns = new InTurn();
    const failing = turns.run('k', async () => {
      throw new Error('boom');
    });
    const next = turns.run('k', async () => 'ran');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });

  it('forgets a key once its queue is empty', async () => {
    const turns = new InTurn();
    await Promise.all([turns.run('k', async () => 1), turns.run('k', async () => 2)]);
    await tick();
    expect(turns.busyKeys).toBe(0);
  });
});
