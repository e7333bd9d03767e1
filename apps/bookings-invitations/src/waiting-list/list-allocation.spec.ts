import { allocateToList, WaitingSeats } from './list-allocation';

const A = 'a0000000-0000-0000-0000-000000000000';
const B = 'b0000000-0000-0000-0000-000000000000';
const entry = (id: string, ticketTypeId: string, quantity: number): WaitingSeats => ({
  id,
  ticketTypeId,
  quantity,
});

describe('allocateToList', () => {
  it('offers in list order while seats are free; the public gets nothing the list can use', () => {
    const r = allocateToList({ types: new Map([[A, 3]]), event: null }, [
      entry('1', A, 1),
      entry('2', A, 1),
      entry('3', A, 1),
      entry('4', A, 1),
    ]);
    expect(r.offers.map((o) => o.id)).toEqual(['1', '2', '3']);
    expect(r.publicFree.types.get(A)).toBe(0);
  });

  it('passes over an entry that does not fit to the first that does; the rest is the public’s', () => {
    const r = allocateToList({ types: new Map([[A, 3]]), event: null }, [
      entry('1', A, 4),
      entry('2', A, 2),
      entry('3', A, 2),
    ]);
    expect(r.offers.map((o) => o.id)).toEqual(['2']);
    expect(r.publicFree.types.get(A)).toBe(1);
  });

  it('counts the event’s capacity across types, and leaves types without entries alone', () => {
    const r = allocateToList(
      {
        types: new Map<string, number | null>([
          [A, 5],
          [B, null],
        ]),
        event: 2,
      },
      [entry('1', A, 1), entry('2', A, 2), entry('3', A, 1)],
    );
    expect(r.offers.map((o) => o.id)).toEqual(['1', '3']);
    expect(r.publicFree).toEqual({
      types: new Map<string, number | null>([
        [A, 3],
        [B, null],
      ]),
      event: 0,
    });
  });

  it('without entries or seats: no offers, free unchanged', () => {
    const free = { types: new Map([[A, 0]]), event: 10 };
    expect(allocateToList(free, [entry('1', A, 1)])).toEqual({ offers: [], publicFree: free });
    expect(allocateToList({ types: new Map([[A, 2]]), event: null }, []).offers).toEqual([]);
  });
});
