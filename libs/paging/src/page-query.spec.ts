import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { MAX_PAGE, PageQuery, skipTake } from './page-query';

const problems = (query: Record<string, string>) =>
  validateSync(plainToInstance(PageQuery, query)).map((e) => [
    e.property,
    Object.keys(e.constraints ?? {}),
  ]);

describe('PageQuery', () => {
  it('refuses a page whose offset no database takes (it answered 500)', () => {
    expect(problems({ page: '99999999999999999999' })).toEqual([['page', ['max']]]);
    expect(problems({ page: String(MAX_PAGE + 1) })).toEqual([['page', ['max']]]);
    expect(problems({ page: '-5', pageSize: '999999' })).toEqual([
      ['page', ['min']],
      ['pageSize', ['max']],
    ]);
  });

  it('takes the highest page, whose offset stays a safe 32-bit integer', () => {
    const query = plainToInstance(PageQuery, { page: String(MAX_PAGE), pageSize: '500' });
    expect(validateSync(query)).toEqual([]);
    expect(skipTake(query).skip).toBeLessThan(2 ** 31);
  });
});
