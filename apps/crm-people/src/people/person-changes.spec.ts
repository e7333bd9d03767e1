import { isEmpty, newPersonScalars, personChanges } from './person-changes';

describe('personChanges (P5 semantics)', () => {
  it('leaves absent fields out and turns null into a clear', () => {
    const c = personChanges({ firstname: 'Ann', title: null });
    expect(c.scalars).toEqual({ firstname: 'Ann', title: null });
    expect(c.lifecycleId).toBeUndefined();
    expect(c.orgaTags).toBeUndefined();
    expect(c.personalities).toBeUndefined();
  });

  it('treats birthday per sub-field, and null for the whole object clears both', () => {
    expect(personChanges({ birthday: { considerBirthYear: false } }).scalars).toEqual({
      considerBirthYear: false,
    });
    expect(personChanges({ birthday: { birthday: '1990-12-31T10:00:00Z' } }).scalars).toEqual({
      birthday: new Date('1990-12-31T00:00:00Z'),
    });
    expect(personChanges({ birthday: null }).scalars).toEqual({
      birthday: null,
      considerBirthYear: null,
    });
  });

  it('replaces lists: null and [] both give an empty list', () => {
    expect(personChanges({ socialMedias: null }).scalars.socialMedias).toEqual([]);
    expect(
      personChanges({ importantDates: [{ text: 'X', date: '2020-01-01T12:00:00+02:00' }] }).scalars
        .importantDates,
    ).toEqual([{ text: 'X', date: '2020-01-01T10:00:00.000Z' }]);
    expect(personChanges({ orgaTags: null }).orgaTags).toEqual([]);
    expect(personChanges({ personalities: [{ text: 'a' }] }).personalities).toEqual([
      { text: 'a' },
    ]);
  });

  it('reads the lifecycle: an id sets, null (object or id) clears, {} leaves it', () => {
    expect(personChanges({ lifecycle: { lifecycleId: 'x' } }).lifecycleId).toBe('x');
    expect(personChanges({ lifecycle: null }).lifecycleId).toBeNull();
    expect(personChanges({ lifecycle: { lifecycleId: null } }).lifecycleId).toBeNull();
    expect(personChanges({ lifecycle: {} }).lifecycleId).toBeUndefined();
  });

  it('knows an empty body changes nothing', () => {
    expect(isEmpty(personChanges({}))).toBe(true);
    expect(isEmpty(personChanges({ lifecycle: {} }))).toBe(true);
    expect(isEmpty(personChanges({ orgaTags: [] }))).toBe(false);
    expect(isEmpty(personChanges({ lastname: null }))).toBe(false);
  });
});

describe('newPersonScalars (P3, P9)', () => {
  it('stores absent fields as null and lists as []', () => {
    expect(newPersonScalars({ lastname: 'L' })).toEqual({
      salutation: null,
      title: null,
      firstname: null,
      lastname: 'L',
      birthday: null,
      considerBirthYear: null,
      importantDates: [],
      socialMedias: [],
      customerNumber: null,
      employeeStatus: null,
      employeeNumber: null,
    });
  });
});
