import { isUniqueViolation } from './prisma-errors';

// The shapes as Prisma 7 with @prisma/adapter-pg reports a duplicate key (seen on PostgreSQL 15).
const adapterCause = {
  originalCode: '23505',
  originalMessage: 'duplicate key value violates unique constraint "SettingsEntry_lower_text_key"',
  kind: 'UniqueConstraintViolation',
  constraint: { index: 'SettingsEntry_lower_text_key' },
  table: 'SettingsEntry',
};

describe('isUniqueViolation', () => {
  it('recognises P2002 of a model query', () => {
    expect(
      isUniqueViolation({
        code: 'P2002',
        meta: { driverAdapterError: { cause: adapterCause }, modelName: 'SettingsEntry' },
      }),
    ).toBe(true);
  });

  it('recognises 23505 of raw SQL (P2010), by the adapter cause or by the code', () => {
    expect(
      isUniqueViolation({ code: 'P2010', meta: { driverAdapterError: { cause: adapterCause } } }),
    ).toBe(true);
    expect(isUniqueViolation({ code: 'P2010', meta: { code: '23505' } })).toBe(true);
  });

  it('leaves other errors alone', () => {
    expect(isUniqueViolation({ code: 'P2003' })).toBe(false);
    expect(isUniqueViolation({ code: 'P2010', meta: { code: '40P01' } })).toBe(false);
    expect(isUniqueViolation(new Error('boom'))).toBe(false);
    expect(isUniqueViolation({ code: '23505' })).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
});
