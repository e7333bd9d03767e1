import { AppException } from '@crm/errors';
import { afterOf, CursorFieldKind, cursorValue, decodeCursor, encodeCursor } from './cursor';
import type { SortField } from './sort';

type F = 'lastname' | 'dateCreated' | 'id';
const KINDS: Record<F, CursorFieldKind> = {
  lastname: { type: 'text', nullable: true },
  dateCreated: { type: 'timestamp', nullable: false },
  id: { type: 'uuid', nullable: false },
};
const SORT: SortField<F>[] = [
  { field: 'lastname', direction: 'asc' },
  { field: 'dateCreated', direction: 'desc' },
  { field: 'id', direction: 'asc' },
];
const ID = '0190a1b2-c3d4-7e5f-8a6b-1c2d3e4f5a6b';
const AT = '2026-01-02T03:04:05.678Z';

function problem(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppException);
    expect((err as AppException).status).toBe(400);
    return (err as AppException).problems[0];
  }
  throw new Error('expected a 400');
}

const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('cursor', () => {
  it('round-trips the sort key values, NULLs and non-ASCII text included', () => {
    for (const values of [
      ['Müller-Lüdenscheidt', AT, ID],
      [null, AT, ID],
    ]) {
      const after = encodeCursor(SORT, values);
      expect(after).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(after, SORT, KINDS)).toEqual(values);
    }
    expect(cursorValue(new Date(AT))).toBe(AT);
    expect(cursorValue(undefined)).toBeNull();
  });

  it('refuses a cursor of another sort, naming both sorts', () => {
    const other = encodeCursor(
      [
        { field: 'lastname', direction: 'desc' },
        { field: 'id', direction: 'asc' },
      ],
      ['A', ID],
    );
    expect(problem(() => decodeCursor(other, SORT, KINDS))).toMatchObject({
      field: 'after',
      rule: 'cursorSortMismatch',
      args: { cursorSort: '-lastname,id', sort: 'lastname,-dateCreated,id' },
    });
  });

  it('refuses malformed cursors and values of the wrong type as invalidCursor', () => {
    const s = 'lastname,-dateCreated,id';
    for (const after of [
      'not a cursor!',
      'bm90IGpzb24',
      raw([1, 2]),
      raw({ v: 2, s, k: ['A', AT, ID] }),
      raw({ v: 1, s, k: ['A', AT] }),
      raw({ v: 1, s, k: 'A' }),
      raw({ v: 1, s, k: [5, AT, ID] }),
      raw({ v: 1, s, k: ['A', null, ID] }),
      raw({ v: 1, s, k: ['A', '2026-01-02', ID] }),
      raw({ v: 1, s, k: ['A', '2026-13-45T99:00:00.000Z', ID] }),
      raw({ v: 1, s, k: ['A', AT, 'x'] }),
      raw({ v: 1, s, k: ['A', AT, null] }),
    ]) {
      expect(problem(() => decodeCursor(after, SORT, KINDS))).toMatchObject({
        field: 'after',
        rule: 'invalidCursor',
      });
    }
  });

  it('takes a blank after as none and refuses after together with page', () => {
    expect(afterOf({ after: ' ' })).toBeUndefined();
    expect(afterOf({ after: 'abc', page: null })).toBe('abc');
    expect(problem(() => afterOf({ after: 'abc', page: 1 }))).toMatchObject({
      field: 'after',
      rule: 'cursorWithPage',
    });
  });
});
