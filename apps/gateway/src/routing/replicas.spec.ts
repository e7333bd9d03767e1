import { Readable } from 'node:stream';
import { failureKind, mayRetry, ReplicaSet, UpstreamLookup } from './replicas';

const coded = (code: string) => Object.assign(new Error(code), { code });

describe('failureKind', () => {
  it('tells a connection never made from one closed under the call', () => {
    expect(failureKind(coded('ECONNREFUSED'))).toBe('not-connected');
    expect(failureKind(coded('UND_ERR_CONNECT_TIMEOUT'))).toBe('not-connected');
    expect(failureKind(coded('UND_ERR_SOCKET'))).toBe('closed');
    expect(failureKind(coded('ECONNRESET'))).toBe('closed');
    // the client left, a timeout while the service works: not the replica's fault
    expect(failureKind(new Error('the client closed the connection'))).toBeNull();
    expect(failureKind(coded('UND_ERR_HEADERS_TIMEOUT'))).toBeNull();
  });
});

describe('mayRetry', () => {
  const body = Buffer.from('{}');
  it('retries a refused connection for every method with a body that can be sent again', () => {
    expect(mayRetry('not-connected', false, body)).toBe(true);
    expect(mayRetry('not-connected', false, null)).toBe(true);
    expect(mayRetry('not-connected', true, '{}')).toBe(true);
  });

  it('retries a closed connection only for idempotent calls', () => {
    expect(mayRetry('closed', true, null)).toBe(true);
    expect(mayRetry('closed', true, body)).toBe(true);
    // a POST may have been read: a second one could double a booking
    expect(mayRetry('closed', false, body)).toBe(false);
  });

  it('never retries a streamed body or an error of another kind', () => {
    expect(mayRetry('not-connected', true, Readable.from(['x']))).toBe(false);
    expect(mayRetry(null, true, null)).toBe(false);
  });
});

describe('ReplicaSet', () => {
  const sets: ReplicaSet[] = [];
  afterEach(async () => {
    await Promise.all(sets.splice(0).map((s) => s.close()));
  });

  const replicaSet = (origin: string, lookup: UpstreamLookup) => {
    // probes far apart: these addresses are never called
    const set = new ReplicaSet(origin, {
      lookup,
      resolveEveryMs: 60_000,
      probeEveryMs: 60_000,
      pool: {},
    });
    sets.push(set);
    return set;
  };
  const answers =
    (...lists: string[][]): UpstreamLookup =>
    async () => {
      const list = lists.length > 1 ? lists.shift()! : lists[0]!;
      if (!list.length) throw Object.assign(new Error('no such name'), { code: 'ENOTFOUND' });
      return list.map((address) => ({ address }));
    };

  it('spreads calls over every address of the name', async () => {
    const set = replicaSet('http://people:3000', answers(['10.9.0.1', '10.9.0.2']));
    await set.resolve();
    expect(set.addresses).toEqual(['10.9.0.1', '10.9.0.2']);
    const picked = [set.pick(), set.pick(), set.pick(), set.pick()].map((r) => r.address);
    expect(picked.sort()).toEqual(['10.9.0.1', '10.9.0.1', '10.9.0.2', '10.9.0.2']);
  });

  it('drops an address that refused a connection at once, and picks another for the retry', async () => {
    const set = replicaSet('http://people:3000', answers(['10.9.0.1', '10.9.0.2']));
    await set.resolve();
    const down = set.pick();
    set.failed(down, 'not-connected');
    expect(set.readyAddresses).toEqual(set.addresses.filter((a) => a !== down.address));
    for (let i = 0; i < 5; i++) expect(set.pick()).not.toBe(down);
    expect(set.pick(down)).not.toBe(down);
  });

  it('sends to every address when none is ready (the service answers its 503 as before)', async () => {
    const set = replicaSet('http://people:3000', answers(['10.9.0.1', '10.9.0.2']));
    await set.resolve();
    const [a, b] = [set.pick(), set.pick()];
    set.failed(a, 'not-connected');
    set.failed(b, 'not-connected');
    expect(set.readyAddresses).toEqual([]);
    expect(new Set([set.pick(), set.pick()]).size).toBe(2);
  });

  it('keeps a single address whatever fails, and the last addresses when a lookup fails', async () => {
    const set = replicaSet('http://people:3000', answers(['10.9.0.1'], []));
    await set.resolve();
    const only = set.pick();
    set.failed(only, 'not-connected');
    expect(set.readyAddresses).toEqual(['10.9.0.1']);
    await set.resolve(); // ENOTFOUND
    expect(set.addresses).toEqual(['10.9.0.1']);
    expect(set.pick()).toBe(only);
  });

  it('follows the name: a replica gone is dropped, one that stays keeps its connections', async () => {
    const set = replicaSet(
      'http://people:3000',
      answers(['10.9.0.1', '10.9.0.2'], ['10.9.0.2'], ['10.9.0.2']),
    );
    await set.resolve();
    const kept = set.pick(set.pick());
    await set.resolve();
    expect(set.addresses).toEqual(['10.9.0.2']);
    expect(set.pick()).toBe(kept.address === '10.9.0.2' ? kept : set.pick());
  });

  it('never looks an IP literal up', async () => {
    const lookup = jest.fn(answers(['10.9.0.7']));
    const set = replicaSet('http://127.0.0.1:3000', lookup);
    await set.resolve();
    set.failed(set.pick(), 'not-connected');
    expect(lookup).not.toHaveBeenCalled();
    expect(set.addresses).toEqual(['127.0.0.1']);
  });
});
