import { deeperThan, MAX_JSON_DEPTH } from './http-adapter';

const nested = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe('deeperThan', () => {
  it('counts objects and arrays as levels, scalars not', () => {
    expect(deeperThan(1, 1)).toBe(false);
    expect(deeperThan({ a: 1 }, 1)).toBe(false);
    expect(deeperThan({ a: [1] }, 1)).toBe(true);
    expect(deeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(deeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('walks 100,000 levels without recursion', () => {
    expect(deeperThan(nested(100_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it('looks at every branch, not only the first', () => {
    expect(deeperThan([1, { a: 1 }, [[[[1]]]]], 4)).toBe(true);
    expect(deeperThan([1, { a: 1 }, [[[1]]]], 4)).toBe(false);
  });
});
