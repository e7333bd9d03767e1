import { admitInOrder, FreeSeats } from './seat-admission';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const seats = (...pairs: [string, number][]) =>
  pairs.map(([ticketTypeId, count]) => ({ ticketTypeId, count }));
const free = (types: [string, number | null][], event: number | null): FreeSeats => ({
  types: new Map(types),
  event,
});

describe('admitInOrder', () => {
  it('admits in arrival order until the quota is used up, then refuses naming the type', () => {
    const out = admitInOrder([seats([A, 2]), seats([A, 2]), seats([A, 1])], free([[A, 3]], null));
    expect(out).toEqual([
      { admitted: true },
      { admitted: false, soldOut: { kind: 'ticketType', ticketTypeId: A } },
      { admitted: true },
    ]);
  });

  it('takes all seats of a booking or none: a refused booking leaves its seats to the next', () => {
    const out = admitInOrder(
      [seats([A, 1], [B, 2]), seats([A, 1])],
      free(
        [
          [A, 1],
          [B, 1],
        ],
        null,
      ),
    );
    expect(out).toEqual([
      { admitted: false, soldOut: { kind: 'ticketType', ticketTypeId: B } },
      { admitted: true },
    ]);
  });

  it("checks the event's capacity after the quotas", () => {
    const out = admitInOrder(
      [seats([A, 2]), seats([B, 1]), seats([A, 1])],
      free(
        [
          [A, null],
          [B, 5],
        ],
        2,
      ),
    );
    expect(out).toEqual([
      { admitted: true },
      { admitted: false, soldOut: { kind: 'event' } },
      { admitted: false, soldOut: { kind: 'event' } },
    ]);
  });

  it('sells nothing of a ticket type that is gone', () => {
    expect(admitInOrder([seats([B, 1])], free([[A, 10]], null))).toEqual([
      { admitted: false, soldOut: { kind: 'ticketType', ticketTypeId: B } },
    ]);
  });

  it('merges tickets of one type and ignores case in ids', () => {
    const out = admitInOrder([seats([A, 1], [A.toUpperCase(), 1])], free([[A, 1]], null));
    expect(out).toEqual([{ admitted: false, soldOut: { kind: 'ticketType', ticketTypeId: A } }]);
  });

  it('leaves its input alone', () => {
    const f = free([[A, 1]], 1);
    admitInOrder([seats([A, 1])], f);
    expect(f).toEqual(free([[A, 1]], 1));
  });
});
