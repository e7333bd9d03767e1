import { displayName, initials } from './person.mapper';

describe('computed person fields', () => {
  it('builds initials from first and last name, upper case', () => {
    expect(initials({ firstname: 'anna', lastname: 'schmidt' })).toBe('AS');
    expect(initials({ firstname: null, lastname: 'Özdemir' })).toBe('Ö');
    expect(initials({ firstname: '  ', lastname: null })).toBe('');
  });

  it('builds the name from first and last name, skipping empty parts', () => {
    expect(displayName({ firstname: 'Anna', lastname: 'Schmidt' })).toBe('Anna Schmidt');
    expect(displayName({ firstname: null, lastname: ' Schmidt ' })).toBe('Schmidt');
    expect(displayName({ firstname: null, lastname: null })).toBe('');
  });
});
