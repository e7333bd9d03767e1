import { InvalidStorageKeyError } from './file-storage';
import { encodeTenantSegment, parseStorageKey, storageKey } from './storage-key';

describe('storageKey', () => {
  it('puts the tenant first, after the tenants folder', () => {
    expect(storageKey('acme-1', 'people', 'p1', 'documents', 'd1')).toBe(
      'tenants/acme-1/people/p1/documents/d1',
    );
  });

  it('refuses segments that could leave their folder', () => {
    for (const bad of ['..', '.', '', 'a/b', 'a\\b', '.hidden', 'x\0y', 'é', ' a']) {
      expect(() => storageKey('t', 'people', bad)).toThrow(InvalidStorageKeyError);
    }
  });

  it('accepts plain names with dots inside', () => {
    expect(storageKey('t', 'img', 'detail.webp')).toBe('tenants/t/img/detail.webp');
  });
});

describe('encodeTenantSegment', () => {
  it('keeps safe ids and escapes everything else, % included, so ids never collide', () => {
    expect(encodeTenantSegment('tenant.a_b-1')).toBe('tenant.a_b-1');
    expect(encodeTenantSegment('a/b')).toBe('a%2Fb');
    expect(encodeTenantSegment('a%2Fb')).toBe('a%252Fb');
    expect(encodeTenantSegment('..')).toBe('%2E.');
    expect(encodeTenantSegment('Müller')).toBe('M%C3%BCller');
  });

  it('refuses an empty tenant id', () => {
    expect(() => encodeTenantSegment('')).toThrow(InvalidStorageKeyError);
  });
});

describe('parseStorageKey', () => {
  it('returns the segments of a well-formed key', () => {
    expect(parseStorageKey('tenants/a%2Fb/x/y.bin')).toEqual(['tenants', 'a%2Fb', 'x', 'y.bin']);
  });

  it.each([
    ['../etc/passwd'],
    ['tenants/t/../../etc'],
    ['tenants/t/./x'],
    ['tenants//x'],
    ['/tenants/t/x'],
    ['other/t/x'],
    ['tenants/t'],
    ['tenants/t/x/'],
    ['tenants/t/.x'],
  ])('refuses %s', (key) => {
    expect(() => parseStorageKey(key)).toThrow(InvalidStorageKeyError);
  });

  it('accepts a tenant folder as a prefix when asked for two segments', () => {
    expect(parseStorageKey('tenants/t', 2)).toEqual(['tenants', 't']);
    expect(() => parseStorageKey('tenants', 2)).toThrow(InvalidStorageKeyError);
  });
});
