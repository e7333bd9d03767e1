import { IsString, MaxLength } from 'class-validator';
import { checkItems, checkObject, orThrow } from './input-check';

class Item {
  @IsString() @MaxLength(3) text!: string;
}

describe('input validation of bodies the pipe cannot see', () => {
  it('checks one object, refusing unknown fields', () => {
    expect(checkObject(Item, { text: 'abc' }).problems).toEqual([]);
    expect(
      checkObject(Item, { text: 'abcd', x: 1 }).problems.map((p) => [p.field, p.rule]),
    ).toEqual([
      ['x', 'whitelistValidation'],
      ['text', 'maxLength'],
    ]);
    expect(checkObject(Item, 'text').problems).toEqual([{ field: 'body', rule: 'isObject' }]);
    expect(checkObject(Item, null, '[2]').problems).toEqual([{ field: '[2]', rule: 'isObject' }]);
  });

  it('drops constructor, prototype and __proto__ keys at any depth, as the pipe does (no TypeError)', () => {
    // class-transformer took a `constructor` own key of a nested plain object for its class and
    // threw "Cannot read properties of undefined (reading 'constructor')": a 500 for the body
    // {"currency":{"constructor":1}} of ES2, found by the gateway's bad-input probe
    const body = JSON.parse(
      '{"text":{"constructor":-5,"prototype":1,"__proto__":{"a":1}},"constructor":1}',
    ) as object;
    expect(checkObject(Item, body).problems.map((p) => [p.field, p.rule])).toEqual([
      ['text', 'isString'],
    ]);
    const items = JSON.parse('[{"text":"ok","constructor":0},{"text":[{"constructor":2}]}]');
    expect(checkItems(Item, items).problems.map((p) => [p.field, p.rule])).toEqual([
      ['[1].text', 'isString'],
    ]);
  });

  it('checks a list item by item and names each item by index', () => {
    const checked = checkItems(Item, [{ text: 'ok' }, { text: 5 }, 7]);
    expect(checked.problems.map((p) => [p.field, p.rule])).toEqual([
      ['[1].text', 'isString'],
      ['[2]', 'isObject'],
    ]);
    expect(checkItems(Item, { text: 'a' }).problems[0]).toMatchObject({
      field: 'body',
      rule: 'isArray',
    });
    expect(checkItems(Item, []).problems[0]).toMatchObject({ rule: 'arrayMinSize' });
    expect(checkItems(Item, [{ text: 'a' }, { text: 'b' }], 1).problems[0]).toMatchObject({
      rule: 'arrayMaxSize',
      args: { constraint1: 1 },
    });
  });

  it('accepts objects without a prototype (GraphQL arguments) and throws a 400 listing problems', () => {
    const bare = Object.assign(Object.create(null) as object, { text: 'abc' });
    expect(checkObject(Item, bare).value).toBeInstanceOf(Item);
    expect(() => orThrow(checkItems(Item, [{ text: 'abcd' }]))).toThrow(
      expect.objectContaining({
        status: 400,
        problems: [expect.objectContaining({ field: '[0].text' })],
      }),
    );
  });
});
