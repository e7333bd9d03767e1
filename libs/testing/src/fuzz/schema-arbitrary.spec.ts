import fc from 'fast-check';
import { hostileValue, mutateAt, mutatedArbitrary, schemaArbitrary } from './schema-arbitrary';

const doc = {
  components: {
    schemas: {
      Tag: {
        type: 'object',
        properties: {
          text: { type: 'string', maxLength: 5 },
          id: { type: 'string', readOnly: true },
        },
        required: ['text'],
      },
      Person: {
        type: 'object',
        properties: {
          name: { type: 'string', maxLength: 10, nullable: true },
          kind: { type: 'string', enum: ['a', 'b'] },
          id: { type: 'string', format: 'uuid' },
          at: { type: 'string', format: 'date-time' },
          size: { type: 'number', minimum: 1, maximum: 5 },
          tags: {
            type: 'array',
            items: { $ref: '#/components/schemas/Tag' },
            minItems: 1,
            maxItems: 3,
          },
          birthday: {
            nullable: true,
            type: 'object',
            allOf: [{ $ref: '#/components/schemas/Tag' }],
          },
        },
        required: ['kind', 'tags'],
      },
    },
  },
};

describe('schemaArbitrary', () => {
  it('generates values of the described shape: types, bounds, enums, formats, required fields', () => {
    fc.assert(
      fc.property(schemaArbitrary({ $ref: '#/components/schemas/Person' }, doc), (v) => {
        const p = v as Record<string, any>;
        expect(['a', 'b']).toContain(p.kind);
        expect(p.tags.length).toBeGreaterThanOrEqual(1);
        expect(p.tags.length).toBeLessThanOrEqual(3);
        for (const t of p.tags) {
          expect(typeof t.text).toBe('string');
          expect([...t.text].length).toBeLessThanOrEqual(5);
          expect(t).not.toHaveProperty('id'); // read-only fields are not sent
        }
        if ('name' in p && p.name !== null) expect([...p.name].length).toBeLessThanOrEqual(10);
        if ('id' in p) expect(p.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
        if ('at' in p) expect(new Date(p.at).toISOString()).toBe(p.at);
        if ('size' in p) expect(p.size >= 1 && p.size <= 5).toBe(true);
        if ('birthday' in p && p.birthday !== null) expect(typeof p.birthday.text).toBe('string');
      }),
      { seed: 1, numRuns: 200 },
    );
  });

  it('draws uuids from the ids it is given', () => {
    const known = fc.constant('11111111-1111-4111-8111-111111111111');
    const ids = fc.sample(
      schemaArbitrary({ type: 'string', format: 'uuid' }, doc, { uuid: known }),
      {
        seed: 3,
        numRuns: 100,
      },
    );
    expect(ids).toContain('11111111-1111-4111-8111-111111111111');
  });
});

describe('mutations', () => {
  it('replaces one node, or adds a hostile own key, without touching the original', () => {
    const original = { a: { b: 1, c: [1, 2] }, d: 'x' };
    expect(mutateAt(original, [0, 0], null, null)).toEqual({ a: { b: null, c: [1, 2] }, d: 'x' });
    expect(mutateAt(original, [], 'top', null)).toBe('top');
    const polluted = mutateAt(original, [], { polluted: true }, 0) as object;
    expect(Object.keys(polluted)).toContain('__proto__');
    expect(JSON.stringify(polluted)).toContain('"__proto__":{"polluted":true}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(original).toEqual({ a: { b: 1, c: [1, 2] }, d: 'x' });
  });

  it('yields wrong types, prototype keys and extremes across a sample', () => {
    const valid = schemaArbitrary({ $ref: '#/components/schemas/Person' }, doc);
    const sample = fc
      .sample(mutatedArbitrary(valid, hostileValue()), { seed: 7, numRuns: 300 })
      .map((m) => JSON.stringify(m) ?? 'undefined');
    expect(sample.some((m) => m.includes('"__proto__"'))).toBe(true);
    expect(sample.some((m) => !m.startsWith('{'))).toBe(true);
    expect(sample.some((m) => m.length > 1000)).toBe(true);
  });
});
