import { envelope, errorEnvelope, paged } from './envelope';

describe('envelope', () => {
  it('wraps an object with totalResults 1 and a UTC timestamp', () => {
    const e = envelope({ id: 'a' }, 201);
    expect(e).toEqual({
      data: { id: 'a' },
      message: null,
      metaData: { totalResults: 1, responseTimeStamp: expect.stringMatching(/Z$/) },
      statusCode: 201,
    });
  });

  it('carries the total across pages for a page', () => {
    const e = envelope(paged([1, 2], 40), 200);
    expect(e.data).toEqual([1, 2]);
    expect(e.metaData.totalResults).toBe(40);
  });

  it('adds the extras of a page to metaData, never over the total or the timestamp', () => {
    const e = envelope(
      paged([1], 3, { nextCursor: 'abc', totalResultsExact: false, totalResults: 9 }),
      200,
    );
    expect(e.metaData).toEqual({
      nextCursor: 'abc',
      totalResultsExact: false,
      totalResults: 3,
      responseTimeStamp: expect.stringMatching(/Z$/),
    });
    expect(Object.keys(envelope(paged([1], 1), 200).metaData).sort()).toEqual([
      'responseTimeStamp',
      'totalResults',
    ]);
  });

  it('counts arrays and null', () => {
    expect(envelope([1, 2, 3], 200).metaData.totalResults).toBe(3);
    expect(envelope(null, 200).metaData.totalResults).toBe(0);
  });

  it('shapes errors with data null and field errors only when there are some', () => {
    expect(errorEnvelope(404, 'nope')).not.toHaveProperty('errors');
    const e = errorEnvelope(400, 'bad', [
      { field: 'x', rule: 'isString', message: 'x must be a text' },
    ]);
    expect(e).toMatchObject({ data: null, statusCode: 400, errors: [{ field: 'x' }] });
  });
});
