import { AppException, checkItems, checkObject, fieldPath, isUuid } from '@crm/errors';
import { likePattern } from '@crm/paging';
import { CreatePersonInput, EmbeddedTagInput } from './dto/person.input';
import { requirePersonId } from './people-input';

describe('checkItems', () => {
  it('names every problem by the index of its item', () => {
    const { problems, value } = checkItems(CreatePersonInput, [
      { firstname: 'ok' },
      { firstname: 'x'.repeat(201), extra: 1 },
      'text',
      { orgaTags: [{ text: 'a' }, { id: 'nope' }] },
    ]);
    expect(value).toHaveLength(4);
    expect(problems.map((p) => `${p.field}:${p.rule}`)).toEqual([
      '[1].extra:whitelistValidation',
      '[1].firstname:maxLength',
      '[2]:isObject',
      '[3].orgaTags[1].id:isUuid',
    ]);
    expect(problems[1].args).toEqual({ constraint1: '200' });
  });

  it('checks the size of the list before its items', () => {
    const rule = (raw: unknown, max?: number, min?: number) =>
      checkItems(EmbeddedTagInput, raw, max, min).problems.map((p) => `${p.field}:${p.rule}`);
    expect(rule({})).toEqual(['body:isArray']);
    expect(rule([])).toEqual(['body:arrayMinSize']);
    expect(rule([], 10, 0)).toEqual([]);
    expect(rule(Array.from({ length: 1001 }, () => ({ text: 'a' })))).toEqual([
      'body:arrayMaxSize',
    ]);
    expect(rule(Array.from({ length: 1000 }, () => ({ text: 'a' })))).toEqual([]);
  });

  it('accepts objects without a prototype, as GraphQL hands them over', () => {
    const raw = Object.assign(Object.create(null) as object, { firstname: 'G' });
    const { problems, value } = checkObject(CreatePersonInput, raw);
    expect(problems).toEqual([]);
    expect(value).toBeInstanceOf(CreatePersonInput);
    expect(value.firstname).toBe('G');
  });
});

describe('ids and paths', () => {
  it('answers 404 for an id that cannot be a UUID', () => {
    expect(() => requirePersonId('1')).toThrow(AppException);
    expect(() => requirePersonId('6F9619FF-8B86-4011-B42D-00C04FC964FF')).not.toThrow();
    expect(isUuid(42)).toBe(false);
  });

  it('joins field paths', () => {
    expect(fieldPath('', 'a.b')).toBe('a.b');
    expect(fieldPath('[2]', 'id')).toBe('[2].id');
    expect(fieldPath('items', '[2]')).toBe('items[2]');
  });

  it('makes % and _ of a search text literal', () => {
    expect(likePattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});
