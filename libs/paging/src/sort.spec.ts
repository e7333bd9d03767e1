import { AppException } from '@crm/errors';
import { parseSort, toOrderBy } from './sort';
import { skipTake } from './page-query';

describe('parseSort', () => {
  const allowed = ['lastname', 'firstname', 'dateCreated', 'id'] as const;

  it('parses ascending and descending fields and adds the tie breaker', () => {
    const s = parseSort('lastname,-dateCreated', allowed, [], 'id');
    expect(toOrderBy(s)).toEqual([{ lastname: 'asc' }, { dateCreated: 'desc' }, { id: 'asc' }]);
  });

  it('uses the fallback when no sort is given', () => {
    expect(parseSort(undefined, allowed, [{ field: 'lastname', direction: 'asc' }])).toEqual([
      { field: 'lastname', direction: 'asc' },
    ]);
  });

  it('refuses an unknown field with a 400 naming it', () => {
    try {
      parseSort('lastname,password', allowed, []);
      throw new Error('expected AppException');
    } catch (err) {
      expect(err).toBeInstanceOf(AppException);
      const e = err as AppException;
      expect(e.status).toBe(400);
      expect(e.problems[0]).toMatchObject({
        field: 'sort',
        rule: 'unknownSortField',
        args: { value: 'password' },
      });
    }
  });
});

describe('skipTake', () => {
  it('pages from 1 with a default size of 50', () => {
    expect(skipTake({})).toEqual({ skip: 0, take: 50 });
    expect(skipTake({ page: 3, pageSize: 20 })).toEqual({ skip: 40, take: 20 });
  });
});
